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
dropout-mask-read   ``Where(mask, output, 0)`` of ``Dropout(x) -> (output, mask)``, no ``training_mode``: the
                    optional mask output named and read (Dropout-12+: ``output = scale * data * mask``, which in
                    inference is the data, so the mask is all true; onnx's reference implementation and
                    onnxruntime return ones), as a masked fill written after a dropout reads it (Where-9+)
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
pad-crop            ``Pad(Pad(x, +1, mode edge), -1)`` at the end of the last axis, the crop in mode constant
                    (Pad-11+: a negative pad removes elements, so the crop takes back exactly what the first Pad
                    added; the first is no constant-mode Pad, which a fold would take with the crop and cancel)
tile-ones           ``Tile(x, [1] * r)`` (Tile-6+)
unsqueeze-squeeze   ``Squeeze(Unsqueeze(x, [0]), [0])`` (axes attributes before opset 13, inputs from 13)
split-one           ``Split(x, axis=0)`` into one output (Split-2+; ``num_outputs=1`` from Split-18)
split-third         the third of ``Split(Concat(f, f, x, axis=0), axis=0)`` into three equal parts (Concat-4+,
                    Split-2+: no sizes means equal parts, ``num_outputs=3`` from Split-18): x's readers read
                    output 2 of their producer (IR.md: a node's outputs are positional, any of them may be read);
                    ``f`` is ``Expand(7 | true, Shape(x))`` (Expand-8+), so the other outputs differ from x (x
                    itself for strings and before opset 8)
add-zero-outrank    ``Squeeze(Add(x, z), [0])``, ``z`` a -0.0 (integers: 0) of shape ``[1] * (r + 1)``: Add-7+
                    broadcasts multidirectionally, so the sum is x with a leading 1, which the Squeeze takes off
                    (Squeeze-1+; axes an input from 13)
==================  ============================================================================

Sites are the value and edge sites of :mod:`passcheck.mutations._value_sites` (graph inputs and node
outputs that are read, never values computed from constants alone), times the ops above that fit, each
op a step site of its own. The all-at-once form puts every fitting op on every value and edge, chained
in the table's order; a single-site form ``neutral-op@VALUE:NAME`` puts that one op on that one value.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from passcheck.mutations import _value_sites
from passcheck.mutations._base import Rewrite
from passcheck.mutations._schema_types import BOOL, FLOATS, SIGNED_INTS, UNSIGNED_INTS, accepts
from passcheck.mutations._value_sites import Namer, Step
from passcheck.mutations.catalogue import Freedom
from passcheck.mutations.neutral import (
    BROADCAST_OPSET,
    ELEMENTWISE,
    INT64,
    SHAPE_OPS,
    _cast,
    _int64s,
    _one,
    _ranked,
    _unary,
    _zero,
    int64_operand,
)
from passcheck.mutations.neutral_select import ONE_INPUT, SELECTIONS

if TYPE_CHECKING:
    import onnx

    from passcheck.mutations._shapes import Known

#: Every reduce op has ``noop_with_empty_axes`` (and takes axes as an input) from opset 18.
REDUCE_ALL_NOOP = 18
#: Dropout-12: ``training_mode`` an input, absent meaning false (before, ``is_test`` / the mask's type differ).
DROPOUT_INFERENCE = 12


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


def _pad_crop(x: str, r: int, version: int, names: Namer):
    if not accepts("Constant", version, INT64):
        return None
    grow, shrink = ([0] * (2 * r - 1) + [d] for d in (1, -1))  # [begins…, ends…]: the last axis's end
    (p, cp), (q, cq) = _int64s(names, "pads", grow), _int64s(names, "crop", shrink)
    mid, out = names.value("pad"), names.value("crop")
    return [cp, cq, names.node("Pad", [x, p], mid, mode="edge"), names.node("Pad", [mid, q], out, mode="constant")]


def _add_zero_outrank(x: str, k: Known, version: int, names: Namer):
    zero = _zero(k.elem_type)
    if (
        version < BROADCAST_OPSET
        or k.rank is None
        or zero is None
        or not all(accepts(op, version, k.elem_type) for op in ("Add", "Squeeze", "Constant"))
    ):
        return None
    z, cz = names.constant("zero", k.elem_type, [zero], [1] * (k.rank + 1))
    mid, out = names.value("add"), names.value("squeeze")
    if version < 13:
        return [cz, names.node("Add", [x, z], mid), names.node("Squeeze", [mid], out, axes=[0])]
    axes, ca = _int64s(names, "axes", [0])
    return [cz, ca, names.node("Add", [x, z], mid), names.node("Squeeze", [mid, axes], out)]


def _dropout_mask_read(x: str, k: Known, version: int, names: Namer):
    import onnx

    zero = _zero(k.elem_type)
    types = (("Dropout", 0), ("Constant", 0), ("Where", 1))
    if version < DROPOUT_INFERENCE or zero is None or not all(accepts(o, version, k.elem_type, i) for o, i in types):
        return None
    z, cz = names.constant("zero", k.elem_type, [zero], [])
    out, mask, kept = names.value("dropout"), names.value("mask"), names.value("where")
    dropout = onnx.helper.make_node("Dropout", [x], [out, mask], name=names.value("dropout_node"))
    return [cz, dropout, names.node("Where", [mask, out, z], kept)]


def _split_one(x: str, k: Known, version: int, names: Namer):
    if version < 2 or k.rank is None or k.rank < 1 or not accepts("Split", version, k.elem_type):
        return None
    out = names.value("split")
    attrs = {"axis": 0, **({"num_outputs": 1} if version >= 18 else {})}
    return [names.node("Split", [x], out, **attrs)]


NUMBERS = FLOATS | SIGNED_INTS | UNSIGNED_INTS


def _fill(elem_type: int):
    """A value unlike most feeds for the parts ``split-third`` puts before x: 7 for numbers, true for bool, None for
    types without one (strings)."""
    return True if elem_type == BOOL else 7 if elem_type in NUMBERS else None


def _split_third(x: str, k: Known, version: int, names: Namer):
    import onnx

    ops = (("Concat", 0), ("Split", 0))
    if version < 4 or k.rank is None or k.rank < 1 or not all(accepts(o, version, k.elem_type, i) for o, i in ops):
        return None
    made, first = [], x
    fill = _fill(k.elem_type)
    if fill is not None and version >= 8 and all(accepts(o, version, k.elem_type) for o in ("Constant", "Expand")):
        # Parts 0 and 1 hold x's shape filled with another value, so a reader moved to the wrong output of the Split
        # sees other numbers (with three copies of x, every output is x and the move is invisible).
        c, cn = names.constant("fill", k.elem_type, [fill], [])
        shape, first = names.value("shape"), names.value("filled")
        made = [cn, names.node("Shape", [x], shape), names.node("Expand", [c, shape], first)]
    tripled, parts = names.value("concat"), [names.value(f"part{i}") for i in range(3)]
    attrs = {"axis": 0, **({"num_outputs": 3} if version >= 18 else {})}
    split = onnx.helper.make_node("Split", [tripled], parts, name=names.value("split_node"), **attrs)
    return [*made, names.node("Concat", [first, first, x], tripled, axis=0), split]


_SHARED = dict((*ELEMENTWISE, *SHAPE_OPS, *ONE_INPUT, *SELECTIONS))

#: (name, the op type a pattern matcher then sees reading the value, step) in chain order: see the module docs.
OPS: tuple[tuple[str, str, Step], ...] = (
    ("add-zero", "Add", _SHARED["add-zero"]),
    ("sub-zero", "Sub", _unary("Sub", operand=("zero", _plus_zero), needs=BROADCAST_OPSET)),
    ("mul-one", "Mul", _SHARED["mul-one"]),
    ("div-one", "Div", _unary("Div", operand=("one", _one), needs=BROADCAST_OPSET)),
    ("and-true", "And", _SHARED["and-true"]),
    ("or-false", "Or", _SHARED["or-false"]),
    ("reduce-sum-noop", "ReduceSum", _SHARED["reduce-sum-noop"]),
    ("reduce-max-noop", "ReduceMax", _unary("ReduceMax", attrs={"noop_with_empty_axes": 1}, needs=REDUCE_ALL_NOOP)),
    ("reduce-min-noop", "ReduceMin", _unary("ReduceMin", attrs={"noop_with_empty_axes": 1}, needs=REDUCE_ALL_NOOP)),
    ("cast-same", "Cast", _cast),
    ("castlike-self", "CastLike", _castlike),
    ("dropout-inference", "Dropout", _unary("Dropout", needs=DROPOUT_INFERENCE)),
    ("dropout-mask-read", "Dropout", _dropout_mask_read),
    ("clip-unbounded", "Clip", _unary("Clip", needs=11)),
    ("sum-one", "Sum", _SHARED["sum-one"]),
    ("max-one", "Max", _SHARED["max-one"]),
    ("min-one", "Min", _SHARED["min-one"]),
    ("mean-one", "Mean", _SHARED["mean-one"]),
    ("where-true", "Where", _SHARED["where-true"]),
    ("not-not", "Not", _SHARED["not-not"]),
    ("transpose-identity", "Transpose", _SHARED["transpose-identity"]),
    ("reshape-zeros", "Reshape", _SHARED["reshape-zeros"]),
    ("slice-full", "Slice", _SHARED["slice-full"]),
    ("expand-ones", "Expand", _SHARED["expand-ones"]),
    ("concat-one", "Concat", _SHARED["concat-one"]),
    ("pad-zeros", "Pad", _ranked("Pad", 11, int64_operand("Pad", "pads", lambda r: [0] * (2 * r), mode="constant"))),
    ("tile-ones", "Tile", _ranked("Tile", 6, int64_operand("Tile", "repeats", lambda r: [1] * r))),
    ("unsqueeze-squeeze", "Unsqueeze", _squeeze_pair),
    ("split-one", "Split", _split_one),
    ("split-third", "Split", _split_third),
    ("pad-crop", "Pad", _ranked("Pad", 11, _pad_crop)),
    ("add-zero-outrank", "Add", _add_zero_outrank),
)
NAMES = tuple(name for name, _, _ in OPS)
OP_TYPES = {name: op_type for name, op_type, _ in OPS}
#: Ops whose reader meets a condition their op type alone does not say (a negative pad, an operand of higher rank
#: than the value, a second output read, a value read from its producer's third output): their sites get a
#: signature of their own, not the one they would share with ``pad-zeros`` / ``add-zero`` / ``dropout-inference`` /
#: ``split-one``, so sampling one site per signature does not leave them behind their op type's other ops.
OWN_SIGNATURE = frozenset({"pad-crop", "add-zero-outrank", "dropout-mask-read", "split-third"})


def one_op(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Each site → the op ``NAME`` (module docs) on that value or edge; with ``only`` None, every fitting op
    on every value and every edge, chained in :data:`OPS` order. The labels changed, in model order.

    Sites (:mod:`passcheck.mutations._value_sites`): ``VALUE:NAME`` (the op between the value and all its
    readers; a graph output keeps its name) and, for a value read by more than one node or also a graph
    output, ``VALUE->READER:NAME`` (the op on the edge into that one reader: the other readers keep reading
    the value). The ops follow the value's producer (graph inputs: the graph's first nodes)."""
    return _value_sites.insert(model, only, [(name, step) for name, _, step in OPS], each=True, edges=True)


def site_signature(label: str, signatures: Mapping[str, tuple]) -> tuple | None:
    """The signature of site ``VALUE:NAME`` or ``VALUE->READER:NAME``: the value's (or the edge's) with the
    op type NAME puts there among its readers (:func:`passcheck.mutations._value_sites.signature`); None
    for a label of another form."""
    got = _value_sites.parse(label, OP_TYPES)
    if got is None:
        return None
    op = OP_TYPES[got[2]]
    return _value_sites.signature(
        label.rpartition(":")[0], signatures, f"{op}:{got[2]}" if got[2] in OWN_SIGNATURE else op
    )


REWRITES = (
    Rewrite(
        "neutral-op",
        "a value x → one neutral op on x alone (site VALUE:NAME: Cast to its own type, Dropout in inference, "
        "Sub 0, Div 1, Pad 0, Pad +1 then -1, Add a zero of one more rank then Squeeze, Tile 1, Unsqueeze+Squeeze, "
        "the third of three equal Split parts of Concat(x, x, x), "
        "…; see the module docs); all at once: every op chained",
        one_op,
        inverse="neutral-remove",
        detail="values",
        site_signature=site_signature,
        lists=True,
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
        "Operators.md: Sub-7, Div-7, CastLike-15, Dropout-12 (training_mode absent is false; its mask then all "
        "true, read by a Where-9), Clip-11 (bounds "
        "optional), Pad-11 (a negative pad removes: add or remove), Tile-6, Unsqueeze/Squeeze, Split (one output; "
        "or three equal parts of Concat(x, x, x), the third read: IR.md, outputs are positional), "
        "ReduceMax/ReduceMin-18, Add-7 (multidirectional broadcasting: a zero of higher rank, squeezed back) "
        "(noop_with_empty_axes), and the neutral ops of neutral-elementwise, neutral-shape-ops, "
        "neutral-one-input-variadic and neutral-where-not",
        "Any one op that is the identity on its input may stand alone between a value's producer and its readers.",
        ("neutral-op", "neutral-remove"),
        _SITES,
    ),
)
