"""Optional operands that change nothing, omitted ↔ written as their neutral value (issue 27):

- Reduce*: ``axes`` omitted (with ``noop_with_empty_axes`` 0, its default) reduces every axis
  (Reduce*-1 … 18: "Not providing axes … reduce all dimensions"), so it is ``axes = [0 … r-1]``
  (attribute, or the int64 input from ReduceSum-13 / the others' 18);
- Clip-11+: a missing ``min`` / ``max`` input means no bound, the same as ``-inf`` / ``+inf`` for a
  float input and the type's lowest / highest value for an integer one (Clip-12+); a finite float
  bound is not neutral (it would clip ±inf);
- Pad-11+ in ``constant`` mode: a missing ``constant_value`` pads with 0 (the spec's default),
  the same as an explicit scalar 0 (``false`` for bool) of the data's element type.

Main graph only; sites are the rewritten nodes. Rank (Reduce) and element type (Clip, Pad) come
from shape inference; nodes where it knows nothing are left alone."""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations._base import (
    Rewrite,
    all_names,
    chosen,
    fresh_name,
    is_default_domain,
    node_label,
    opset,
    static_axes,
    static_tensors,
)
from passcheck.mutations._graph_edit import (
    attr_value,
    drop_attribute,
    edit_sites,
    int64_constant,
    splice,
    trim_trailing_empty,
)
from passcheck.mutations._schema_types import BOOL, FLOATS, SIGNED_INTS, UNSIGNED_INTS, accepts
from passcheck.mutations._shapes import known
from passcheck.mutations.catalogue import Freedom
from passcheck.mutations.keepdims import REDUCE_AXES_INPUT

if TYPE_CHECKING:
    import onnx

#: Clip takes min/max as inputs from 11, integer types from 12; Pad its constant_value from 11.
CLIP_INPUTS, PAD_INPUTS = 11, 11


def _reducing(n: onnx.NodeProto) -> bool:
    """A Reduce* that reduces every axis when ``axes`` is missing (``noop_with_empty_axes`` 0)."""
    return n.op_type in REDUCE_AXES_INPUT and is_default_domain(n) and attr_value(n, "noop_with_empty_axes", 0) == 0


def _reduces(model: onnx.ModelProto, only):
    for i, n in enumerate(model.graph.node):
        if _reducing(n) and chosen(only, node_label(n, i)):
            yield i, n


def reduce_axes_omitted(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Reduce* whose static ``axes`` name every axis of the input (rank known, >= 1) → axes omitted."""
    types, static = known(model), static_tensors(model.graph)

    def omit(_i: int, n: onnx.NodeProto) -> list[str] | None:
        if not _reducing(n):
            return None
        k = types.get(n.input[0])
        axes = static_axes(n, static)
        if k is None or not k.rank or axes is None or sorted(a % k.rank for a in axes) != list(range(k.rank)):
            return None
        freed = list(n.input[1:2])
        del n.input[1:]
        drop_attribute(n, "axes")
        return freed

    return edit_sites(model.graph, only, omit)


def reduce_axes_explicit(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Reduce* without axes (noop_with_empty_axes 0, rank known, >= 1) → axes = [0 … r-1] (attribute
    below the op's axes-input opset, a Constant input from it)."""
    import onnx

    g, types, version = model.graph, known(model), opset(model)
    taken, before, sites = all_names(model), {}, []
    for i, n in _reduces(model, only):
        k = types.get(n.input[0])
        has_axes = any(a.name == "axes" for a in n.attribute) or (len(n.input) > 1 and n.input[1])
        if k is None or not k.rank or has_axes:
            continue
        axes = list(range(k.rank))
        if version >= REDUCE_AXES_INPUT[n.op_type]:
            c = int64_constant(taken, f"{n.output[0]}_axes", axes)
            before[i] = [c]
            del n.input[1:]
            n.input.append(c.output[0])
        else:
            n.attribute.append(onnx.helper.make_attribute("axes", axes))
        sites.append(node_label(n, i))
    if before:
        splice(g, before)
    return sites


def _limits(elem_type: int):
    """(no-lower-bound, no-upper-bound) values of an element type, or None."""
    import numpy as np
    from onnx import helper

    if elem_type in FLOATS and elem_type != 16:  # bfloat16: no numpy type to write ±inf through
        return -np.inf, np.inf
    if elem_type in SIGNED_INTS | UNSIGNED_INTS:
        info = np.iinfo(helper.tensor_dtype_to_np_dtype(elem_type))
        return int(info.min), int(info.max)
    return None


def _scalar(taken: set[str], base: str, elem_type: int, value) -> onnx.NodeProto:
    import numpy as np
    import onnx
    from onnx import numpy_helper

    out = fresh_name(taken, base)
    t = numpy_helper.from_array(np.array(value, dtype=onnx.helper.tensor_dtype_to_np_dtype(elem_type)))
    return onnx.helper.make_node("Constant", [], [out], name=fresh_name(taken, f"{out}_node"), value=t)


def _eligible(model: onnx.ModelProto, n: onnx.NodeProto, op: str, since: int, types) -> int | None:
    k = types.get(n.input[0]) if n.input else None
    if n.op_type != op or not is_default_domain(n) or opset(model) < since or k is None or not k.elem_type:
        return None
    if not accepts(op, opset(model), k.elem_type) or not accepts("Constant", opset(model), k.elem_type):
        return None
    return k.elem_type


def clip_bounds_explicit(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Clip-11+ with a missing min or max → -inf/+inf (floats) or the type's limits (integers)."""
    g, types, taken = model.graph, known(model), all_names(model)
    before, sites = {}, []
    for i, n in enumerate(g.node):
        if (t := _eligible(model, n, "Clip", CLIP_INPUTS, types)) is None or (lim := _limits(t)) is None:
            continue
        ins = list(n.input) + [""] * (3 - len(n.input))
        if all(ins[1:3]) or not chosen(only, node_label(n, i)):
            continue
        made = []
        for slot, value, what in ((1, lim[0], "min"), (2, lim[1], "max")):
            if not ins[slot]:
                c = _scalar(taken, f"{n.output[0]}_{what}", t, value)
                made.append(c)
                ins[slot] = c.output[0]
        before[i] = made
        n.input[:] = ins
        sites.append(node_label(n, i))
    if before:
        splice(g, before)
    return sites


def _trim(n: onnx.NodeProto, slots: list[int]) -> None:
    for s in slots:
        n.input[s] = ""
    trim_trailing_empty(n.input)


def clip_bounds_omitted(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Clip-11+ with a static min of -inf (integers: the type's lowest) or max of +inf (highest) → that
    input omitted."""
    import numpy as np
    from onnx import numpy_helper

    types, static = known(model), static_tensors(model.graph)

    def omit(_i: int, n: onnx.NodeProto) -> list[str] | None:
        if (t := _eligible(model, n, "Clip", CLIP_INPUTS, types)) is None or (lim := _limits(t)) is None:
            return None
        slots = [
            s
            for s, v in ((1, lim[0]), (2, lim[1]))
            if len(n.input) > s
            and n.input[s] in static
            and (a := numpy_helper.to_array(static[n.input[s]])).size == 1
            and bool(np.all(a == v))
        ]
        if not slots:
            return None
        freed = [n.input[s] for s in slots]
        _trim(n, slots)
        return freed

    return edit_sites(model.graph, only, omit)


def _constant_mode(n: onnx.NodeProto) -> bool:
    mode = attr_value(n, "mode", b"constant")
    return (mode.decode() if isinstance(mode, bytes) else mode) == "constant"


def _zero(elem_type: int):
    return False if elem_type == BOOL else 0 if elem_type in SIGNED_INTS | UNSIGNED_INTS | FLOATS - {16} else None


def pad_value_explicit(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Pad-11+ (constant mode) with constant_value missing or ``""`` → an explicit scalar 0 of the data's type."""
    g, types, taken = model.graph, known(model), all_names(model)
    before, sites = {}, []
    for i, n in enumerate(g.node):
        t = _eligible(model, n, "Pad", PAD_INPUTS, types)
        if t is None or (zero := _zero(t)) is None or not _constant_mode(n):
            continue
        if (len(n.input) > 2 and n.input[2]) or not chosen(only, node_label(n, i)):
            continue
        c = _scalar(taken, f"{n.output[0]}_constant_value", t, zero)
        ins = list(n.input) + [""] * max(0, 3 - len(n.input))
        ins[2] = c.output[0]
        n.input[:] = ins
        before[i] = [c]
        sites.append(node_label(n, i))
    if before:
        splice(g, before)
    return sites


def pad_value_omitted(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Pad-11+ (constant mode) with a static constant_value equal to 0 → that input omitted."""
    import numpy as np
    from onnx import numpy_helper

    types, static = known(model), static_tensors(model.graph)

    def omit(_i: int, n: onnx.NodeProto) -> list[str] | None:
        if _eligible(model, n, "Pad", PAD_INPUTS, types) is None or not _constant_mode(n) or len(n.input) < 3:
            return None
        c = n.input[2]
        if c not in static or (a := numpy_helper.to_array(static[c])).size != 1 or not bool(np.all(a == 0)):
            return None
        _trim(n, [2])
        return [c]

    return edit_sites(model.graph, only, omit)


REWRITES = (
    Rewrite(
        "reduce-axes-omitted",
        "Reduce*(axes = every axis) → axes omitted (noop_with_empty_axes 0: reduces all)",
        reduce_axes_omitted,
        inverse="reduce-axes-all-explicit",
    ),
    Rewrite(
        "reduce-axes-all-explicit",
        "Reduce* without axes → axes = [0 … r-1] (attribute or input, per opset)",
        reduce_axes_explicit,
        inverse="reduce-axes-omitted",
    ),
    Rewrite(
        "clip-bounds-explicit",
        "Clip-11+ missing min/max → -inf/+inf (floats) or the integer type's limits",
        clip_bounds_explicit,
        inverse="clip-bounds-omitted",
    ),
    Rewrite(
        "clip-bounds-omitted",
        "Clip-11+ min = -inf / max = +inf (or integer limits) → omitted",
        clip_bounds_omitted,
        inverse="clip-bounds-explicit",
    ),
    Rewrite(
        "pad-value-explicit",
        "Pad-11+ (constant mode) missing constant_value → an explicit scalar 0",
        pad_value_explicit,
        inverse="pad-value-omitted",
    ),
    Rewrite(
        "pad-value-omitted",
        "Pad-11+ (constant mode) constant_value = 0 → omitted",
        pad_value_omitted,
        inverse="pad-value-explicit",
    ),
)

FREEDOMS = (
    Freedom(
        "reduce-all-axes",
        "operator schemas",
        "Operators.md Reduce*-1…18 (axes omitted with noop_with_empty_axes 0 reduces every axis)",
        "A reduction over every axis may list them all ([0 … r-1], attribute or input by opset) or name none.",
        ("reduce-axes-omitted", "reduce-axes-all-explicit"),
        "main-graph Reduce* nodes with noop_with_empty_axes 0 and a known rank >= 1; negative axes count",
    ),
    Freedom(
        "clip-unbounded",
        "optional and variadic slots",
        "Operators.md Clip-11, Clip-12 (integer types), Clip-13",
        "A missing Clip min/max means no bound, the same as -inf/+inf for floats and the type's lowest/highest "
        "value for integers (a finite float bound is not neutral: it clips ±inf).",
        ("clip-bounds-explicit", "clip-bounds-omitted"),
        "main-graph Clip-11+ nodes of known element type (bfloat16 left out); each missing slot of a node at once",
    ),
    Freedom(
        "pad-zero-value",
        "optional and variadic slots",
        "Operators.md Pad-11+ (constant mode, constant_value defaults to 0)",
        "Pad in constant mode without constant_value pads with 0, the same as an explicit scalar 0 (false).",
        ("pad-value-explicit", "pad-value-omitted"),
        "main-graph Pad-11+ nodes in constant mode of known element type; an axes input (Pad-18) stays",
    ),
)
