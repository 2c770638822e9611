"""Algebraic freedoms the catalogue lists without a rewrite: each test shows, with real onnxruntime
sessions, that the two spellings do not compute the same bits, so no rewrite may produce them and
the equivalence gate refuses the mutant."""

from __future__ import annotations

import numpy as np
import pytest

from passcheck.cases.builders import parse, tensor
from passcheck.errors import PasscheckInternalError
from passcheck.mutations import verify_equivalent
from passcheck.runtime import run_ort


def _run(model, feeds):
    run = run_ort(model, feeds)
    assert run.error is None, run.error
    return list(run.outputs.values())


def test_float_add_is_not_associative():
    """(a + b) + c vs a + (b + c) in float32: 1e8 + -1e8 + 1 is 1 one way and 0 the other."""
    left = parse(
        """g (float[3] a, float[3] b, float[3] c) => (float[3] y) {
        s = Add(a, b)
        y = Add(s, c)
    }""",
        opset=13,
    )
    right = parse(
        """g (float[3] a, float[3] b, float[3] c) => (float[3] y) {
        s = Add(b, c)
        y = Add(a, s)
    }""",
        opset=13,
    )
    feeds = {
        "a": np.array([1e8, 0.1, 3], np.float32),
        "b": np.array([-1e8, 0.2, 4], np.float32),
        "c": np.array([1, 0.3, 5], np.float32),
    }
    y1, y2 = _run(left, feeds)[0], _run(right, feeds)[0]
    assert y1[0] == 1 and y2[0] == 0
    with pytest.raises(PasscheckInternalError, match="not equivalent"):
        verify_equivalent(left, right, [feeds], "float-reassociation")


def test_mul_by_rounded_reciprocal_differs_from_div():
    """x / 3 vs x * float32(1/3): the reciprocal is rounded, so some quotients differ in the last bit."""
    div = parse(
        """g (float[256] x) => (float[256] y) { y = Div(x, c) }""", opset=13, initializers=[tensor("c", np.float32(3))]
    )
    mul = parse(
        """g (float[256] x) => (float[256] y) { y = Mul(x, c) }""",
        opset=13,
        initializers=[tensor("c", np.float32(1) / np.float32(3))],
    )
    feeds = {"x": np.arange(1, 257, dtype=np.float32)}
    assert np.any(_run(div, feeds)[0] != _run(mul, feeds)[0])
