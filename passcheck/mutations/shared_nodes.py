"""One node read by several nodes ↔ one copy per reader (issue 15). ONNX rule: a node is a pure
function of its inputs and attributes (IR spec, "Nodes"), so two nodes with the same op, inputs
and attributes compute the same value, and any reader may read either. Only deterministic,
single-output main-graph nodes without subgraphs; random ops (RandomNormal, …, Dropout) never."""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite, all_names, consumers, fresh_name, node_label, subgraphs
from passcheck.mutations._graph_edit import protected, set_nodes
from passcheck.mutations._only import wanted

if TYPE_CHECKING:
    import onnx

RANDOM = frozenset(
    {"RandomNormal", "RandomUniform", "RandomNormalLike", "RandomUniformLike", "Multinomial", "Bernoulli", "Dropout"}
)


def _pure(n: onnx.NodeProto) -> bool:
    return len(n.output) == 1 and bool(n.output[0]) and n.op_type not in RANDOM and not any(True for _ in subgraphs(n))


def duplicate(model: onnx.ModelProto, only: Collection[str] | None = None) -> list[str]:
    """Each node whose output two or more nodes read → a copy (fresh output name) right after it for
    every reader but the first. Sites: the shared nodes."""
    import onnx

    g = model.graph
    readers = consumers(g)
    taken: set[str] | None = None
    sites, new_nodes = [], []
    for i, n in enumerate(g.node):
        new_nodes.append(n)
        label = node_label(n, i)
        users = sorted(set(readers.get(n.output[0], []))) if _pure(n) else []
        if len(users) < 2 or not wanted(only, label):
            continue
        taken = all_names(model) if taken is None else taken
        for j in users[1:]:
            copy = onnx.NodeProto()
            copy.CopyFrom(n)
            copy.name = fresh_name(taken, f"{n.name or n.op_type}_copy")
            copy.output[0] = fresh_name(taken, f"{n.output[0]}_copy")
            new_nodes.append(copy)
            reader = g.node[j]
            reader.input[:] = [copy.output[0] if x == n.output[0] else x for x in reader.input]
        sites.append(label)
    if sites:
        set_nodes(g, new_nodes)
    return sites


def merge(model: onnx.ModelProto, only: Collection[str] | None = None) -> list[str]:
    """Each node identical (op, domain, inputs, attributes) to an earlier one → removed, its readers
    reading the earlier node's output; not when its output is a graph output or read by a subgraph.
    Sites: the removed nodes."""
    g = model.graph
    keep = protected(g)
    first: dict[bytes, str] = {}
    rename: dict[str, str] = {}
    sites, drop = [], set()
    for i, n in enumerate(g.node):
        if not _pure(n):
            continue
        key_node = type(n)()
        key_node.CopyFrom(n)
        key_node.name = ""
        key_node.output[0] = ""
        key_node.ClearField("doc_string")
        key_node.input[:] = [rename.get(x, x) for x in n.input]
        key = key_node.SerializeToString(deterministic=True)
        if key not in first:
            first[key] = n.output[0]
            continue
        label = node_label(n, i)
        if n.output[0] in keep or not wanted(only, label):
            continue
        rename[n.output[0]] = first[key]
        drop.add(i)
        sites.append(label)
    if sites:
        kept = [n for i, n in enumerate(g.node) if i not in drop]
        for n in kept:
            n.input[:] = [rename.get(x, x) for x in n.input]
        set_nodes(g, kept)
    return sites


REWRITES = (
    Rewrite(
        "duplicate-shared-node",
        "a node read by several nodes → one copy per reader (nodes are pure functions)",
        duplicate,
        inverse="merge-duplicate-nodes",
    ),
    Rewrite(
        "merge-duplicate-nodes",
        "identical nodes (op, inputs, attributes) → one node read by all their readers",
        merge,
        inverse="duplicate-shared-node",
    ),
)
