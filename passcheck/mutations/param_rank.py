"""A parameter initializer read by a broadcasting op → the same values with leading 1-dims up to
the op's output rank ([H] → [1, 1, H]) (issue 18.4). ONNX rule: multidirectional broadcasting
(Broadcasting.md, since opset 7; Max/Min/Sum/Mean since opset 8) right-aligns shapes and a
dim of 1 stretches, so leading 1s change neither the output shape nor its values; PRelu's
unidirectional broadcast of ``slope`` to X allows the same while the rank stays <= X's rank;
MatMul (MatMul-9+) broadcasts the batch dims in front of a weight's last two, so a 2-D weight
may gain leading 1s up to the output rank."""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from passcheck.mutations._base import (
    Rewrite,
    all_names,
    fresh_name,
    is_default_domain,
    names_used_in_subgraphs,
    node_label,
    opset,
)
from passcheck.mutations._only import wanted
from passcheck.mutations._shapes import known

if TYPE_CHECKING:
    import onnx

BROADCASTING = frozenset(
    {
        "Add",
        "Sub",
        "Mul",
        "Div",
        "Pow",
        "Max",
        "Min",
        "Sum",
        "Mean",
        "Where",
        "Equal",
        "Less",
        "Greater",
        "LessOrEqual",
        "GreaterOrEqual",
        "And",
        "Or",
        "Xor",
        "Mod",
        "BitShift",
        "PRelu",
    }
)
MIN_OPSET = 8
#: op → the input slots that may gain leading 1s (every slot when not listed).
SLOTS = {"PRelu": (1,), "MatMul": (1,)}


def leading_ones(model: onnx.ModelProto, only: Collection[str] | None = None) -> list[str]:
    """Each broadcasting node (or MatMul, for a weight of rank >= 2) reading a non-input initializer of lower rank than its output gets a
    copy of that initializer reshaped to the output rank (one copy per (initializer, rank));
    an initializer nothing reads any more is removed. Sites are the reading nodes."""
    import onnx

    if opset(model) < MIN_OPSET:
        return []
    g = model.graph
    inputs = {v.name for v in g.input}
    params = {t.name: t for t in g.initializer if t.name not in inputs and t.data_location != onnx.TensorProto.EXTERNAL}
    if not params:
        return []
    info = None
    taken: set[str] | None = None
    copies: dict[tuple[str, int], str] = {}
    sites = []
    for i, n in enumerate(g.node):
        label = node_label(n, i)
        if (
            (n.op_type not in BROADCASTING and n.op_type != "MatMul")
            or not is_default_domain(n)
            or not wanted(only, label)
        ):
            continue
        slots = [
            s
            for s, x in enumerate(n.input)
            if x in params and s in SLOTS.get(n.op_type, (s,)) and (n.op_type != "MatMul" or len(params[x].dims) >= 2)
        ]  # a 1-D MatMul operand is a vector, not a matrix
        if not slots:
            continue
        info = known(model) if info is None else info
        out = info.get(n.output[0])
        if out is None or out.rank is None:
            continue
        changed = False
        for s in slots:
            p = params[n.input[s]]
            if len(p.dims) >= out.rank:
                continue
            key = (p.name, out.rank)
            if key not in copies:
                taken = all_names(model) if taken is None else taken
                t = onnx.TensorProto()
                t.CopyFrom(p)
                t.name = fresh_name(taken, f"{p.name}_rank{out.rank}")
                del t.dims[:]
                t.dims.extend([1] * (out.rank - len(p.dims)) + list(p.dims))
                g.initializer.append(t)
                copies[key] = t.name
            n.input[s] = copies[key]
            changed = True
        if changed:
            sites.append(label)
    if sites:
        read = {x for n in g.node for x in n.input} | {o.name for o in g.output} | names_used_in_subgraphs(g)
        keep = [t for t in g.initializer if t.name in read or t.name in inputs]
        del g.initializer[:]
        g.initializer.extend(keep)
    return sites


REWRITES = (
    Rewrite(
        "parameter-leading-ones",
        "a parameter initializer of a broadcasting op or a MatMul weight → leading 1-dims up to the output rank ([H] → [1, 1, H]; opset >= 8)",
        leading_ones,
    ),
)
