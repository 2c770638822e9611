"""A constant a subgraph uses, defined inside the subgraph ↔ in the graph around it (IR.md §Nodes: a
node input in a nested subgraph MAY refer to names introduced in outer graphs; value names are
unique across scopes).

- ``hoist-subgraph-constant``: a Constant node at the top level of an If/Loop/Scan body (its output
  not a body output) → moved to the enclosing graph (or function body), right before the node that
  holds the body; the body reads it from the outer scope. One level per application.
- ``sink-constant-into-subgraph``: a Constant node whose output only nodes inside one body of one
  node read (no outer node, no graph output, no other body) → moved to the top of that body.

Sites: the Constant's output name (unique model-wide).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite, chosen, is_default_domain, subgraphs
from passcheck.mutations._freedom import Freedom
from passcheck.mutations._graph_edit import set_nodes

if TYPE_CHECKING:
    import onnx


def _is_constant(n: onnx.NodeProto) -> bool:
    return n.op_type == "Constant" and is_default_domain(n) and not n.input and len(n.output) == 1


def _containers(model: onnx.ModelProto) -> list:
    """Every node list that may hold a node with a body (the main graph, function bodies, every
    subgraph), children before their parent: editing a list replaces its node protos, so a parent is
    edited only once its bodies are done."""
    out: list = []

    def visit(c) -> None:
        for n in c.node:
            for sg in subgraphs(n):
                visit(sg)
        out.append(c)

    for c in [model.graph, *model.functions]:
        visit(c)
    return out


def _reads(g: onnx.GraphProto) -> set[str]:
    names = {o.name for o in g.output}
    for n in g.node:
        names.update(n.input)
        for sg in subgraphs(n):
            names |= _reads(sg)
    return names


def hoist(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Body-level Constant nodes → the enclosing node list (one level)."""
    sites: list[str] = []
    for c in _containers(model):
        out, here = [], []
        for n in c.node:
            for sg in subgraphs(n):
                body_outputs = {o.name for o in sg.output}
                move = [
                    m
                    for m in sg.node
                    if _is_constant(m)
                    and m.output[0] not in body_outputs
                    and m.output[0] not in sites
                    and chosen(only, m.output[0])
                ]
                if move:
                    names = {m.output[0] for m in move}
                    out.extend(_copy(m) for m in move)
                    set_nodes(sg, [_copy(m) for m in sg.node if not (_is_constant(m) and m.output[0] in names)])
                    here += [m.output[0] for m in move]
            out.append(_copy(n))
        if here:
            set_nodes(c, out)
            sites += here
    return sites


def _copy(n: onnx.NodeProto) -> onnx.NodeProto:
    import onnx

    c = onnx.NodeProto()
    c.CopyFrom(n)
    return c


def sink(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Constant nodes read by one body only → the top of that body."""
    sites = []
    for c in _containers(model):
        outer = {x for n in c.node for x in n.input}
        outer |= {o.name for o in c.output} if hasattr(c.output, "add") else set(c.output)
        moved = []
        for n in c.node:
            if not _is_constant(n) or n.output[0] in outer or not chosen(only, n.output[0]):
                continue
            readers = [sg for m in c.node for sg in subgraphs(m) if n.output[0] in _reads(sg)]
            if len(readers) == 1:
                body = readers[0]
                set_nodes(body, [_copy(n), *[_copy(m) for m in body.node]])
                moved.append(n.output[0])
        if moved:
            set_nodes(c, [_copy(n) for n in c.node if not (_is_constant(n) and n.output[0] in moved)])
            sites += moved
    return sites


REWRITES = (
    Rewrite(
        "hoist-subgraph-constant",
        "a Constant at the top of an If/Loop/Scan body → the enclosing graph (read from the outer scope)",
        hoist,
        inverse="sink-constant-into-subgraph",
        detail="values",
    ),
    Rewrite(
        "sink-constant-into-subgraph",
        "a Constant only one body reads → inside that body",
        sink,
        inverse="hoist-subgraph-constant",
        detail="values",
    ),
)

FREEDOMS = (
    Freedom(
        "outer-scope-or-local-constant",
        "subgraphs",
        "IR.md §Nodes (a node input in a nested subgraph MAY refer to names introduced in outer graphs)",
        "A constant a body uses may be defined inside the body or in the enclosing graph and read from the outer "
        "scope.",
        ("hoist-subgraph-constant", "sink-constant-into-subgraph"),
        "every body of every scope (function bodies' bodies too), one level per application (depth 2 moves two); "
        "with subgraph-constant-to-initializer at depth 2, also body initializers.",
    ),
)
