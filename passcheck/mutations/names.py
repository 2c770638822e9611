"""Names are free (IR.md §Names Within a Graph, §Nodes): a value may be renamed everywhere it
occurs, a node's name is optional and only for diagnostics, and a graph's name only has to exist.

- ``rename-values``: every value a scope defines (node outputs, initializers, and in subgraphs and
  function bodies also the formal inputs, bound by position) gets a fresh C identifier, in the main
  graph, every subgraph and every model-local function body. The main graph's inputs and outputs
  keep their names (they are the interface). Sites: the old names (``FUNCTION/name`` in a function).
- ``name-nodes`` / ``unname-nodes``: unnamed nodes get fresh names / named nodes lose theirs, in
  every scope. Sites: node labels (see :mod:`passcheck.mutations._scopes`).
- ``rename-graphs``: every graph (main and subgraphs) gets a fresh name. Sites: the old names.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite, all_names, chosen, fresh_name, subgraphs
from passcheck.mutations._freedom import Freedom
from passcheck.mutations._scopes import scopes

if TYPE_CHECKING:
    import onnx


def _taken(model: onnx.ModelProto) -> set[str]:
    names = all_names(model)
    for f in model.functions:
        names.update(f.input)
        names.update(f.output)
        for n in f.node:
            names.update(n.input)
            names.update(n.output)
            names.add(n.name)
    return names


def _graph_defs(g: onnx.GraphProto, main: bool) -> Iterable[str]:
    if not main:
        yield from (v.name for v in g.input)
    inputs = {v.name for v in g.input}
    yield from (t.name for t in g.initializer if not (main and t.name in inputs))
    yield from (t.values.name for t in g.sparse_initializer if not (main and t.values.name in inputs))
    for n in g.node:
        yield from (o for o in n.output if o)


def _rename_graph(g: onnx.GraphProto, new: dict[str, str]) -> None:
    """Apply ``new`` (old → new name) to every occurrence in ``g`` and the graphs nested in it."""
    for v in [*g.input, *g.output, *g.value_info]:
        v.name = new.get(v.name, v.name)
    for t in g.initializer:
        t.name = new.get(t.name, t.name)
    for t in g.sparse_initializer:
        t.values.name = new.get(t.values.name, t.values.name)
    for n in g.node:
        _rename_node(n, new)


def _rename_node(n: onnx.NodeProto, new: dict[str, str]) -> None:
    for i, x in enumerate(n.input):
        n.input[i] = new.get(x, x)
    for i, x in enumerate(n.output):
        n.output[i] = new.get(x, x)
    for sg in subgraphs(n):
        _rename_graph(sg, new)


def rename_values(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Give every value a scope defines a fresh name (see the module doc)."""
    if len(model.training_info):
        return []  # its bindings name initializers
    g = model.graph
    interface = {v.name for v in g.input} | {v.name for v in g.output}
    taken = _taken(model)
    new: dict[str, str] = {}
    for scope in scopes(model, functions=False):
        for name in _graph_defs(scope.body, scope.kind == "main"):
            if name not in interface and name not in new and chosen(only, name):
                new[name] = fresh_name(taken, f"v{len(new)}")
    _rename_graph(g, new)
    sites = list(new)
    for f in model.functions:
        local: dict[str, str] = {}
        defs = [*f.input, *(o for n in f.node for o in n.output if o)]
        for name in defs:
            if name not in local and chosen(only, f"{f.name}/{name}"):
                local[name] = fresh_name(taken, f"v{len(new) + len(local)}")
        f.input[:] = [local.get(x, x) for x in f.input]
        f.output[:] = [local.get(x, x) for x in f.output]
        for v in f.value_info:
            v.name = local.get(v.name, v.name)
        for n in f.node:
            _rename_node(n, local)
        sites += [f"{f.name}/{x}" for x in local]
    return sites


def name_nodes(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Give every unnamed node, in every scope, a fresh name."""
    taken, sites = _taken(model), []
    for scope in scopes(model):
        for i, n in enumerate(scope.body.node):
            if not n.name and chosen(only, label := scope.label(n, i)):
                n.name = fresh_name(taken, f"node_{n.op_type}")
                sites.append(label)
    return sites


def unname_nodes(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Clear every node's name, in every scope."""
    sites = []
    for scope in scopes(model):
        for i, n in enumerate(scope.body.node):
            if n.name and chosen(only, label := scope.label(n, i)):
                n.ClearField("name")
                sites.append(label)
    return sites


def rename_graphs(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Give the main graph and every subgraph a fresh name."""
    taken, sites = _taken(model), []
    for scope in scopes(model):
        g = scope.body
        if scope.is_graph and chosen(only, g.name):
            taken.add(g.name)
            sites.append(g.name)
            g.name = fresh_name(taken, "graph")
    return list(dict.fromkeys(sites))


REWRITES = (
    Rewrite(
        "rename-values",
        "every value a scope defines → a fresh name (main-graph inputs/outputs kept; "
        "subgraphs and "
        "function bodies too)",
        rename_values,
        detail="values",
    ),
    Rewrite("name-nodes", "unnamed nodes → fresh node names (every scope)", name_nodes, inverse="unname-nodes"),
    Rewrite(
        "unname-nodes",
        "node names → cleared (node names are optional, for diagnostics only)",
        unname_nodes,
        inverse="name-nodes",
    ),
    Rewrite(
        "rename-graphs", "the main graph's and every subgraph's name → a fresh name", rename_graphs, detail="graphs"
    ),
)

FREEDOMS = (
    Freedom(
        "value-names",
        "names and domains",
        "IR.md §Names Within a Graph, §Nodes (edges are made by name)",
        "A value may carry any unique name: renaming it at its definition and every use changes nothing computed.",
        ("rename-values",),
        "main graph (inputs and outputs kept), every subgraph (its formal inputs and outputs too, bound by "
        "position) and "
        "every function body (its own namespace); its own inverse (names are arbitrary); sites are value names.",
    ),
    Freedom(
        "node-names",
        "names and domains",
        "IR.md §Nodes (name: optional, for diagnostics only)",
        "A node may have a name or none; the name never changes what the node computes.",
        ("name-nodes", "unname-nodes"),
        "every node of every scope; composes with every rewrite (labels of unnamed main-graph nodes are "
        "#index:OpType).",
    ),
    Freedom(
        "graph-names",
        "names and domains",
        "IR.md §Graphs (each graph must have a name), §Names Within a Graph",
        "A graph's name (main graph or subgraph) is free as long as one is given.",
        ("rename-graphs",),
        "the main graph and every subgraph; its own inverse.",
    ),
)
