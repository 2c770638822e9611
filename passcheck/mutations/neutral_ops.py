"""One neutral op on one value (issue 27's neutral ops, one at a time). The chains of
:mod:`passcheck.mutations.neutral` and :mod:`passcheck.mutations.neutral_select` put every neutral op on a
value at once, so each op is only ever seen next to the others; here each (value, op) pair is a site
of its own, labelled ``VALUE:NAME``, so a single ``Cast`` to the value's own type (or a single
inference-mode ``Dropout``) can sit between a producer and the pattern a pass matches, alone.

The ops (ONNX operator spec, the op's own definition; each offered only where the schema at the
model's opset takes the value's element type):

==================  ============================================================================
name                the op on x
==================  ============================================================================
add-zero            ``Add(x, -0.0 | 0)`` (Add-7+; IEEE 754: ``x + -0`` is x bit for bit)
sub-zero            ``Sub(x, 0)`` (Sub-7+; ``x - +0`` is x bit for bit, ``-0`` included)
mul-one             ``Mul(x, 1)`` (Mul-7+)
div-one             ``Div(x, 1)`` (Div-7+; exact for floats and integers)
and-true, or-false  ``And(x, true)``, ``Or(x, false)`` (bool)
reduce-sum-noop     ``ReduceSum(x)``, no axes, ``noop_with_empty_axes=1`` (ReduceSum-13+)
reduce-max-noop,    likewise ``ReduceMax`` / ``ReduceMin`` (18+: every reduce op has
reduce-min-noop     ``noop_with_empty_axes``)
cast-same           ``Cast(x, to=its own type)`` (Cast-6+)
castlike-self       ``CastLike(x, x)`` (CastLike-15+)
dropout-inference   ``Dropout(x)`` with no ``training_mode`` (Dropout-12+: absent means false, and then
                    the output is the input)
clip-unbounded      ``Clip(x)`` with neither min nor max (Clip-11+: the bounds default to the
                    type's lowest and highest values)
sum-one … mean-one  ``Sum(x)``, ``Max(x)``, ``Min(x)``, ``Mean(x)`` (8+: one input allowed)
where-true          ``Where(true, x, 0)`` (Where-9+)
not-not             ``Not(Not(x))`` (bool)
transpose-identity  ``Transpose(x, perm=[0, …, r-1])``
reshape-zeros       ``Reshape(x, [0] * r)`` (Reshape-5+, ``allowzero`` 0)
slice-full          ``Slice`` of ``[0, INT64_MAX)`` on axis 0
expand-ones         ``Expand(x, [1] * r)`` (Expand-8+)
concat-one          ``Concat([x], axis=0)`` (Concat-4+)
pad-zeros           ``Pad(x, [0] * 2r)``, mode constant (Pad-11+: pads as an input)
tile-ones           ``Tile(x, [1] * r)`` (Tile-6+)
unsqueeze-squeeze   ``Squeeze(Unsqueeze(x, [0]), [0])`` (axes attributes before opset 13, inputs from 13)
split-one           ``Split(x, axis=0)`` into one output (Split-2+; ``num_outputs=1`` from Split-18)
==================  ============================================================================

Sites are the values of :mod:`passcheck.mutations.neutral` (graph inputs read by a main-graph node,
node outputs read by a node or a graph output, never values computed from constants alone), times
the ops above that fit. The all-at-once form puts every fitting op on every value, chained in the
table's order; a single-site form ``neutral-op@VALUE:NAME`` puts that one op on that one value.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite
from passcheck.mutations._neutral_names import OP_TYPES  # noqa: F401 - re-exported: name → op type
from passcheck.mutations._schema_types import BOOL, FLOATS, accepts
from passcheck.mutations._value_sites import insert
from passcheck.mutations.catalogue import Freedom
from passcheck.mutations.neutral import (
    BROADCAST_OPSET,
    ELEMENTWISE,
    INT64,
    SHAPE_OPS,
    Namer,
    _cast,
    _int64s,
    _one,
    _ranked,
    _unary,
)
from passcheck.mutations.neutral_select import ONE_INPUT, _not_not, _where

if TYPE_CHECKING:
    import onnx

    from passcheck.mutations._shapes import Known

#: Every reduce op has ``noop_with_empty_axes`` (and takes axes as an input) from opset 18.
REDUCE_ALL_NOOP = 18


def _plus_zero(elem_type: int):
    return None if elem_type == BOOL else 0.0 if elem_type in FLOATS else 0


def _castlike(x: str, k: Known, version: int, names: Namer):
    if version < 15 or not all(accepts("CastLike", version, k.elem_type, i) for i in (0, 1)):
        return None
    out = names.value("castlike")
    return [names.node("CastLike", [x, x], out)]


def _squeeze_pair(x: str, k: Known, version: int, names: Namer):
    if not (accepts("Unsqueeze", version, k.elem_type) and accepts("Squeeze", version, k.elem_type)):
        return None
    mid, out = names.value("unsqueeze"), names.value("squeeze")
    if version < 13:
        return [names.node("Unsqueeze", [x], mid, axes=[0]), names.node("Squeeze", [mid], out, axes=[0])]
    axes, c = _int64s(names, "axes", [0])
    return [c, names.node("Unsqueeze", [x, axes], mid), names.node("Squeeze", [mid, axes], out)]


def _split_one(x: str, k: Known, version: int, names: Namer):
    if version < 2 or k.rank is None or k.rank < 1 or not accepts("Split", version, k.elem_type):
        return None
    out = names.value("split")
    attrs = {"axis": 0, **({"num_outputs": 1} if version >= 18 else {})}
    return [names.node("Split", [x], out, **attrs)]


def _pad(x: str, r: int, version: int, names: Namer):
    if not accepts("Constant", version, INT64):
        return None
    pads, c = _int64s(names, "pads", [0] * (2 * r))
    out = names.value("pad")
    return [c, names.node("Pad", [x, pads], out, mode="constant")]


def _tile(x: str, r: int, version: int, names: Namer):
    if not accepts("Constant", version, INT64):
        return None
    repeats, c = _int64s(names, "repeats", [1] * r)
    out = names.value("tile")
    return [c, names.node("Tile", [x, repeats], out)]


_ADD, _MUL, _AND, _OR, _REDUCE_SUM = ELEMENTWISE
_TRANSPOSE, _RESHAPE, _SLICE, _EXPAND, _CONCAT = SHAPE_OPS
_SUM, _MAX, _MIN, _MEAN = ONE_INPUT

#: (name, step) in chain order: see the module docs.
OPS: tuple[tuple[str, Callable], ...] = (
    ("add-zero", _ADD),
    ("sub-zero", _unary("Sub", operand=("zero", _plus_zero), needs=BROADCAST_OPSET)),
    ("mul-one", _MUL),
    ("div-one", _unary("Div", operand=("one", _one), needs=BROADCAST_OPSET)),
    ("and-true", _AND),
    ("or-false", _OR),
    ("reduce-sum-noop", _REDUCE_SUM),
    ("reduce-max-noop", _unary("ReduceMax", attrs={"noop_with_empty_axes": 1}, needs=REDUCE_ALL_NOOP)),
    ("reduce-min-noop", _unary("ReduceMin", attrs={"noop_with_empty_axes": 1}, needs=REDUCE_ALL_NOOP)),
    ("cast-same", _cast),
    ("castlike-self", _castlike),
    ("dropout-inference", _unary("Dropout", needs=12)),
    ("clip-unbounded", _unary("Clip", needs=11)),
    ("sum-one", _SUM),
    ("max-one", _MAX),
    ("min-one", _MIN),
    ("mean-one", _MEAN),
    ("where-true", _where),
    ("not-not", _not_not),
    ("transpose-identity", _TRANSPOSE),
    ("reshape-zeros", _RESHAPE),
    ("slice-full", _SLICE),
    ("expand-ones", _EXPAND),
    ("concat-one", _CONCAT),
    ("pad-zeros", _ranked("Pad", 11, _pad)),
    ("tile-ones", _ranked("Tile", 6, _tile)),
    ("unsqueeze-squeeze", _squeeze_pair),
    ("split-one", _split_one),
)
NAMES = tuple(name for name, _ in OPS)


def one_op(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Each site → the op ``NAME`` (module docs) on that value or edge; with ``only`` None, every fitting op
    on every value and every edge, chained in :data:`OPS` order. The labels changed, in model order
    (sites: :func:`passcheck.mutations._value_sites.insert`)."""
    return insert(model, OPS, only)


REWRITES = (
    Rewrite(
        "neutral-op",
        "a value x → one neutral op on x alone (site VALUE:NAME: Cast to its own type, Dropout in inference, "
        "Sub 0, Div 1, Pad 0, Tile 1, Unsqueeze+Squeeze, …; see the module docs); all at once: every op chained",
        one_op,
        inverse="neutral-remove",
        detail="values",
    ),
)

_SITES = (
    "one op on one main-graph value that is not static (site VALUE:NAME); all at once, every fitting op chained "
    "on every such value; composes with every rewrite (depth 2)"
)
FREEDOMS = (
    Freedom(
        "neutral-op-alone",
        "operator schemas",
        "Operators.md: Sub-7, Div-7, CastLike-15, Dropout-12 (training_mode absent is false), Clip-11 (bounds "
        "optional), Pad-11, Tile-6, Unsqueeze/Squeeze, Split (one output), ReduceMax/ReduceMin-18 "
        "(noop_with_empty_axes), and the neutral ops of neutral-elementwise, neutral-shape-ops, "
        "neutral-one-input-variadic and neutral-where-not",
        "Any one op that is the identity on its input may stand alone between a value's producer and its readers.",
        ("neutral-op", "neutral-remove"),
        _SITES,
    ),
)
