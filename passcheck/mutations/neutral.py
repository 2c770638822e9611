"""Neutral ops inserted on a value (issue 27). ONNX operator spec, the op's own definition:

- elementwise: ``Add(x, -0.0)`` (floats; ``x + -0`` is ``x`` bit for bit in IEEE 754, ``-0`` included,
  where ``x + +0`` would turn ``-0`` into ``+0``) or ``Add(x, 0)`` (integers), ``Mul(x, 1)``,
  ``And(x, true)`` / ``Or(x, false)`` (bool), ``ReduceSum(x)`` with ``noop_with_empty_axes = 1`` and
  no axes (ReduceSum-13+: "the input tensor is not reduced"), and ``Cast(x, to=its own type)``
  (Cast-6+: a cast to the same type is the identity);
- shape ops: ``Transpose`` with the identity ``perm``, ``Reshape(x, [0] * r)`` (Reshape-5+: a 0
  entry copies the input's dim when ``allowzero`` is 0, its default), ``Slice`` of the full range of
  axis 0 (``[0, INT64_MAX)``: ends are clamped to the dim), ``Expand(x, [1] * r)`` (Expand-8+:
  multidirectional broadcast with all-ones is the input's shape) and ``Concat([x])`` (Concat-4+:
  one input is allowed, "1 to ∞").

Sites are the value sites of :mod:`passcheck.mutations._value_sites`, the whole chain on each (graph
inputs and node outputs that are read, never values computed from constants alone: a neutral op there
is constant folding's work before any pattern matcher sees it, see the catalogue), and only ops whose
schema at the model's opset takes the value's element type (shape ops: a known rank >= 1)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite
from passcheck.mutations._schema_types import BOOL, FLOATS, accepts
from passcheck.mutations._value_sites import Namer, Step, insert
from passcheck.mutations.catalogue import Freedom

if TYPE_CHECKING:
    import onnx

    from passcheck.mutations._shapes import Known

INT64_MAX, INT64 = 2**63 - 1, 7  # onnx.TensorProto.INT64
#: ReduceSum-13 takes axes as an input and ``noop_with_empty_axes``: with no axes and 1, the identity.
REDUCE_NOOP = 13
#: Ops below this opset broadcast only with the ``broadcast`` attribute; neutral operands need >= 7.
BROADCAST_OPSET = 7


def _unary(op: str, *, attrs: dict | None = None, operand: tuple | None = None, needs: int = 1) -> Callable:
    """A one-node step ``op(x[, constant])``: ``operand`` is (label, value for the element type), a
    scalar Constant; ``needs`` is the lowest opset the step is offered at."""

    def step(x: str, k: Known, version: int, names: Namer) -> list[onnx.NodeProto] | None:
        if version < needs or not accepts(op, version, k.elem_type):
            return None
        nodes, inputs = [], [x]
        if operand is not None:
            label, value_of = operand
            value = value_of(k.elem_type)
            if value is None or not accepts("Constant", version, k.elem_type):
                return None
            c, node = names.constant(label, k.elem_type, [value], [])
            nodes.append(node)
            inputs.append(c)
        out = names.value(op.lower())
        nodes.append(names.node(op, inputs, out, **(attrs or {})))
        return nodes

    return step


def _zero(elem_type: int):
    return -0.0 if elem_type in FLOATS else None if elem_type == BOOL else 0


def _one(elem_type: int):
    return None if elem_type == BOOL else 1.0 if elem_type in FLOATS else 1


#: (name, step): the names are those of ``neutral-op``'s sites (:mod:`passcheck.mutations.neutral_ops`).
ELEMENTWISE: tuple[tuple[str, Step], ...] = (
    ("add-zero", _unary("Add", operand=("zero", _zero), needs=BROADCAST_OPSET)),
    ("mul-one", _unary("Mul", operand=("one", _one), needs=BROADCAST_OPSET)),
    ("and-true", _unary("And", operand=("true", lambda t: True if t == BOOL else None), needs=BROADCAST_OPSET)),
    ("or-false", _unary("Or", operand=("false", lambda t: False if t == BOOL else None), needs=BROADCAST_OPSET)),
    ("reduce-sum-noop", _unary("ReduceSum", attrs={"noop_with_empty_axes": 1}, needs=REDUCE_NOOP)),
)


def _cast(x: str, k: Known, version: int, names: Namer):
    if version < 6 or not accepts("Cast", version, k.elem_type):
        return None
    out = names.value("cast")
    return [names.node("Cast", [x], out, to=k.elem_type)]


def _ranked(op: str, needs: int, build: Callable) -> Callable:
    def step(x: str, k: Known, version: int, names: Namer):
        if version < needs or k.rank is None or k.rank < 1 or not accepts(op, version, k.elem_type):
            return None
        return build(x, k.rank, version, names)

    return step


def _int64s(names: Namer, what: str, values: list[int]) -> tuple[str, onnx.NodeProto]:
    return names.constant(what, INT64, values, [len(values)])


def _transpose(x: str, r: int, version: int, names: Namer):
    out = names.value("transpose")
    return [names.node("Transpose", [x], out, perm=list(range(r)))]


def int64_operand(op: str, what: str, values: Callable[[int], list[int]], **attrs) -> Callable:
    """A ranked build ``op(x, c)``, ``c`` an int64 Constant (named after ``what``) of ``values(rank)``;
    None where the opset's Constant does not take int64."""

    def build(x: str, r: int, version: int, names: Namer):
        if not accepts("Constant", version, INT64):
            return None
        operand, c = _int64s(names, what, values(r))
        out = names.value(op.lower())
        return [c, names.node(op, [x, operand], out, **attrs)]

    return build


def _slice(x: str, r: int, version: int, names: Namer):
    out = names.value("slice")
    if version < 10:
        return [names.node("Slice", [x], out, starts=[0], ends=[INT64_MAX], axes=[0])]
    (s, cs), (e, ce), (a, ca) = (_int64s(names, w, [v]) for w, v in (("starts", 0), ("ends", INT64_MAX), ("axes", 0)))
    return [cs, ce, ca, names.node("Slice", [x, s, e, a], out)]


def _concat(x: str, r: int, version: int, names: Namer):
    out = names.value("concat")
    return [names.node("Concat", [x], out, axis=0)]


SHAPE_OPS: tuple[tuple[str, Step], ...] = (
    ("transpose-identity", _ranked("Transpose", 1, _transpose)),
    ("reshape-zeros", _ranked("Reshape", 5, int64_operand("Reshape", "shape", lambda r: [0] * r))),
    ("slice-full", _ranked("Slice", 1, _slice)),
    ("expand-ones", _ranked("Expand", 8, int64_operand("Expand", "ones", lambda r: [1] * r))),
    ("concat-one", _ranked("Concat", 4, _concat)),
)


def elementwise(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Each site value x → ``Cast(ReduceSum<noop_with_empty_axes=1>(Mul(Add(x, -0.0 | 0), 1)), to=T)`` (bool:
    ``Cast(Or(And(x, true), false))``);
    the ops the schema at the model's opset does not take for T are left out of the chain."""
    return insert(model, only, (*ELEMENTWISE, ("cast-same", _cast)))


def shape_ops(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Each site value x of rank >= 1 → ``Concat([Expand(Slice(Reshape(Transpose(x, identity), [0]*r),
    0:INT64_MAX on axis 0), [1]*r)], axis=0)``, the steps the opset has."""
    return insert(model, only, SHAPE_OPS)


REWRITES = (
    Rewrite(
        "neutral-elementwise",
        "a value x → Cast(ReduceSum noop(Mul(Add(x, -0.0|0), 1)), to=x's type) (bool: "
        "And true, Or false); "
        "each op is the identity there",
        elementwise,
        inverse="neutral-remove",
        detail="values",
        lists=True,
    ),
    Rewrite(
        "neutral-shape-ops",
        "a value x → Concat of one input(Expand to ones(Slice full range(Reshape [0]*r("
        "Transpose identity perm(x))))); each op is the identity there",
        shape_ops,
        inverse="neutral-remove",
        detail="values",
        lists=True,
    ),
)

_BOTH = ("neutral-elementwise", "neutral-remove")
_SHAPE = ("neutral-shape-ops", "neutral-remove")
_SITES = (
    "inserted on every main-graph value that is not static (graph inputs, node outputs read by a node or a "
    "graph output), the whole chain at once; removed wherever such a node is (neutral-remove); composes with "
    "every rewrite (depth 2)"
)
FREEDOMS = (
    Freedom(
        "neutral-add-zero",
        "algebra",
        "Operators.md Add (IEEE 754 addition; -0 is its exact identity)",
        "x + (-0.0) is x bit for bit for floats (x + 0 for integers); +0 also serves, up to the sign of a zero.",
        _BOTH,
        _SITES,
    ),
    Freedom(
        "neutral-mul-one",
        "algebra",
        "Operators.md Mul",
        "x * 1 is x bit for bit, for every numeric type (NaN and -0 kept).",
        _BOTH,
        _SITES,
    ),
    Freedom(
        "neutral-bool-and-or",
        "algebra",
        "Operators.md And, Or",
        "And with true and Or with false leave a bool tensor unchanged.",
        _BOTH,
        _SITES,
    ),
    Freedom(
        "reduce-noop-empty-axes",
        "operator schemas",
        "Operators.md ReduceSum-13, Reduce*-18 (noop_with_empty_axes)",
        "A Reduce with noop_with_empty_axes = 1 and no axes returns its input unchanged, an identity spelled "
        "as a reduction.",
        _BOTH,
        _SITES + "; inserted as ReduceSum (opset >= 13), removed for every Reduce*",
    ),
    Freedom(
        "cast-to-same-type",
        "operator schemas",
        "Operators.md Cast-6+",
        "A Cast to the element type its input already has is the identity.",
        _BOTH,
        _SITES,
    ),
    Freedom(
        "identity-transpose",
        "operator schemas",
        "Operators.md Transpose (perm)",
        "A Transpose whose perm is [0 … r-1] keeps every axis in place.",
        _SHAPE,
        _SITES + "; rank >= 1",
    ),
    Freedom(
        "reshape-to-same-shape",
        "operator schemas",
        "Operators.md Reshape-5+ (a 0 entry copies the input dim, allowzero 0)",
        "Reshape to the input's own shape, spelled [0, …, 0] or with the static dims, changes nothing.",
        _SHAPE,
        _SITES + "; inserted as [0]*r (any dims, rank known), removed when shape inference shows the same shape",
    ),
    Freedom(
        "slice-full-range",
        "operator schemas",
        "Operators.md Slice-10+ (ends clamped to the dim)",
        "A Slice from 0 to INT64_MAX (or to the dim) with step 1 takes the whole axis.",
        _SHAPE,
        _SITES + "; attribute form below opset 10",
    ),
    Freedom(
        "expand-to-ones",
        "operator schemas",
        "Operators.md Expand-8; Broadcasting.md",
        "Expand to a shape of ones (of the input's rank) broadcasts to the input's own shape.",
        _SHAPE,
        _SITES + "; opset >= 8",
    ),
    Freedom(
        "concat-of-one",
        "operator schemas",
        "Operators.md Concat-4+ (1 to ∞ inputs)",
        "Concat of a single input is that input.",
        _SHAPE,
        _SITES + "; rank >= 1",
    ),
    Freedom(
        "neutral-op-on-constant",
        "algebra",
        "Operators.md (each neutral op above)",
        "A neutral op may also sit on an initializer or a Constant's output.",
        (),
        none_because="a neutral op on a constant is constant folding's work before any pattern matcher sees it, "
        "and a pass that does not fold would only show that it does not fold; neutral-remove still removes "
        "such nodes where a model has them",
    ),
    Freedom(
        "pow-one",
        "algebra",
        "Operators.md Pow",
        "x ** 1 is x mathematically.",
        (),
        none_because="Pow is computed by the runtime's pow function, whose result for exponent 1 the spec does "
        "not promise to be exact; left out rather than gated case by case",
    ),
)
