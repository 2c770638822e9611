"""Non-negative ↔ negative static positions of SequenceAt, SequenceErase and SequenceInsert
(Operators.md SequenceAt-11, SequenceErase-11, SequenceInsert-11: a negative position counts from the
back of the sequence; SequenceAt and SequenceErase accept [-n, n-1], SequenceInsert [-n, n], n the
number of tensors in the input sequence).

So a position ``p >= 0`` and ``p - n`` name the same slot when p < n (SequenceInsert's ``p = n``,
appending, has no negative spelling and is left alone). The rewrites need n, which shape inference
does not give: it is read off the main graph's sequence producers, ``SequenceConstruct`` (its input
count) and, from a sequence of known length, ``SequenceInsert`` (+1) and ``SequenceErase`` (-1). The
position becomes a fresh tensor of the same spelling (initializer or Constant) and element type; the
old one goes when nothing else reads it. Sites are the rewritten nodes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations._base import (
    Rewrite,
    is_default_domain,
    opset,
)
from passcheck.mutations._freedom import Freedom
from passcheck.mutations.index_sign import flip_static_inputs

if TYPE_CHECKING:
    import numpy as np
    import onnx

#: op → the input slot of its position.
POSITION_OPS: dict[str, int] = {"SequenceAt": 1, "SequenceErase": 1, "SequenceInsert": 2}


def sequence_lengths(g: onnx.GraphProto) -> dict[str, int]:
    """Sequence value name → its number of tensors, where the graph's nodes fix it: SequenceConstruct,
    then SequenceInsert (+1) / SequenceErase (-1, whatever position it erases) of a known sequence."""
    lengths: dict[str, int] = {}
    for n in g.node:
        if not is_default_domain(n) or not n.output:
            continue
        if n.op_type == "SequenceConstruct":
            lengths[n.output[0]] = len(n.input)
        elif n.op_type in ("SequenceInsert", "SequenceErase") and n.input[0] in lengths:
            size = lengths[n.input[0]] + (1 if n.op_type == "SequenceInsert" else -1)
            if size >= 0:
                lengths[n.output[0]] = size
    return lengths


def _edit(model: onnx.ModelProto, only: frozenset[str] | None, negative: bool) -> list[str]:
    if opset(model) < 11:
        return []
    lengths = sequence_lengths(model.graph)

    def slot_of(n: onnx.NodeProto) -> int | None:
        return POSITION_OPS.get(n.op_type)

    def sizes_of(n: onnx.NodeProto, values: np.ndarray) -> int | None:
        return lengths.get(n.input[0]) or None if values.size == 1 else None

    return flip_static_inputs(model, only, negative, slot_of, sizes_of)


def positions_negative(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """SequenceAt/Erase/Insert static positions p in [0, n) → p - n, n the sequence's known length."""
    return _edit(model, only, negative=True)


def positions_positive(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """SequenceAt/Erase/Insert static positions p in [-n, 0) → p + n."""
    return _edit(model, only, negative=False)


REWRITES = (
    Rewrite(
        "sequence-position-negative",
        "static SequenceAt/Erase/Insert positions p >= 0 → p - n (n from SequenceConstruct; opset >= 11)",
        positions_negative,
        inverse="sequence-position-positive",
    ),
    Rewrite(
        "sequence-position-positive",
        "static SequenceAt/Erase/Insert positions p < 0 → p + n (n from SequenceConstruct; opset >= 11)",
        positions_positive,
        inverse="sequence-position-negative",
    ),
)

FREEDOMS = (
    Freedom(
        "sequence-position-sign",
        "operator schemas",
        "Operators.md SequenceAt-11, SequenceErase-11 (position in [-n, n-1]), SequenceInsert-11 (position in "
        "[-n, n]); negative counts from the back",
        "A static position in a sequence of n tensors may be counted from the front (p) or from the back (p - n).",
        ("sequence-position-negative", "sequence-position-positive"),
        "main-graph SequenceAt/SequenceErase/SequenceInsert nodes with a static one-element integer position "
        "whose input sequence has a length the graph fixes (SequenceConstruct, then Insert/Erase of it); "
        "SequenceInsert's append position n left alone; fresh tensor of the replaced spelling",
    ),
)
