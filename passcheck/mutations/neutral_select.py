"""More neutral spellings inserted on a value (issue 27, schema walk; removed by neutral-remove
where it reads them). ONNX operator spec, the op's own definition:

- variadic ops of one input: ``Sum(x)``, ``Max(x)``, ``Min(x)``, ``Mean(x)`` (Sum-8, Max-8, Min-8,
  Mean-8+ take "1 to ∞" inputs; the sum, max, min and mean of one tensor is that tensor);
- selection: ``Where(true, x, 0)`` (Where-9+: the condition picks ``X`` everywhere; the scalar
  condition and the scalar 0 broadcast to ``x``'s shape) and, for bool tensors, ``Not(Not(x))``
  (Not-1: logical negation, an involution).

Sites, as for :mod:`passcheck.mutations.neutral`: main-graph values that are not computed from
constants alone (graph inputs read by a node, node outputs read by a node or a graph output), of a
known element type the op's schema takes at the model's opset; the whole chain at once."""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite
from passcheck.mutations._schema_types import BOOL, FLOATS, accepts
from passcheck.mutations._value_sites import Namer, Step, insert
from passcheck.mutations.catalogue import Freedom
from passcheck.mutations.neutral import _unary

if TYPE_CHECKING:
    import onnx

    from passcheck.mutations._shapes import Known

VARIADIC_ONE = 8
STRING = 8  # onnx.TensorProto.STRING

#: (name, step): the names are those of ``neutral-op``'s sites (:mod:`passcheck.mutations.neutral_ops`).
ONE_INPUT: tuple[tuple[str, Step], ...] = tuple(
    (f"{op.lower()}-one", _unary(op, needs=VARIADIC_ONE)) for op in ("Sum", "Max", "Min", "Mean")
)


def _where(x: str, k: Known, version: int, names: Namer) -> list[onnx.NodeProto] | None:
    if version < 9 or k.elem_type == STRING or not accepts("Where", version, k.elem_type, 1):
        return None
    if not accepts("Constant", version, k.elem_type):
        return None
    zero = False if k.elem_type == BOOL else 0.0 if k.elem_type in FLOATS else 0
    cond, c_node = names.constant("true", BOOL, [True], [])
    other, o_node = names.constant("other", k.elem_type, [zero], [])
    out = names.value("where")
    return [c_node, o_node, names.node("Where", [cond, x, other], out)]


def _not_not(x: str, k: Known, version: int, names: Namer) -> list[onnx.NodeProto] | None:
    if k.elem_type != BOOL:
        return None
    once = names.value("not")
    twice = names.value("not_not")
    return [names.node("Not", [x], once), names.node("Not", [once], twice)]


SELECTIONS: tuple[tuple[str, Step], ...] = (("where-true", _where), ("not-not", _not_not))


def one_input_variadics(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Each site value x → ``Mean(Min(Max(Sum(x))))``, the ops that take x's type at the opset."""
    return insert(model, only, ONE_INPUT)


def selections(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Each site value x → ``Where(true, x, 0)`` (bool: ``Not(Not(Where(true, x, false)))``)."""
    return insert(model, only, SELECTIONS)


REWRITES = (
    Rewrite(
        "neutral-one-input-variadic",
        "a value x → Mean(Min(Max(Sum(x)))), each of one input (opset >= 8)",
        one_input_variadics,
        inverse="neutral-remove",
        detail="values",
        lists=True,
    ),
    Rewrite(
        "neutral-where-not",
        "a value x → Where(true, x, 0) (bool: then Not(Not(·))) (opset >= 9)",
        selections,
        inverse="neutral-remove",
        detail="values",
        lists=True,
    ),
)

_SITES = (
    "inserted on every main-graph value that is not static (graph inputs, node outputs read by a node or a "
    "graph output), the whole chain at once; composes with every rewrite (depth 2)"
)
FREEDOMS = (
    Freedom(
        "variadic-of-one",
        "operator schemas",
        "Operators.md Sum-8/13, Max-8/12/13, Min-8/12/13, Mean-8/13 (1 to ∞ inputs)",
        "A Sum, Max, Min or Mean of a single input is that input.",
        ("neutral-one-input-variadic", "neutral-remove"),
        _SITES + "; removed wherever such a node is (neutral-remove)",
    ),
    Freedom(
        "where-all-true",
        "algebra",
        "Operators.md Where-9/16 (elements of X where the condition is true; multidirectional broadcasting)",
        "Where with a condition true everywhere is its X input (when the output keeps X's shape).",
        ("neutral-where-not", "neutral-remove"),
        _SITES + "; removed where the condition is static and all true and the shape is kept (neutral-remove)",
    ),
    Freedom(
        "not-not",
        "algebra",
        "Operators.md Not-1 (logical negation: Not(Not(x)) is x)",
        "Not of Not of a bool tensor is the tensor.",
        ("neutral-where-not",),
        _SITES + "; bool values only; one way (neutral-remove removes one node at a time, a Not pair is two)",
    ),
)
