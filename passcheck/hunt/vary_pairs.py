"""Neighbours that hold a pair of ops a pass cancels as inverses where the pair is *not* the identity.

Passes remove ``Cast(Cast(x, to=A), to=T)`` and ``Transpose(Transpose(x, p), q)`` (onnxruntime's Cast
elimination and transpose optimizer, onnxscript's ``cast_cast`` and ``transpose_transpose`` rules). The Cast
pair is x only when A represents every value of T (:func:`passcheck.mutations.cast_round_trip.represents`,
Operators.md Cast); the Transpose pair only when q = p⁻¹; a Reshape back to a value's own shape after a
Transpose keeps its shape, not its elements' places (Operators.md Reshape: the data order never changes). A pass
that cancels one of these computes another result than the unoptimized neighbour (the numeric oracle). Hunt only:
these are not equivalent forms.

Form ids use the variation grammar ``vary:<kind>@<site>`` (:mod:`.variation`), site: the value's name:

==================  ======================================================================================
kind                change
==================  ======================================================================================
``cast-narrow``     every node reading the value reads ``Cast(Cast(x, to=N), to=T)`` instead, N the first of
                    :data:`NARROW` for T with onnxruntime CPU Cast kernels both ways
``transpose-pair``  every node reading the value reads ``Reshape(Transpose(Transpose(x, p), p), shape of x)``,
                    p the rotation ``[1, …, r-1, 0]`` (r ≥ 3: p∘p moves every axis, so it is no identity); the
                    Reshape gives the readers x's shape back, whatever p∘p does to it (a constant, ``-1`` at x's
                    one dim that is not static, as for ``transpose-regroup``; else ``Shape(x)``; ``allowzero=1``
                    from Reshape-14 for zero-size dims)
``transpose-        a rank-2 value: every node reading it reads ``Reshape(Transpose(x), shape of x)``, the
regroup``           ``perm`` ``[1, 0]`` (written out) then a Reshape to x's shape (a constant, ``-1`` at
                    x's one dim that is not static, so x keeps its one reader; else ``Shape(x)``): x's shape,
                    x's elements in the transposed order. At rank 2 every Transpose pair is the identity or one
                    swap, so ``transpose-pair`` has no site there; this is its rank-2 form. A pass that walks
                    through layout ops as if they kept each element's place (onnxruntime's MatmulBNFusion skips
                    Reshape and Transpose between MatMul and BatchNormalization, ``matmul_bn_fusion.cc``
                    ``ignorable_nodes``) computes another result than the unoptimized neighbour
==================  ======================================================================================

N is chosen so the loss shows on the feeds the hunt runs (:func:`passcheck.runtime.synthesize`: standard
normal floats, integers in [0, 4)) beyond the numeric oracle's tolerance (float32 rtol 1e-4, float64 1e-6,
float16 1e-2: :data:`passcheck.oracles.numeric.TOLERANCES`): float and double to float16 (a relative error up
to 2^-11; double → float's 2^-24 would hide under float64's rtol), float16 and bfloat16 to int32 (truncation),
every integer type to bool (2 and 3 become 1). Sites: values main-graph nodes read (graph inputs and node
outputs, never initializers or Constant outputs) of a known element type; transpose-pair also needs a known rank
≥ 3 with at least two dims not statically 1 (else p∘p moves no data), transpose-regroup a known rank of exactly 2
with neither dim statically 1 (else the transpose moves no element); both no zero-size dim below opset 14.
Graph outputs keep reading the value.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from passcheck.hunt import value_names

if TYPE_CHECKING:
    import onnx

KINDS = ("cast-narrow", "transpose-pair", "transpose-regroup")
#: The rank the ``transpose-regroup`` kind takes (module docs).
REGROUP_RANK = 2
#: Element type → narrowing types tried in order (module docs).
NARROW: dict[int, tuple[int, ...]] = {
    1: (10, 6),  # FLOAT → FLOAT16, INT32
    11: (10, 6),  # DOUBLE → FLOAT16, INT32
    10: (6,),  # FLOAT16 → INT32
    16: (6,),  # BFLOAT16 → INT32
    **{t: (9,) for t in (2, 3, 4, 5, 6, 7, 12, 13)},  # integers → BOOL
}
#: Reshape takes its shape as an input from opset 5, and has ``allowzero`` from 14.
RESHAPE_INPUT, ALLOWZERO = 5, 14


def is_pair(kind: str) -> bool:
    """Whether ``kind`` (without the ``vary:`` prefix) is one of this module's."""
    return kind in KINDS


def candidates(model: onnx.ModelProto, types: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    """(kind, site) of every neighbour of this module in ``model``; ``types``: value name → TypeProto (inferred)."""
    version = _opset(model)
    for v in _sites(model, types):
        t = types[v].tensor_type
        if _narrow(t.elem_type, version) is not None:
            yield "cast-narrow", v
        if _movable(t, version):
            yield "transpose-pair", v
        if _regroupable(t, version):
            yield "transpose-regroup", v


def build(model: onnx.ModelProto, kind: str, site: str, types: Mapping[str, Any]) -> bool:
    """Change ``model`` in place as ``kind@site`` says; False when ``site`` is no site of that kind."""
    from onnx import helper

    if site not in _sites(model, types):
        return False
    t = types[site].tensor_type
    version = _opset(model)
    taken = value_names.graph_names(model)
    fresh = lambda what: value_names.fresh(f"{site}__{what}", taken)  # noqa: E731
    if kind == "cast-narrow" and (to := _narrow(t.elem_type, version)) is not None:
        a, b = fresh("narrow"), fresh("back")
        nodes = [
            helper.make_node("Cast", [site], [a], name=fresh("narrow_cast"), to=to),
            helper.make_node("Cast", [a], [b], name=fresh("back_cast"), to=t.elem_type),
        ]
    elif kind == "transpose-pair" and _movable(t, version):
        r = len(t.shape.dim)
        p = [*range(1, r), 0]
        a, b, s, out = fresh("t1"), fresh("t2"), fresh("shape"), fresh("pair")
        nodes = [
            helper.make_node("Transpose", [site], [a], name=fresh("transpose1"), perm=p),
            helper.make_node("Transpose", [a], [b], name=fresh("transpose2"), perm=p),
            *_own_shape(model, site, t, s, fresh("shape_node")),
            helper.make_node("Reshape", [b, s], [out], name=fresh("reshape"), **_allowzero(version)),
        ]
    elif kind == "transpose-regroup" and _regroupable(t, version):
        a, s, out = fresh("t"), fresh("shape"), fresh("regroup")
        nodes = [
            helper.make_node("Transpose", [site], [a], name=fresh("transpose"), perm=[1, 0]),
            *_own_shape(model, site, t, s, fresh("shape_node")),
            helper.make_node("Reshape", [a, s], [out], name=fresh("reshape"), **_allowzero(version)),
        ]
    else:
        return False
    g = model.graph
    first = next(i for i, n in enumerate(g.node) if site in n.input)
    last = nodes[-1].output[0]
    for n in g.node:
        n.input[:] = [last if x == site else x for x in n.input]
    new = [*g.node[:first], *nodes, *g.node[first:]]
    del g.node[:]
    g.node.extend(new)
    return True


def _sites(model, types) -> list[str]:
    g = model.graph
    static = {t.name for t in g.initializer} | {
        o for n in g.node if n.op_type == "Constant" and n.domain in ("", "ai.onnx") for o in n.output
    }
    read = {x for n in g.node for x in n.input if x}
    values = [i.name for i in g.input] + [o for n in g.node for o in n.output]
    out = []
    for v in dict.fromkeys(values):
        t = types.get(v)
        if v and v in read and v not in static and t is not None and t.HasField("tensor_type"):
            if t.tensor_type.elem_type:
                out.append(v)
    return out


def _narrow(elem: int, version: int) -> int | None:
    from passcheck.mutations.cast_round_trip import cast_runs

    return next((n for n in NARROW.get(elem, ()) if cast_runs(elem, n, version) and cast_runs(n, elem, version)), None)


def _shape_of(model, x: str, t, out: str, name: str):
    """x's shape as a new initializer when every dim is static (a tool that needs the shape at load time, as the
    onnx version converter's Reshape-5 → 4 adapter does, sees it) and no node, else the node ``Shape(x)``."""
    import numpy as np
    from onnx import helper, numpy_helper

    dims = [d.dim_value if d.HasField("dim_value") else None for d in t.shape.dim]
    if None in dims:
        return [helper.make_node("Shape", [x], [out], name=name)]
    model.graph.initializer.append(numpy_helper.from_array(np.array(dims, np.int64), out))
    return []


def _own_shape(model, x: str, t, out: str, name: str):
    """x's shape for the Reshape that ends a ``transpose-pair`` or ``transpose-regroup``, read from x's declaration
    where it can be: an initializer with ``-1`` at the one dim that is not static (Reshape: ``-1`` takes the remaining
    size), so x keeps its one reader and a fusion that wants a single consumer of x still sees one; else (two dims
    not static, or a static 0 beside one, where ``-1`` is undefined) :func:`_shape_of` (``Shape(x)``)."""
    import numpy as np
    from onnx import numpy_helper

    dims = [d.dim_value if d.HasField("dim_value") else None for d in t.shape.dim]
    if dims.count(None) == 1 and 0 not in dims:
        model.graph.initializer.append(
            numpy_helper.from_array(np.array([-1 if d is None else d for d in dims], np.int64), out)
        )
        return []
    return _shape_of(model, x, t, out, name)


def _allowzero(version: int) -> dict[str, int]:
    """``allowzero=1`` from Reshape-14: a 0 in the shape is a zero-size dim, not "copy the input's dim" (which
    would take the transposed tensor's dim, not x's)."""
    return {"allowzero": 1} if version >= ALLOWZERO else {}


def _movable(t, version: int) -> bool:
    """Rank ≥ 3 known, at least two dims not statically 1 (module docs), Reshape's shape an input, and no
    zero-size dim before ``allowzero`` (Reshape-5 to 13 read a 0 as "the input's dim")."""
    if version < RESHAPE_INPUT or not t.HasField("shape") or len(t.shape.dim) < 3:
        return False
    if version < ALLOWZERO and any(d.HasField("dim_value") and d.dim_value == 0 for d in t.shape.dim):
        return False
    return sum(not (d.HasField("dim_value") and d.dim_value == 1) for d in t.shape.dim) >= 2


def _regroupable(t, version: int) -> bool:
    """Rank exactly :data:`REGROUP_RANK` known, neither dim statically 1, Reshape's shape an input, and no zero-size
    dim before ``allowzero`` (module docs)."""
    if version < RESHAPE_INPUT or not t.HasField("shape") or len(t.shape.dim) != REGROUP_RANK:
        return False
    static = [d.dim_value if d.HasField("dim_value") else None for d in t.shape.dim]
    return 1 not in static and (version >= ALLOWZERO or 0 not in static)


def _opset(model) -> int:
    return next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), 0)
