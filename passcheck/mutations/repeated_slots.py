"""A node reading one value in several input slots ↔ each later slot reading an equal copy. IR.md
§Nodes: a node's inputs are value names, and one name may fill several slots (``Mul(x, x)``,
``Concat(a, a)``); a node is a pure function of its inputs and attributes, so a second node with the
producer's op, inputs and attributes computes the same value, and a slot may read either.

- ``repeated-slot-copy``: a main-graph node that reads the output of a deterministic, single-output
  main-graph node without subgraphs in two or more slots gets, for each slot after the first, a copy
  of that producer (fresh output name, placed right after it). Sites are the reading nodes.
- Back: ``merge-duplicate-nodes`` (:mod:`passcheck.mutations.shared_nodes`) merges the copies.

A value that is a graph input or an initializer has no producer to copy (an initializer's copy is
``duplicate-shared-initializer``'s)."""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite, all_names, fresh_name, node_label
from passcheck.mutations._freedom import Freedom
from passcheck.mutations._graph_edit import set_nodes
from passcheck.mutations._only import wanted
from passcheck.mutations.shared_nodes import _pure

if TYPE_CHECKING:
    import onnx


def copy_repeated(model: onnx.ModelProto, only: Collection[str] | None = None) -> list[str]:
    """Each node reading a pure node's output in several slots → later slots read fresh copies of it."""
    import onnx

    g = model.graph
    producer = {n.output[0]: k for k, n in enumerate(g.node) if _pure(n)}
    after: dict[int, list[onnx.NodeProto]] = {}
    taken: set[str] | None = None
    sites = []
    for i, n in enumerate(g.node):
        label = node_label(n, i)
        seen: set[str] = set()
        repeated = [j for j, x in enumerate(n.input) if x in producer and (x in seen or seen.add(x))]
        if not repeated or not wanted(only, label):
            continue
        taken = all_names(model) if taken is None else taken
        for j in repeated:
            source = g.node[producer[n.input[j]]]
            copy = onnx.NodeProto()
            copy.CopyFrom(source)
            copy.name = fresh_name(taken, f"{source.name or source.op_type}_slot_copy")
            copy.output[0] = fresh_name(taken, f"{source.output[0]}_slot{j}")
            after.setdefault(producer[n.input[j]], []).append(copy)
            n.input[j] = copy.output[0]
        sites.append(label)
    if sites:
        set_nodes(g, [m for k, n in enumerate(g.node) for m in (n, *after.get(k, []))])
    return sites


REWRITES = (
    Rewrite(
        "repeated-slot-copy",
        "a node reading one node output in several slots → each later slot reads a copy of the producer",
        copy_repeated,
        inverse="merge-duplicate-nodes",
    ),
)

FREEDOMS = (
    Freedom(
        "repeated-input-slot",
        "nodes",
        "IR.md §Nodes (inputs are value names; one name may fill several slots; a node is a pure function of its "
        "inputs and attributes)",
        "A node may read one value in several slots, or read an equal copy (a second node with the producer's op, "
        "inputs and attributes) in the later ones.",
        ("repeated-slot-copy", "merge-duplicate-nodes"),
        "main-graph nodes whose repeated value is the output of a deterministic single-output main-graph node "
        "without subgraphs (random ops never); copies placed right after the producer; merge-duplicate-nodes "
        "merges them back (initializers: duplicate-shared-initializer)",
    ),
)
