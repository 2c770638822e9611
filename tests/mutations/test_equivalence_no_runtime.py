"""The equivalence gate where no runtime runs a mutant (passcheck/mutations/equivalence.py, ``_no_evaluator``):
onnxruntime refusing for a kernel it lacks (bool ``Where``, which Where-9/16 allows: microsoft/onnxruntime#9539)
while the reference evaluator fails on another node (negative ``Pad`` pads, which Pad-11+ allows) is no verdict
(Unverified), never a rewrite bug; a mutant onnxruntime refuses for a reason of the model, or one the evaluator runs
and computes otherwise, stays a rewrite bug. Real onnxruntime, reference evaluator and checker throughout."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx.parser import parse_model

from passcheck.errors import PasscheckInternalError
from passcheck.mutations import REWRITES, verify_equivalent
from passcheck.mutations.equivalence import Unverified

HEAD = '<ir_version: 8, opset_import: ["" : 13]>\n'
#: c = Less(x, y) is bool: neutral-op's where-true writes Where(true, c, false) on it.
ORIGINAL = (
    HEAD
    + """g (float[N, 4] x, float[N, 4] y) => (float[N, 4] z) {
    c = Less(x, y)
    z = Where(c, x, y)
}"""
)


CROP = """
    grow = Constant <value = int64[4] {0, 0, 0, 1}> ()
    crop = Constant <value = int64[4] {0, 0, 0, -1}> ()
    x1 = Pad <mode = "edge"> (x, grow)
    x2 = Pad (x1, crop)"""


def _mutant(cond: str, crop: bool = True) -> onnx.ModelProto:
    """The original with the condition ``cond`` computed from ``c`` by a bool Where (no onnxruntime CPU kernel) and,
    ``crop``: ``x`` cropped back to itself (``Pad(Pad(x, +1, edge), -1)``: the reference evaluator of onnx 1.23.2
    refuses the negative pads)."""
    return parse_model(
        HEAD
        + f"""g (float[N, 4] x, float[N, 4] y) => (float[N, 4] z) {{{CROP if crop else ""}
    t = Constant <value = bool {{1}}> ()
    f = Constant <value = bool {{0}}> ()
    c = Less(x, y)
    nc = Not (c)
    c2 = Where(t, {cond}, f)
    z = Where(c2, {"x2" if crop else "x"}, y)
}}"""
    )


FEEDS = [{"x": np.arange(12, dtype=np.float32).reshape(3, 4), "y": np.full((3, 4), 5.5, np.float32)}]


def test_a_kernel_gap_with_an_evaluator_failure_is_no_verdict():
    with pytest.raises(Unverified, match=r"no CPU kernel for Where\(9\).*negative values"):
        verify_equivalent(parse_model(ORIGINAL), _mutant("c"), FEEDS, "planted-equal")


def test_the_neutral_op_rewrite_on_a_bool_value_is_left_out_unverified():
    """The case of round 21l: neutral-op's all-at-once form (where-true on the bool, pad-crop everywhere)."""
    original = parse_model(ORIGINAL)
    (mutant, *_rest) = REWRITES["neutral-op"].apply(original)
    with pytest.raises(Unverified, match=r"no CPU kernel for Where"):
        verify_equivalent(original, mutant, FEEDS, "neutral-op")


def test_a_kernel_gap_the_evaluator_runs_otherwise_is_still_a_rewrite_bug():
    # no crop: the evaluator runs the mutant, which negates the condition
    with pytest.raises(PasscheckInternalError, match="reference evaluator; onnxruntime fails"):
        verify_equivalent(parse_model(ORIGINAL), _mutant("nc", crop=False), FEEDS, "planted-wrong")


def test_a_failure_of_the_model_in_both_runtimes_is_still_a_rewrite_bug():
    # a Reshape to a size the data does not have: onnxruntime fails for the model, not for a kernel it lacks
    wrong = parse_model(
        HEAD
        + """g (float[N, 4] x, float[N, 4] y) => (float[N, 4] z) {
    s = Constant <value = int64[1] {7}> ()
    r = Reshape (x, s)
    back = Shape (x)
    r2 = Reshape (r, back)
    c = Less(r2, y)
    z = Where(c, x, y)
}"""
    )
    with pytest.raises(PasscheckInternalError, match="the reference evaluator fails too"):
        verify_equivalent(parse_model(ORIGINAL), wrong, FEEDS, "planted-reshape")
