"""One Reshape ↔ a Reshape → Reshape chain (issue 15). ONNX rule (Reshape-5+): the output has
the shape given, a -1 entry takes the remaining size, and a 0 entry copies the input's dim unless
``allowzero=1`` (Reshape-14+) makes it a literal 0; the data order never changes. So a Reshape may
go through any intermediate shape of the same size, and two Reshapes collapse to the second, as
long as no 0 entry of the final shape copies a dim of the intermediate."""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from passcheck.mutations._base import (
    Rewrite,
    all_names,
    consumers,
    fresh_name,
    is_default_domain,
    node_label,
    opset,
    static_tensors,
    static_vector,
)
from passcheck.mutations._graph_edit import drop_unread, int64_constant, protected, set_nodes
from passcheck.mutations._only import wanted

if TYPE_CHECKING:
    import onnx

MIN_OPSET = 5


def _allowzero(n: onnx.NodeProto) -> bool:
    return any(a.name == "allowzero" and a.i for a in n.attribute)


def _zero_copies(shape: list[int] | None, n: onnx.NodeProto) -> bool:
    """Whether ``n``'s shape may hold a 0 that copies an input dim (unknown shape: may)."""
    return not _allowzero(n) and (shape is None or 0 in shape)


def split(model: onnx.ModelProto, only: Collection[str] | None = None) -> list[str]:
    """Each Reshape(x, s) → Reshape(Reshape(x, [-1]), s); where a 0 in s copies a dim of x (or s is
    not static), the intermediate is Reshape(x, s) itself (reshaping to s twice is the same)."""
    import onnx

    if opset(model) < MIN_OPSET:
        return []
    g = model.graph
    static = static_tensors(g)
    taken: set[str] | None = None
    sites, new_nodes = [], []
    for i, n in enumerate(g.node):
        label = node_label(n, i)
        if n.op_type != "Reshape" or not is_default_domain(n) or len(n.input) != 2 or not wanted(only, label):
            new_nodes.append(n)
            continue
        taken = all_names(model) if taken is None else taken
        base = n.name or n.output[0]
        mid_shape = n.input[1]
        if not _zero_copies(static_vector(static, n.input[1]), n):
            new_nodes.append(int64_constant(taken, f"{base}_flat_shape", [-1]))
            mid_shape = new_nodes[-1].output[0]
        mid = fresh_name(taken, f"{base}_split")
        first = onnx.helper.make_node(
            "Reshape", [n.input[0], mid_shape], [mid], name=fresh_name(taken, f"{base}_split_node")
        )
        first.attribute.extend(n.attribute)
        new_nodes += [first, n]
        n.input[0] = mid
        sites.append(label)
    if sites:
        set_nodes(g, new_nodes)
    return sites


def merge(model: onnx.ModelProto, only: Collection[str] | None = None) -> list[str]:
    """Each Reshape(Reshape(x, s1), s2) whose inner result nothing else reads → Reshape(x, s2), when
    s2 is static and none of its 0 entries copies a dim (no 0, or ``allowzero=1``). Sites: the outer Reshapes."""
    if opset(model) < MIN_OPSET:
        return []
    g = model.graph
    static = static_tensors(g)
    readers = consumers(g)
    keep = protected(g)
    producer = {o: j for j, n in enumerate(g.node) for o in n.output}
    sites, drop, freed = [], set(), set()
    for i, n in enumerate(g.node):
        label = node_label(n, i)
        if n.op_type != "Reshape" or not is_default_domain(n) or len(n.input) != 2 or not wanted(only, label):
            continue
        j = producer.get(n.input[0])
        inner = g.node[j] if j is not None else None
        if (
            inner is None
            or j in drop
            or inner.op_type != "Reshape"
            or not is_default_domain(inner)
            or len(inner.input) != 2
            or inner.output[0] in keep
            or len(readers.get(inner.output[0], [])) != 1
            or i in drop
        ):
            continue
        if _zero_copies(static_vector(static, n.input[1]), n):
            continue
        n.input[0] = inner.input[0]
        freed.add(inner.input[1])
        drop.add(j)
        sites.append(label)
    if sites:
        set_nodes(g, [n for j, n in enumerate(g.node) if j not in drop])
        drop_unread(g, freed)
    return sites


REWRITES = (
    Rewrite(
        "reshape-split",
        "Reshape(x, s) → Reshape(Reshape(x, [-1] or s), s) (Reshape-5+; 0 entries and allowzero respected)",
        split,
        inverse="reshape-merge",
    ),
    Rewrite(
        "reshape-merge",
        "Reshape(Reshape(x, s1), s2) → Reshape(x, s2) when no 0 in s2 copies a dim (Reshape-5+)",
        merge,
        inverse="reshape-split",
    ),
)
