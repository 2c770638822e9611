"""Another valid topological order of the main graph (ONNX IR spec, "Graphs": nodes must be
topologically sorted; any such order has the same meaning). Reads by subgraphs of outer-scope
values count as dependencies."""

from __future__ import annotations

import heapq
from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite, node_label, subgraphs

if TYPE_CHECKING:
    import onnx


def _reads(node: "onnx.NodeProto") -> set[str]:
    names = {x for x in node.input if x}

    def walk(g: "onnx.GraphProto") -> None:
        for n in g.node:
            names.update(x for x in n.input if x)
            for sg in subgraphs(n):
                walk(sg)

    for sg in subgraphs(node):
        walk(sg)
    return names


def latest_ready_first(model: "onnx.ModelProto", only: frozenset[str] | None = None) -> list[str]:
    """Reorder the nodes so that, of the nodes ready to run, the one latest in the original order goes first.

    Sites are the nodes that move. Limited to ``only``, just those nodes are deferred: each goes
    as late as its readers allow (right before its first reader, or to the end), the rest keep
    their order.
    """
    g = model.graph
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
    Rewrite("reverse-topo-order", "the main graph's nodes in another valid topological order (latest ready node first)", latest_ready_first),
)
