"""A one-element constant operand of a broadcasting op spelled as a scalar (shape []) or with ones
([1], [1, 1], …) (ONNX Broadcasting.md, multidirectional broadcasting since opset 7, Max/Min/Sum/Mean
since 8: shapes are right-aligned, the shorter one padded with leading 1s, and a dim of 1 stretches).
A tensor of shape [1, …, 1] of rank r and the scalar with the same element give the same output values;
the output shape is unchanged as long as another operand of the node has rank >= r, which is checked.
Unlike ``parameter-leading-ones`` (initializers, up to the output rank) this covers Constant nodes too
and the way back to rank 0. Main graph only; the new tensor keeps the spelling it replaces (initializer
or Constant); sites are the reading nodes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations._base import (
    Rewrite,
    all_names,
    chosen,
    drop_unused,
    is_default_domain,
    node_label,
    opset,
    static_tensors,
)
from passcheck.mutations._shapes import known
from passcheck.mutations.catalogue import Freedom
from passcheck.mutations.index_sign import fresh_static
from passcheck.mutations.param_rank import BROADCASTING, MIN_OPSET, SLOTS

if TYPE_CHECKING:
    import onnx


def _edit(model: onnx.ModelProto, only: frozenset[str] | None, to_scalar: bool) -> list[str]:
    from onnx import numpy_helper

    g = model.graph
    if opset(model) < MIN_OPSET:
        return []
    static = static_tensors(g)
    info = None
    taken: set[str] | None = None
    made: dict[str, str] = {}  # old tensor → its new spelling (shared by every reader)
    before: dict[int, list[onnx.NodeProto]] = {}
    sites, freed = [], set()
    for i, n in enumerate(g.node):
        label = node_label(n, i)
        if n.op_type not in BROADCASTING or not is_default_domain(n) or not chosen(only, label):
            continue
        slots = [
            s
            for s, x in enumerate(n.input)
            if x in static
            and s in SLOTS.get(n.op_type, (s,))
            and all(d == 1 for d in static[x].dims)
            and (bool(static[x].dims) if to_scalar else not static[x].dims)
        ]
        if not slots:
            continue
        info = known(model) if info is None else info
        changed = False
        for s in slots:
            x = n.input[s]
            rank = 1 if not to_scalar else len(static[x].dims)
            others = [info.get(y) for j, y in enumerate(n.input) if j != s and y]
            if not any(k is not None and k.rank is not None and k.rank >= rank for k in others):
                continue  # the output rank would change
            if x not in made:
                taken = all_names(model) if taken is None else taken
                value = numpy_helper.to_array(static[x])
                value = value.reshape(()) if to_scalar else value.reshape((1,))
                new = fresh_static(g, taken, f"{x}_{'scalar' if to_scalar else 'one'}", value, x)
                made[x] = new[0].output[0] if new else g.initializer[-1].name
                before.setdefault(i, []).extend(new)
            n.input[s] = made[x]
            freed.add(x)
            changed = True
        if changed:
            sites.append(label)
    if sites:
        nodes = [m for i, n in enumerate(g.node) for m in [*before.get(i, []), n]]
        del g.node[:]
        g.node.extend(nodes)
        drop_unused(g, freed)
    return sites


def ones_as_scalar(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Static operands of shape [1, …, 1] of a broadcasting op → the scalar (shape []) of the same element,
    where another operand's rank is at least theirs."""
    return _edit(model, only, to_scalar=True)


def scalar_as_one(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Static scalar (shape []) operands of a broadcasting op → shape [1], where another operand has rank >= 1."""
    return _edit(model, only, to_scalar=False)


REWRITES = (
    Rewrite(
        "operand-ones-as-scalar",
        "a one-element constant operand [1, …, 1] of a broadcasting op → the scalar [] (another operand keeps "
        "the output rank; opset >= 8)",
        ones_as_scalar,
        inverse="operand-scalar-as-one",
    ),
    Rewrite(
        "operand-scalar-as-one",
        "a scalar constant operand [] of a broadcasting op → shape [1] (another operand has rank >= 1; opset >= 8)",
        scalar_as_one,
        inverse="operand-ones-as-scalar",
    ),
)

FREEDOMS = (
    Freedom(
        "broadcast-operand-scalar-or-ones",
        "operator schemas",
        "Broadcasting.md (multidirectional, since opset 7; Max/Min/Sum/Mean since 8); Operators.md PRelu "
        "(unidirectional slope)",
        "A one-element constant operand of a broadcasting op may be a scalar or have shape [1, …, 1] when another "
        "operand's rank is at least as large: the output shape and values are the same.",
        ("operand-ones-as-scalar", "operand-scalar-as-one"),
        "static operands (initializers not listed as inputs, Constant outputs) of main-graph broadcasting nodes "
        "whose other operands' ranks shape inference knows; one copy per tensor, its spelling kept.",
    ),
)
