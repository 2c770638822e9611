"""The same value by another op sequence, where the result is bit for bit the same (issue 27).

- ``Sub(a, b)`` ↔ ``Add(a, Neg(b))``: IEEE 754 defines subtraction as the addition of the negated
  operand, and two's complement wraps ``Neg`` the same way ``Sub`` wraps (Neg takes float and
  signed integer types; Sub's broadcasting is Add's).
- ``Div(a, c)`` ↔ ``Mul(a, 1/c)`` for a static float ``c`` whose every element is a power of two
  (its reciprocal is exact, and multiplying by it rounds as dividing does, subnormals aside: only
  exponents within ±64 are used). Any other divisor rounds differently, so none is rewritten.
- ``Flatten(x, axis)`` ↔ ``Reshape(x, [d0·…·d(axis-1), -1])`` (Flatten-1/9/11/13: the output is 2-D,
  the product of the dims before ``axis`` then of the rest; Reshape-5+: a 0 entry copies the
  input's dim, a -1 takes what remains): ``axis`` 0 is ``[1, -1]``, 1 is ``[0, -1]``, beyond that the
  leading dims must be static. Back: a Reshape to a static 2-D shape ``[p, q]`` where some prefix
  of the input's static dims has product ``p`` is that Flatten.

Main graph only; sites are the nodes rewritten."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from passcheck.mutations._base import (
    Rewrite,
    all_names,
    chosen,
    consumers,
    drop_unused,
    fresh_name,
    is_default_domain,
    node_label,
    opset,
    static_tensors,
)
from passcheck.mutations._graph_edit import drop_attribute, edit_sites, int64_constant, protected, set_nodes, splice
from passcheck.mutations._schema_types import BFLOAT16, FLOATS, SIGNED_INTS, accepts
from passcheck.mutations._shapes import known
from passcheck.mutations.catalogue import Freedom

if TYPE_CHECKING:
    import onnx

#: Sub/Add/Neg broadcast without attributes from opset 7; Reshape takes its shape as an input from 5.
BROADCAST_OPSET, RESHAPE_INPUT = 7, 5


def sub_to_add_neg(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Sub(a, b) → Add(a, Neg(b)) for float and signed integer a (opset >= 7)."""
    import onnx

    g, types = model.graph, known(model)
    if opset(model) < BROADCAST_OPSET:
        return []
    taken, before, sites = all_names(model), {}, []
    for i, n in enumerate(g.node):
        k = types.get(n.input[0]) if n.input else None
        if (
            n.op_type != "Sub"
            or not is_default_domain(n)
            or k is None
            or k.elem_type not in FLOATS | SIGNED_INTS
            or not accepts("Neg", opset(model), k.elem_type)
            or not chosen(only, label := node_label(n, i))
        ):
            continue
        neg = fresh_name(taken, f"{n.input[1]}_neg")
        before[i] = [onnx.helper.make_node("Neg", [n.input[1]], [neg], name=fresh_name(taken, f"{neg}_node"))]
        n.op_type, n.input[1] = "Add", neg
        sites.append(label)
    splice(g, before)
    return sites


def add_neg_to_sub(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Add(a, Neg(b)) or Add(Neg(b), a) → Sub(a, b); the Neg goes when nothing else reads it."""
    g = model.graph
    made = {o: n for n in g.node for o in n.output}
    keep, sites = protected(g), []
    for i, n in enumerate(g.node):
        if (
            n.op_type != "Add"
            or not is_default_domain(n)
            or len(n.input) != 2
            or not chosen(only, label := node_label(n, i))
        ):
            continue
        for p in (1, 0):
            neg = made.get(n.input[p])
            if neg is not None and neg.op_type == "Neg" and is_default_domain(neg) and opset(model) >= BROADCAST_OPSET:
                n.op_type, n.input[:] = "Sub", [n.input[1 - p], neg.input[0]]
                sites.append(label)
                break
    if sites:
        read = consumers(g)
        dead = [m for m in g.node if m.op_type == "Neg" and m.output[0] not in read and m.output[0] not in keep]
        set_nodes(g, [m for m in g.node if m not in dead])
    return sites


def _power_of_two(arr) -> bool:
    import numpy as np

    if arr.size == 0 or not np.all(np.isfinite(arr)) or np.any(arr == 0):
        return False
    mantissa, exponent = np.frexp(np.abs(arr.astype(np.float64)))
    return bool(np.all(mantissa == 0.5) and np.all(np.abs(exponent) <= 64))


def _swap_scale(model: onnx.ModelProto, only: frozenset[str] | None, src: str, dst: str) -> list[str]:
    import numpy as np
    from onnx import numpy_helper

    g = model.graph
    static, taken, sites, added, olds = static_tensors(g), all_names(model), [], [], set()
    if opset(model) < BROADCAST_OPSET:
        return []
    for i, n in enumerate(g.node):
        if (
            n.op_type != src
            or not is_default_domain(n)
            or len(n.input) != 2
            or n.input[1] not in static
            or static[n.input[1]].data_type not in FLOATS - {BFLOAT16}
            or not chosen(only, label := node_label(n, i))
        ):
            continue
        arr = numpy_helper.to_array(static[n.input[1]])
        if not _power_of_two(arr):
            continue
        reciprocal = (np.ones((), arr.dtype) / arr).astype(arr.dtype)
        t = numpy_helper.from_array(reciprocal, fresh_name(taken, f"{n.input[1]}_reciprocal"))
        added.append(t)
        old = n.input[1]
        n.op_type, n.input[1] = dst, t.name
        olds.add(old)
        sites.append(label)
    g.initializer.extend(added)
    if sites:
        drop_unused(g, olds)
    return sites


def div_to_mul(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Div(a, c) → Mul(a, 1/c), c a static float tensor of powers of two (opset >= 7)."""
    return _swap_scale(model, only, "Div", "Mul")


def mul_to_div(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Mul(a, c) → Div(a, 1/c), c a static float tensor (second input) of powers of two (opset >= 7)."""
    return _swap_scale(model, only, "Mul", "Div")


def flatten_to_reshape(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Flatten(x, axis) → Reshape(x, [1 | 0 | prod(leading static dims), -1]) (opset >= 5)."""

    g, types = model.graph, known(model)
    if opset(model) < RESHAPE_INPUT or opset(model) < 9:  # int64 Constant: Constant-9
        return []
    taken, before, sites = all_names(model), {}, []
    for i, n in enumerate(g.node):
        if n.op_type != "Flatten" or not is_default_domain(n) or not chosen(only, label := node_label(n, i)):
            continue
        k = types.get(n.input[0])
        axis = next((a.i for a in n.attribute if a.name == "axis"), 1)
        if k is None or k.rank is None:
            continue
        axis = axis + k.rank if axis < 0 else axis
        lead = k.dims[:axis]
        if axis == 0:
            first = 1
        elif axis == 1:
            first = 0
        elif all(isinstance(d, int) for d in lead):
            first = math.prod(lead)
        else:
            continue
        c = int64_constant(taken, f"{n.output[0]}_shape", [first, -1])
        before[i] = [c]
        del n.attribute[:]
        n.op_type, n.input[:] = "Reshape", [n.input[0], c.output[0]]
        sites.append(label)
    splice(g, before)
    return sites


def reshape_to_flatten(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Reshape(x, static [p, q]) → Flatten(x, axis=k), k the first prefix of x's static dims with product p."""
    import onnx
    from onnx import numpy_helper

    types, static = known(model), static_tensors(model.graph)

    def flatten(_i: int, n: onnx.NodeProto) -> list[str] | None:
        if n.op_type != "Reshape" or not is_default_domain(n) or len(n.input) != 2 or n.input[1] not in static:
            return None
        k, out = types.get(n.input[0]), types.get(n.output[0])
        if k is None or k.dims is None or out is None or out.rank != 2 or not all(isinstance(d, int) for d in k.dims):
            return None
        shape = [int(v) for v in numpy_helper.to_array(static[n.input[1]]).reshape(-1)]
        if any(d == 0 for d in k.dims) or out.dims is None or not all(isinstance(d, int) for d in out.dims):
            return None
        p = out.dims[0]
        axis = next((a for a in range(k.rank + 1) if math.prod(k.dims[:a]) == p), None)
        if axis is None or len(shape) != 2 or not accepts("Flatten", opset(model), k.elem_type):
            return None
        freed = [n.input[1]]
        n.op_type = "Flatten"
        del n.input[1:]
        drop_attribute(n, "allowzero")
        n.attribute.append(onnx.helper.make_attribute("axis", axis))
        return freed

    return edit_sites(model.graph, only, flatten)


REWRITES = (
    Rewrite(
        "sub-as-add-neg",
        "Sub(a, b) → Add(a, Neg(b)) (float, signed int; exact)",
        sub_to_add_neg,
        inverse="add-neg-as-sub",
    ),
    Rewrite("add-neg-as-sub", "Add(a, Neg(b)) → Sub(a, b) (exact)", add_neg_to_sub, inverse="sub-as-add-neg"),
    Rewrite(
        "div-as-mul-reciprocal",
        "Div(a, c) → Mul(a, 1/c) for a static float c of powers of two (exact)",
        div_to_mul,
        inverse="mul-as-div-reciprocal",
    ),
    Rewrite(
        "mul-as-div-reciprocal",
        "Mul(a, c) → Div(a, 1/c) for a static float c of powers of two (exact)",
        mul_to_div,
        inverse="div-as-mul-reciprocal",
    ),
    Rewrite(
        "flatten-as-reshape",
        "Flatten(x, axis) → Reshape(x, [1|0|static prefix product, -1])",
        flatten_to_reshape,
        inverse="reshape-as-flatten",
    ),
    Rewrite(
        "reshape-as-flatten",
        "Reshape(x, static [p, q]) → Flatten(x, axis) where x's leading dims multiply to p",
        reshape_to_flatten,
        inverse="flatten-as-reshape",
    ),
)

_LIMITS = "tests/mutations/test_algebra_limits.py"
FREEDOMS = (
    Freedom(
        "sub-as-add-neg",
        "algebra",
        "Operators.md Sub, Add, Neg; IEEE 754 subtraction",
        "a - b is a + (-b) bit for bit for floats and signed integers (two's complement wraps alike).",
        ("sub-as-add-neg", "add-neg-as-sub"),
        "main-graph Sub nodes of float/signed-int type (back: Add with a Neg operand in either slot); opset >= 7",
    ),
    Freedom(
        "div-as-mul-reciprocal",
        "algebra",
        "Operators.md Div, Mul; IEEE 754 (a power of two's reciprocal is exact)",
        "a / c is a * (1/c) bit for bit when every element of the static float c is a power of two.",
        ("div-as-mul-reciprocal", "mul-as-div-reciprocal"),
        "main-graph Div/Mul nodes whose second input is a static float tensor of powers of two (|exponent| <= 64)",
    ),
    Freedom(
        "div-as-mul-any-divisor",
        "algebra",
        "Operators.md Div, Mul",
        "a / c equals a * (1/c) mathematically for any non-zero c.",
        (),
        none_because="for a divisor that is not a power of two the reciprocal is rounded, so a * (1/c) differs "
        "from a / c in the last bit on some inputs: a tolerance, not an equivalence",
        evidence=f"{_LIMITS}::test_mul_by_rounded_reciprocal_differs_from_div",
    ),
    Freedom(
        "flatten-as-reshape",
        "algebra",
        "Operators.md Flatten-1/9/11/13, Reshape-5+ (0 and -1 entries)",
        "Flatten(x, axis) is Reshape to [product of the dims before axis, -1]: [1, -1] for axis 0, [0, -1] for axis 1.",
        ("flatten-as-reshape", "reshape-as-flatten"),
        "main-graph Flatten nodes (axis >= 2 needs static leading dims); back: Reshape to a static 2-D shape "
        "whose first dim is a product of the input's leading static dims",
    ),
)
