"""Shape rules an operator's documentation states in prose that neither ``onnx.checker`` nor onnx shape inference
enforces, checked on the shapes a model states or inference gives it (one :class:`Rule` each, with its source).

Probed on onnx 1.23.2 (strict inference, data propagation, every dim static): Concat's "same shape except on the
axis" and the multidirectional broadcasting of Sum / Max / Min / Mean / Where (Broadcasting.md) are enforced by
inference ("Can't merge shape info", "Incompatible dimensions"); ConcatFromSequence's are not: its inference reads
no element shape of its input sequence, so ``ConcatFromSequence<axis=0>(SequenceConstruct(a, b))`` with
``a: [2, 3]``, ``b: [2, 0]`` is accepted by the checker and by inference, and onnxruntime 1.32.0 runs it (its
concatenation skips an empty input). The convolutions' channel counts are not either: ``Conv(x, w, group=2)`` with
``x: [1, 1, 3, 3]``, ``w: [4, 2, 1, 1]`` is accepted by both (inferred ``[1, 4, 3, 3]``) and refused by onnxruntime
("Input channels C is not equal to kernel channels * group"); so are ConvInteger's, and ConvTranspose's with
``x: [1, 3, 3, 3]``, ``w: [2, 4, 1, 1]`` ("filter number not equal to input channel number"). Nor is Conv's
feature-map count: ``w: [3, 2, 1, 1]`` with ``group=2`` on 4 channels is accepted (inferred ``[1, 3, 3, 3]``) and
refused by onnxruntime at run time ("Output channels M is not divisible by group"; ConvInteger alike), though onnx
inference refuses ConvTranspose's counterpart ("Input channels C must be divisible by group"). onnx's
``shape_inference`` module says inference "is not guaranteed to be complete". A model that breaks such a rule is
outside the spec: what a pass does with it is no finding about the pass.

The elements of a sequence are traced through the ops that build it in the main graph (SequenceConstruct: its
inputs; SequenceInsert: the input sequence's elements and ``tensor``; SequenceEmpty: none; an Identity); any other
producer (a graph input, SplitToSequence, SequenceErase, a Loop) leaves the rule undecided, never broken.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from passcheck.oracles.sequence_dims import Dim, elements, shapes

if TYPE_CHECKING:
    import onnx


@dataclasses.dataclass(frozen=True)
class Rule:
    """One documented shape rule: ``check(node, elements, shape)`` returns what breaks it or None.
    ``elements(name)``: the values a sequence value is built from (None: unknown); ``shape(name)``: a tensor
    value's stated dims (None: rank unknown)."""

    id: str
    ops: tuple[str, ...]
    check: Callable
    source: str
    section: str

    @property
    def cite(self) -> str:
        return f"{self.source} (ONNX Operators.md, {self.section})"


def _differ(a: Sequence[Dim], b: Sequence[Dim], skip: int | None) -> int | None:
    """The first axis (``skip`` aside) where two shapes of one rank state different sizes (two ints, or an int and
    a symbol never; two different symbols may agree at run time: undecided), else None."""
    for i, (x, y) in enumerate(zip(a, b, strict=True)):
        if i != skip and isinstance(x, int) and isinstance(y, int) and x != y:
            return i
    return None


def _concat_elements(node, elements, shape) -> str | None:
    """ConcatFromSequence: every element has the same rank and the same size on every axis but ``axis``
    (``new_axis`` 1: on every axis, numpy.stack)."""
    names = elements(node.input[0])
    if not names:
        return None
    shapes = [shape(n) for n in names]
    if any(s is None for s in shapes):
        return None
    attrs = {a.name: a for a in node.attribute}
    axis = attrs["axis"].i if "axis" in attrs else 0
    new_axis = attrs["new_axis"].i if "new_axis" in attrs else 0
    first, r = shapes[0], len(shapes[0])
    for n, s in zip(names[1:], shapes[1:], strict=True):
        if len(s) != r:
            return f"element {n!r} has rank {len(s)}, element {names[0]!r} rank {r}"
        skip = None if new_axis else (axis + r if axis < 0 else axis)
        if (i := _differ(first, s, skip)) is not None:
            return (
                f"elements {names[0]!r} {_show(first)} and {n!r} {_show(s)} differ on axis {i}"
                f" (axis = {axis}, new_axis = {new_axis})"
            )
    return None


#: Where each convolution reads its weight and which weight axis times what counts the input channels: (weight input
#: index, weight axis, multiplied by ``group``). Conv, ConvInteger, QLinearConv, DeformConv: W is ``(M x C/group x
#: k1 ...)``, so C = W.shape[1] * group; ConvTranspose: W is ``(C x M/group x k1 ...)``, so C = W.shape[0].
_CONV_WEIGHT = {
    "Conv": (1, 1, True),
    "ConvInteger": (1, 1, True),
    "DeformConv": (1, 1, True),
    "QLinearConv": (3, 1, True),
    "ConvTranspose": (1, 0, False),
}


def _conv_channels(node, elements, shape) -> str | None:
    """A convolution's input channels ``X.shape[1]`` against the count its weight states (:data:`_CONV_WEIGHT`), when
    both are static; a symbol, an unknown rank or a missing weight leaves it undecided."""
    w_index, w_axis, grouped = _CONV_WEIGHT[node.op_type]
    if len(node.input) <= w_index:
        return None
    x, w = shape(node.input[0]), shape(node.input[w_index])
    if x is None or w is None or len(x) < 2 or len(w) <= w_axis:
        return None
    c, k = x[1], w[w_axis]
    if not (isinstance(c, int) and isinstance(k, int)):
        return None
    group = next((a.i for a in node.attribute if a.name == "group"), 1) if grouped else 1
    if c != k * group:
        return f"input channels {c} (X.shape[1]), weight states {k} (W.shape[{w_axis}]) x group {group}"
    return None


def _conv_feature_maps(node, elements, shape) -> str | None:
    """A grouped convolution's feature maps ``M = W.shape[0]`` against ``group`` (Conv, ConvInteger, QLinearConv,
    DeformConv: the output channels are divided into ``group`` groups), when both are static; ConvTranspose is
    left out (its W is ``(C x M/group ...)`` and onnx inference already refuses C not divisible by ``group``)."""
    w_index, _, grouped = _CONV_WEIGHT[node.op_type]
    if not grouped or len(node.input) <= w_index:
        return None
    w = shape(node.input[w_index])
    group = next((a.i for a in node.attribute if a.name == "group"), 1)
    if w is None or len(w) < 1 or not isinstance(w[0], int) or group <= 1:
        return None
    if w[0] % group:
        return f"feature maps {w[0]} (W.shape[0]) not a multiple of group {group}"
    return None


def _show(dims: Sequence[Dim]) -> str:
    return "[" + ", ".join("?" if d is None else str(d) for d in dims) + "]"


RULES: tuple[Rule, ...] = (
    Rule(
        "concat-from-sequence-elements",
        ("ConcatFromSequence",),
        _concat_elements,
        "all input tensors have the same shape except on the axis to concatenate on; with new_axis = 1 (numpy.stack) "
        "on every axis",
        "ConcatFromSequence, input input_sequence and attribute new_axis",
    ),
    Rule(
        "conv-input-channels",
        tuple(_CONV_WEIGHT),
        _conv_channels,
        "W has size (M x C/group x k1 ...), C the input's channels: X.shape[1] == W.shape[1] * group (ConvTranspose: "
        "W has size (C x M/group x k1 ...): X.shape[1] == W.shape[0])",
        "Conv / ConvInteger / QLinearConv / DeformConv / ConvTranspose, inputs X and W",
    ),
    Rule(
        "conv-feature-maps-group",
        tuple(op for op, (_, _, grouped) in _CONV_WEIGHT.items() if grouped),
        _conv_feature_maps,
        "group: the number of groups input channels and output channels are divided into (Conv's W: W.shape[0] mod "
        "G == 0; DeformConv: C and oC must both be divisible by group)",
        "Conv / ConvInteger / QLinearConv / DeformConv, attribute group and input W",
    ),
)


def breaks(model: onnx.ModelProto) -> list[str]:
    """What each main-graph node of ``model`` that one of :data:`RULES` applies to breaks, as
    ``"<rule id>: <node>: <what> (<source>)"``; empty when nothing is broken or nothing can be decided. Shapes are
    the model's own (graph inputs, initializers, value_info, outputs): give it an inferred model (e.g.
    ``onnx.shape_inference.infer_shapes`` at the feeds' shapes) to judge what inference gives."""
    g = model.graph
    stated, trace = shapes(g), elements(g)

    out = []
    for n in g.node:
        for rule in RULES:
            if n.op_type in rule.ops and n.domain in ("", "ai.onnx"):
                if (why := rule.check(n, trace, stated.get)) is not None:
                    out.append(f"{rule.id}: {n.name or n.op_type}: {why} ({rule.cite})")
    return out
