"""One elementwise op written as another with a constant operand, where the result is bit for bit the
same (each identity both ways). ONNX operator spec, and onnxruntime's CPU kernels where IEEE 754 alone
does not settle it:

- ``Pow(x, 2)`` ↔ ``Mul(x, x)`` (Pow-7/12/13/15, Mul-7+): mathematically x², and onnxruntime's Pow
  (``core/providers/cpu/math/element_wise_ops.cc``, ``PowImpl``) computes a one-element exponent of
  value 2 on a many-element base as ``x * x``: the same correctly rounded product as Mul. A
  one-element base goes through ``std::pow`` instead, which is 1 ULP off in float32 on some inputs,
  so only bases of statically more than one element are sites (float, double, int32, int64: the
  kernel's types).
- ``Reciprocal(x)`` ↔ ``Div(1, x)`` (Reciprocal-6/13, Div-7+): both the IEEE 754 quotient 1 / x
  (float, double).
- ``Mul(x, 2)`` ↔ ``Add(x, x)``: 2·x and x + x are the same exact value before rounding, so the
  same after; two's complement wraps both alike (float, double, int32, int64).
- ``LeakyRelu(x, alpha)`` ↔ ``PRelu(x, [alpha])`` (LeakyRelu-6/16: ``alpha * x`` for x < 0;
  PRelu-7/9/16: ``slope * x`` for x < 0, the slope broadcast unidirectionally): float only (alpha
  is a float attribute; onnxruntime's LeakyRelu is float only).
- ``Xor(x, true)`` ↔ ``Not(x)`` (Xor-7, Not-1): bool.

A constant operand is a static one-element tensor whose rank is at most x's (so the output shape is
x's). Main graph only; sites are the rewritten nodes; element types and ranks from shape inference."""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations._base import (
    Rewrite,
    all_names,
    chosen,
    drop_unused,
    fresh_name,
    is_default_domain,
    node_label,
    opset,
    static_tensors,
)
from passcheck.mutations._graph_edit import attr_value, splice
from passcheck.mutations._schema_types import BOOL, accepts
from passcheck.mutations._shapes import known
from passcheck.mutations.catalogue import Freedom

if TYPE_CHECKING:
    import onnx

    from passcheck.mutations._shapes import Known

#: Broadcasting binary ops without attributes from opset 7.
BROADCAST_OPSET = 7
FLOAT, DOUBLE, INT32, INT64 = 1, 11, 6, 7
#: onnxruntime's CPU Pow kernel types (base and exponent): element_wise_ops.cc, Pow-12+ registration.
POW_TYPES = frozenset({FLOAT, DOUBLE, INT32, INT64})
RECIPROCAL_TYPES = frozenset({FLOAT, DOUBLE})


def scalar_operand(n: onnx.NodeProto, slot: int, static: dict, x: Known | None):
    """The value of ``n``'s input ``slot`` when it is a static one-element tensor of rank <= ``x``'s
    (broadcasting it keeps x's shape), as a Python scalar; else None."""
    from onnx import numpy_helper

    if x is None or x.rank is None or len(n.input) <= slot or n.input[slot] not in static:
        return None
    arr = numpy_helper.to_array(static[n.input[slot]])
    if arr.size != 1 or arr.ndim > x.rank:
        return None
    return arr.reshape(-1)[0].item()


def scalar_constant(taken: set[str], base: str, value, elem_type: int) -> onnx.NodeProto:
    """A Constant node holding a 0-D tensor of ``elem_type`` with ``value``, names fresh from ``base``."""
    import numpy as np
    import onnx
    from onnx import numpy_helper

    out = fresh_name(taken, base)
    t = numpy_helper.from_array(np.array(value, onnx.helper.tensor_dtype_to_np_dtype(elem_type)))
    return onnx.helper.make_node("Constant", [], [out], name=fresh_name(taken, f"{out}_node"), value=t)


def _many_elements(k: Known) -> bool:
    """Whether a value of this type has no single-element run: a static dim >= 2 (0 or >= 2 elements)."""
    return any(isinstance(d, int) and d >= 2 for d in k.dims or ())


#: Ops of one input: the rewrites here write them without the constant operand.
UNARY = ("Reciprocal", "Not", "LeakyRelu")


def _same(got, value) -> bool:
    return got == value and isinstance(got, bool) == isinstance(value, bool)


def _drop_operand(
    model: onnx.ModelProto, only, src: str, value, types_ok, dst: str, slots=(1,), attribute: str | None = None
) -> list[str]:
    """``src(x, c)`` (c in one of ``slots``, equal to ``value``; any float when ``attribute`` is given, then
    written as that float attribute) → ``dst(x)`` for a one-input ``dst``, else ``dst(x, x)``;
    ``types_ok(k)`` says which x qualify."""
    import onnx

    g, types, static = model.graph, known(model), static_tensors(model.graph)
    if opset(model) < BROADCAST_OPSET:
        return []
    sites, freed = [], set()
    for i, n in enumerate(g.node):
        label = node_label(n, i)  # as in the model given, before the edit
        if n.op_type != src or not is_default_domain(n) or len(n.input) != 2 or not chosen(only, label):
            continue
        for slot in slots:
            x = n.input[1 - slot]
            k = types.get(x)
            if k is None or not types_ok(k) or not accepts(dst, opset(model), k.elem_type):
                continue
            got = scalar_operand(n, slot, static, k)
            if got is None or (attribute is None and not _same(got, value)):
                continue
            freed.add(n.input[slot])
            n.op_type = dst
            n.input[:] = [x] if dst in UNARY else [x, x]
            if attribute is not None:
                n.attribute.append(onnx.helper.make_attribute(attribute, float(got)))
            sites.append(label)
            break
    if sites:
        drop_unused(g, freed)
    return sites


def _add_operand(model: onnx.ModelProto, only, src: str, value, types_ok, dst: str, first: bool = False) -> list[str]:
    """``src(x, x)`` or one-input ``src(x)`` → ``dst(x, c)`` (``dst(c, x)`` when ``first``), c a Constant
    scalar of x's type: ``value``, or ``value(node)`` when callable (the node's attributes are then
    dropped); ``types_ok(k)`` says which x qualify."""
    g, types, version = model.graph, known(model), opset(model)
    if version < BROADCAST_OPSET:
        return []
    taken, before, sites = all_names(model), {}, []
    for i, n in enumerate(g.node):
        label = node_label(n, i)  # as in the model given, before the edit
        x = n.input[0] if n.input else ""
        k = types.get(x)
        if (
            n.op_type != src
            or not is_default_domain(n)
            or list(n.input) != ([x] if src in UNARY else [x, x])
            or k is None
            or k.rank is None
            or not types_ok(k)
            or not accepts(dst, version, k.elem_type)
            or not accepts("Constant", version, k.elem_type)
            or not chosen(only, label)
        ):
            continue
        c = scalar_constant(
            taken, f"{n.output[0]}_{dst.lower()}_operand", value(n) if callable(value) else value, k.elem_type
        )
        before[i] = [c]
        del n.attribute[:]
        n.op_type = dst
        n.input[:] = [c.output[0], x] if first else [x, c.output[0]]
        sites.append(label)
    if sites:
        splice(g, before)
    return sites


def _pow_ok(k: Known) -> bool:
    return k.elem_type in POW_TYPES and _many_elements(k)


def _float_double(k: Known) -> bool:
    return k.elem_type in RECIPROCAL_TYPES


def _mul_two_ok(k: Known) -> bool:
    return k.elem_type in POW_TYPES


def _float32(k: Known) -> bool:
    return k.elem_type == FLOAT


def _bool(k: Known) -> bool:
    return k.elem_type == BOOL


def pow_two_to_mul(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Pow(x, 2) → Mul(x, x), x float/double/int32/int64 of statically more than one element (opset >= 7)."""
    return _drop_operand(model, only, "Pow", 2, _pow_ok, "Mul")


def mul_self_to_pow(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Mul(x, x) → Pow(x, 2) (2 of x's type), x float/double/int32/int64 of more than one element."""
    return _add_operand(model, only, "Mul", 2, _pow_ok, "Pow")


def reciprocal_to_div(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Reciprocal(x) → Div(1, x), x float/double (opset >= 7)."""
    return _add_operand(model, only, "Reciprocal", 1, _float_double, "Div", first=True)


def div_one_to_reciprocal(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Div(1, x) → Reciprocal(x), x float/double (opset >= 7)."""
    return _drop_operand(model, only, "Div", 1, _float_double, "Reciprocal", slots=(0,))


def mul_two_to_add(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Mul(x, 2) or Mul(2, x) → Add(x, x), x float/double/int32/int64 (opset >= 7)."""
    return _drop_operand(model, only, "Mul", 2, _mul_two_ok, "Add", slots=(1, 0))


def add_self_to_mul(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Add(x, x) → Mul(x, 2), x float/double/int32/int64 (opset >= 7)."""
    return _add_operand(model, only, "Add", 2, _mul_two_ok, "Mul")


def xor_true_to_not(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Xor(x, true) or Xor(true, x) → Not(x), x bool (opset >= 7)."""
    return _drop_operand(model, only, "Xor", True, _bool, "Not", slots=(1, 0))


def not_to_xor_true(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Not(x) → Xor(x, true), x bool (opset >= 7)."""
    return _add_operand(model, only, "Not", True, _bool, "Xor")


def leaky_relu_to_prelu(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """LeakyRelu(x, alpha) → PRelu(x, float32 scalar alpha), x float (opset >= 7; alpha default 0.01)."""
    return _add_operand(model, only, "LeakyRelu", lambda n: attr_value(n, "alpha", 0.01), _float32, "PRelu")


def prelu_to_leaky_relu(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """PRelu(x, static one-element slope of rank <= x's) → LeakyRelu(x, alpha=slope), x float (opset >= 7)."""
    return _drop_operand(model, only, "PRelu", None, _float32, "LeakyRelu", attribute="alpha")


def _pair(a: str, a_doc: str, a_fn, b: str, b_doc: str, b_fn) -> tuple[Rewrite, Rewrite]:
    return Rewrite(a, a_doc, a_fn, inverse=b), Rewrite(b, b_doc, b_fn, inverse=a)


REWRITES = (
    *_pair(
        "pow-two-as-mul-self",
        "Pow(x, 2) → Mul(x, x) (x of more than one element; exact in onnxruntime's Pow kernel)",
        pow_two_to_mul,
        "mul-self-as-pow-two",
        "Mul(x, x) → Pow(x, 2) (x of more than one element; exact in onnxruntime's Pow kernel)",
        mul_self_to_pow,
    ),
    *_pair(
        "reciprocal-as-div-one",
        "Reciprocal(x) → Div(1, x) (float, double; exact)",
        reciprocal_to_div,
        "div-one-as-reciprocal",
        "Div(1, x) → Reciprocal(x) (float, double; exact)",
        div_one_to_reciprocal,
    ),
    *_pair(
        "mul-two-as-add-self",
        "Mul(x, 2) → Add(x, x) (float, double, int32, int64; exact)",
        mul_two_to_add,
        "add-self-as-mul-two",
        "Add(x, x) → Mul(x, 2) (float, double, int32, int64; exact)",
        add_self_to_mul,
    ),
    *_pair(
        "leaky-relu-as-prelu",
        "LeakyRelu(x, alpha) → PRelu(x, scalar alpha) (float; exact)",
        leaky_relu_to_prelu,
        "prelu-as-leaky-relu",
        "PRelu(x, one-element static slope) → LeakyRelu(x, alpha=slope) (float; exact)",
        prelu_to_leaky_relu,
    ),
    *_pair(
        "xor-true-as-not",
        "Xor(x, true) → Not(x) (bool)",
        xor_true_to_not,
        "not-as-xor-true",
        "Not(x) → Xor(x, true) (bool)",
        not_to_xor_true,
    ),
)

_TESTS = "tests/mutations/test_op_identities.py"
_SITES = "main-graph nodes; a constant operand is a static one-element tensor of rank <= the other operand's"
FREEDOMS = (
    Freedom(
        "pow-two-as-mul-self",
        "algebra",
        "Operators.md Pow-7/12/13/15, Mul-7+; onnxruntime core/providers/cpu/math/element_wise_ops.cc PowImpl "
        "(a one-element exponent 2 is computed as x * x)",
        "x ** 2 and x * x are the same correctly rounded square where the runtime's Pow squares by multiplying.",
        ("pow-two-as-mul-self", "mul-self-as-pow-two"),
        f"{_SITES}; x float/double/int32/int64 with statically more than one element (a one-element base goes "
        "through std::pow, 1 ULP off in float32)",
    ),
    Freedom(
        "reciprocal-as-div-one",
        "algebra",
        "Operators.md Reciprocal-6/13, Div-7+; IEEE 754 division",
        "Reciprocal(x) is 1 / x, one IEEE 754 division either way.",
        ("reciprocal-as-div-one", "div-one-as-reciprocal"),
        f"{_SITES}; float and double",
    ),
    Freedom(
        "mul-two-as-add-self",
        "algebra",
        "Operators.md Mul-7+, Add-7+; IEEE 754 (2·x and x + x are the same exact value)",
        "x * 2 is x + x bit for bit for floats, and wraps alike for two's complement integers.",
        ("mul-two-as-add-self", "add-self-as-mul-two"),
        f"{_SITES}; float, double, int32, int64; the 2 in either slot",
    ),
    Freedom(
        "leaky-relu-as-prelu",
        "algebra",
        "Operators.md LeakyRelu-6/16, PRelu-7/9/16 (unidirectional broadcasting of the slope)",
        "LeakyRelu with alpha is PRelu with the scalar slope alpha: x for x >= 0, the product for x < 0.",
        ("leaky-relu-as-prelu", "prelu-as-leaky-relu"),
        f"{_SITES}; float32 (alpha is a float attribute)",
    ),
    Freedom(
        "xor-true-as-not",
        "algebra",
        "Operators.md Xor-7, Not-1",
        "Xor with true is logical negation.",
        ("xor-true-as-not", "not-as-xor-true"),
        f"{_SITES}; bool; the true in either slot",
    ),
    Freedom(
        "sqrt-as-pow-half",
        "algebra",
        "Operators.md Sqrt-6/13, Pow-7+",
        "Sqrt(x) equals x ** 0.5 mathematically.",
        (),
        none_because="onnxruntime's Pow computes an exponent of 0.5 with std::pow, which differs from the "
        "correctly rounded Sqrt in the last bit on some inputs and gives +inf for -inf and +0 for -0 "
        "(Sqrt: NaN, -0): a tolerance, not an equivalence",
        evidence=f"{_TESTS}::test_sqrt_is_not_pow_half_in_onnxruntime",
    ),
)
