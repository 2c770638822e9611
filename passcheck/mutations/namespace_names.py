"""Names shared across the IR's namespaces (round 19e, M397).

ONNX spec: IR.md §Names Within a Graph and onnx.proto (each name field is marked with its namespace: Value, Node,
Graph, Operator, Attribute, Shape): a name must be unique within its namespace only, so a node may carry the name of
a value and a graph the name of a value. Exporters write both (a node named like the value it computes). The model
computes the same: a node's name is for diagnostics only (IR.md §Nodes).

- ``node-names-as-values``: every node of every scope (main graph, If/Loop/Scan bodies, function bodies) named like
  its first output — a name unique among nodes, since a value is defined once (IR.md §Nodes), and equal to a value's.
  A node with no named output keeps its name.
- ``graph-names-as-values``: the main graph and every subgraph named like its first output.

A pass that keeps one table for node and value names, or derives a new value's name from a node's name (``NAME`` +
a suffix) without checking the values, may then collide with a value of the same name. Sites: node labels
(:mod:`passcheck.mutations._scopes`); graph sites are the graphs' names as given."""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite, chosen
from passcheck.mutations._freedom import Freedom
from passcheck.mutations._scopes import scopes

if TYPE_CHECKING:
    import onnx


def nodes_as_values(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Each node (every scope) → named like its first output, where that is not its name already."""
    sites = []
    for scope in scopes(model):
        for i, n in enumerate(scope.body.node):
            first = next((o for o in n.output if o), "")
            if first and n.name != first and chosen(only, label := scope.label(n, i)):
                n.name = first
                sites.append(label)
    return sites


def graphs_as_values(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """The main graph and each subgraph → named like its first output (graph names stay unique: values are)."""
    sites = []
    for scope in scopes(model, functions=False):
        g = scope.body
        first = next((v.name for v in g.output if v.name), "")
        if first and g.name != first and chosen(only, g.name):
            sites.append(g.name)
            g.name = first
    return list(dict.fromkeys(sites))


REWRITES = (
    Rewrite(
        "node-names-as-values",
        "each node → named like its first output (Node and Value are separate namespaces, IR.md)",
        nodes_as_values,
        inverse="unname-nodes",
    ),
    Rewrite(
        "graph-names-as-values",
        "each graph → named like its first output (Graph and Value are separate namespaces, IR.md)",
        graphs_as_values,
        inverse="rename-graphs",
        detail="graphs",
    ),
)

FREEDOMS = (
    Freedom(
        "names-across-namespaces",
        "names and domains",
        "IR.md §Names Within a Graph (names are unique within a namespace: values, nodes, graphs, operators, "
        "attributes, shapes); onnx.proto (each name field's namespace)",
        "A node or a graph may carry the same name as a value: the namespaces are separate, and a node's or graph's "
        "name never changes what is computed.",
        ("node-names-as-values", "graph-names-as-values"),
        "every node of every scope (named like its first output) and every graph, main and subgraphs (named like "
        "its first output); composes with every rewrite (depth 2).",
    ),
)
