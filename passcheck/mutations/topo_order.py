"""Another valid topological order of the main graph (ONNX IR spec, "Graphs": nodes must be
topologically sorted; any such order has the same meaning). Reads by subgraphs of outer-scope
values count as dependencies."""

from __future__ import annotations

import heapq
from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite, node_label, subgraphs
from passcheck.mutations._freedom import Freedom

if TYPE_CHECKING:
    import onnx


def _reads(node: onnx.NodeProto) -> set[str]:
    names = {x for x in node.input if x}

    def walk(g: onnx.GraphProto) -> None:
        for n in g.node:
            names.update(x for x in n.input if x)
            for sg in subgraphs(n):
                walk(sg)

    for sg in subgraphs(node):
        walk(sg)
    return names


def latest_ready_first(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Reorder the nodes so that, of the nodes ready to run, the one latest in the original order goes first.

    Sites are the nodes that move. Limited to ``only``, just those nodes are deferred: each goes
    as late as its readers allow (right before its first reader, or to the end), the rest keep
    their order.
    """
    return reorder(model.graph, only, node_label)


def in_bodies(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """:func:`latest_ready_first` in every subgraph and model-local function body (not the main graph);
    sites are labelled as in :mod:`passcheck.mutations._scopes`."""
    from passcheck.mutations._scopes import scopes

    sites = []
    for scope in scopes(model):
        if scope.kind != "main":
            sites += reorder(scope.body, only, scope.label)
    return sites


def reorder(g, only: frozenset[str] | None, label) -> list[str]:
    """The reordering of :func:`latest_ready_first` on one node list ``g.node`` (a graph or a function
    body); ``label(node, index)`` names the sites."""
    node_label = label
    nodes = list(g.node)
    producer = {o: i for i, n in enumerate(nodes) for o in n.output if o}
    deps = [{producer[x] for x in _reads(n) if x in producer and producer[x] != i} for i, n in enumerate(nodes)]
    users: list[list[int]] = [[] for _ in nodes]
    for i, d in enumerate(deps):
        for j in d:
            users[j].append(i)
    deferred = {i for i, n in enumerate(nodes) if only is not None and node_label(n, i) in only}
    # heap key: all nodes latest-first (only=None), else the others in their order, deferred ones last
    key = (lambda i: -i) if only is None else (lambda i: (i in deferred, i))
    pending = [len(d) for d in deps]
    ready = [key(i) for i, p in enumerate(pending) if p == 0]
    heapq.heapify(ready)
    index = {key(i): i for i in range(len(nodes))}
    order = []
    while ready:
        i = index[heapq.heappop(ready)]
        order.append(i)
        for u in users[i]:
            pending[u] -= 1
            if pending[u] == 0:
                heapq.heappush(ready, key(u))
    if len(order) != len(nodes) or order == list(range(len(nodes))):
        return []  # not sorted to begin with (left alone), or only one order exists
    del g.node[:]
    g.node.extend(nodes[i] for i in order)
    moved = [i for pos, i in enumerate(order) if pos != i]
    return [node_label(nodes[i], i) for i in sorted(moved if only is None else deferred.intersection(moved))]


REWRITES = (
    Rewrite(
        "reverse-topo-order",
        "the main graph's nodes in another valid topological order (latest ready node first)",
        latest_ready_first,
    ),
    Rewrite(
        "reverse-topo-order-bodies",
        "every subgraph's and function body's nodes in another valid topological order",
        in_bodies,
    ),
)

FREEDOMS = (
    Freedom(
        "body-node-order",
        "subgraphs",
        "IR.md §Graphs (a subgraph is a graph: topologically sorted nodes), §Functions "
        "(a function body is a topologically sorted list of nodes)",
        "The nodes of an If/Loop/Scan body or of a function body may come in any topological order.",
        ("reverse-topo-order-bodies",),
        "every subgraph (nested too) and every model-local function body; the main graph: reverse-topo-order.",
    ),
)
