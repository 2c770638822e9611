"""Implicit (numpy) broadcasting ↔ an explicit Unsqueeze/Expand in front of the broadcasting op
(ONNX "Broadcasting in ONNX": multidirectional broadcasting first prepends 1s to the shorter shape,
then stretches dims of size 1; Unsqueeze with the leading axes does the first step, Expand both).
Only the main graph, only where onnx shape inference knows the ranks (and, to drop an Expand, every
dim). PRelu broadcasts unidirectionally (its slope to X): only the slope is moved, never X."""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations._base import (
    Rewrite,
    all_names,
    chosen,
    consumers,
    drop_unused,
    fresh_name,
    is_default_domain,
    names_used_in_subgraphs,
    node_label,
    opset,
    static_axes,
    static_tensors,
    value_shapes,
)
from passcheck.mutations._graph_edit import int64_constant

if TYPE_CHECKING:
    import onnx

#: Ops with multidirectional broadcasting → the opset from which they broadcast that way.
BROADCASTING: dict[str, int] = {
    **dict.fromkeys(("Add", "Sub", "Mul", "Div", "Pow", "And", "Or", "Xor", "Equal", "Greater", "Less"), 7),
    **dict.fromkeys(("Sum", "Max", "Min", "Mean"), 8),
    "Where": 9,
    "Mod": 10,
    "BitShift": 11,
    "GreaterOrEqual": 12,
    "LessOrEqual": 12,
    **dict.fromkeys(("BitwiseAnd", "BitwiseOr", "BitwiseXor"), 18),
}
#: Ops with unidirectional broadcasting → (the opset from which they broadcast that way, the index of the operand
#: that broadcasts to the other): PRelu-7+ ("slope should be unidirectional broadcastable to input tensor X").
#: Only that operand may be written at the target's shape or read back from below it; the target (X) must keep its
#: own shape, so an Expand on it is never dropped.
UNIDIRECTIONAL: dict[str, tuple[int, int]] = {"PRelu": (7, 1)}
#: Unsqueeze takes ``axes`` as an input from opset 13 (an attribute before); Expand exists from
#: opset 8 and its int64 shape can come from a Constant from opset 9.
AXES_INPUT_OPSET, EXPAND_OPSET = 13, 9


def _since(op: str) -> int:
    """The opset from which ``op`` broadcasts (either kind); a large number for any other op."""
    return BROADCASTING.get(op, UNIDIRECTIONAL.get(op, (10**6,))[0])


def _broadcasting(model: onnx.ModelProto, only: frozenset[str] | None):
    version = opset(model)
    for i, n in enumerate(model.graph.node):
        if is_default_domain(n) and _since(n.op_type) <= version and chosen(only, node_label(n, i)):
            yield i, n


def _may_move(n: onnx.NodeProto, k: int) -> bool:
    """Whether operand ``k`` of broadcasting node ``n`` may be broadcast explicitly or read from below: any operand of
    a multidirectional op; only the broadcast operand of a unidirectional one (:data:`UNIDIRECTIONAL`)."""
    return n.op_type not in UNIDIRECTIONAL or UNIDIRECTIONAL[n.op_type][1] == k


def _unsqueeze(model: onnx.ModelProto, taken: set[str], x: str, axes: list[int], base: str) -> list[onnx.NodeProto]:
    """Nodes computing Unsqueeze(x, axes) into a fresh value (the last node's output)."""
    import onnx

    out = fresh_name(taken, f"{x}_unsqueezed")
    if opset(model) < AXES_INPUT_OPSET:
        return [onnx.helper.make_node("Unsqueeze", [x], [out], name=fresh_name(taken, f"{base}_unsqueeze"), axes=axes)]
    const = int64_constant(taken, f"{out}_axes", axes)
    return [
        const,
        onnx.helper.make_node("Unsqueeze", [x, const.output[0]], [out], name=fresh_name(taken, f"{base}_unsqueeze")),
    ]


def _expand(taken: set[str], x: str, shape: tuple[int, ...], base: str) -> list[onnx.NodeProto]:
    """Nodes computing Expand(x, shape) into a fresh value (the last node's output)."""
    import onnx

    out = fresh_name(taken, f"{x}_expanded")
    const = int64_constant(taken, f"{x}_expanded_shape", shape)
    return [
        const,
        onnx.helper.make_node("Expand", [x, const.output[0]], [out], name=fresh_name(taken, f"{base}_expand")),
    ]


def explicit(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Make every operand of a broadcasting op explicit: a lower-rank operand gets an Unsqueeze of
    the missing leading axes (``Add(x[N,C,H,W], b[C,1,1])`` → ``Add(x, Unsqueeze(b, [0]))``); from
    opset 9, an operand of the output's rank but smaller, every dim known, gets an Expand to the
    output's shape (``Mul(x[2,3], s[1,3])`` → ``Mul(x, Expand(s, [2,3]))``). Sites are the
    broadcasting nodes."""
    candidates = list(_broadcasting(model, only))
    if not candidates:
        return []
    shapes = value_shapes(model)
    ranks = {name: len(s) for name, s in shapes.items()}
    can_expand = opset(model) >= EXPAND_OPSET
    taken = all_names(model)
    g = model.graph
    before: dict[int, list] = {}
    sites = []
    for i, n in candidates:
        if not all(x and x in ranks for x in n.input) or n.output[0] not in ranks:
            continue
        out_rank = ranks[n.output[0]]
        base = n.name or n.output[0]
        for k, x in enumerate(n.input):
            out_shape = shapes[n.output[0]]
            if not _may_move(n, k):
                continue
            if ranks[x] < out_rank:
                made = _unsqueeze(model, taken, x, list(range(out_rank - ranks[x])), base)
            elif can_expand and None not in out_shape and None not in shapes[x] and shapes[x] != out_shape:
                made = _expand(taken, x, out_shape, base)
            else:
                continue
            before.setdefault(i, []).extend(made)
            n.input[k] = made[-1].output[0]
        if i in before:
            sites.append(node_label(n, i))
    if sites:
        nodes = [m for i, n in enumerate(g.node) for m in [*before.get(i, []), n]]
        del g.node[:]
        g.node.extend(nodes)
    return sites


def _leading(axes: list[int] | None, rank: int | None) -> bool:
    """Whether Unsqueeze ``axes`` (output rank ``rank``) are exactly the leading axes 0..k-1."""
    if not axes or rank is None:
        return False
    return sorted(a + rank if a < 0 else a for a in axes) == list(range(len(axes)))


def _broadcast(shapes: list[tuple]) -> tuple | None:
    import numpy as np

    if any(s is None or None in s for s in shapes):
        return None
    try:
        return tuple(np.broadcast_shapes(*shapes))
    except ValueError:
        return None


def implicit(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Read the input of an Unsqueeze (leading axes only) or an Expand directly where a broadcasting
    op would broadcast it to the same result anyway (its output shape unchanged: for an Unsqueeze,
    another operand has at least its rank; for an Expand, every dim is known). The Unsqueeze/Expand
    and its Constant parameters go when nothing else reads them. Sites are the broadcasting nodes."""
    candidates = list(_broadcasting(model, only))
    if not candidates:
        return []
    g = model.graph
    producer = {o: n for n in g.node for o in n.output if o}
    if not any(
        producer.get(x) is not None and producer[x].op_type in ("Unsqueeze", "Expand")
        for _, n in candidates
        for x in n.input
    ):
        return []
    shapes = value_shapes(model)
    static = static_tensors(g)
    sites, freed = [], set()
    for i, n in candidates:
        changed = False
        for k, x in enumerate(n.input):
            p = producer.get(x)
            if p is None or not is_default_domain(p) or p.op_type not in ("Unsqueeze", "Expand") or not _may_move(n, k):
                continue
            others = [shapes.get(y) for j, y in enumerate(n.input) if j != k]
            if p.op_type == "Unsqueeze":
                rank = len(shapes[x]) if x in shapes else None
                ok = (
                    _leading(static_axes(p, static), rank)
                    and all(o is not None for o in others)
                    and rank is not None
                    and max((len(o) for o in others), default=-1) >= rank
                )
            else:
                out = shapes.get(n.output[0])
                ok = out is not None and _broadcast([shapes.get(p.input[0]), *others]) == out and None not in out
            if ok:
                n.input[k] = p.input[0]
                freed.update([x, *p.input[1:]])
                changed = True
        if changed:
            sites.append(node_label(n, i))
    if sites:
        _drop_dead_producers(g, freed)
    return sites


def _drop_dead_producers(g: onnx.GraphProto, names: set[str]) -> None:
    """Remove Unsqueeze/Expand nodes whose output is among ``names`` and read by nothing, then
    their now-unread Constant parameters."""
    read = set(consumers(g)) | {o.name for o in g.output} | names_used_in_subgraphs(g)
    keep = [
        n
        for n in g.node
        if not (n.op_type in ("Unsqueeze", "Expand") and n.output[0] in names and n.output[0] not in read)
    ]
    del g.node[:]
    g.node.extend(keep)
    drop_unused(g, names)


REWRITES = (
    Rewrite(
        "explicit-broadcast",
        "op(x, b) with b of lower rank → op(x, Unsqueeze(b, leading axes)), of the same rank but smaller → "
        "op(x, Expand(b, shape)) for numpy-broadcasting ops and PRelu's slope (opset >= 7; Expand: opset >= 9, static "
        "shapes)",
        explicit,
        inverse="implicit-broadcast",
    ),
    Rewrite(
        "implicit-broadcast",
        "op(x, Unsqueeze(b, leading axes) or Expand(b, s)) → op(x, b) where broadcasting gives the same result "
        "(opset >= 7; of PRelu only the slope)",
        implicit,
        inverse="explicit-broadcast",
    ),
)
