"""PRelu in the broadcast rewrites (``explicit-broadcast`` / ``implicit-broadcast``, passcheck/mutations/broadcast.py):
PRelu broadcasts unidirectionally (Operators.md PRelu-7+: the slope to X), so only its slope is written at X's shape
or read back from below an Expand; an Expand on X is never dropped (the slope may be larger than the Expand's input,
as on ``broadcast/unidirectional-prelu``). Checked with onnx's full check and onnxruntime's values."""

from __future__ import annotations

import numpy as np
import onnx
import onnx.parser
import onnxruntime as ort

from passcheck.cases import registry
from passcheck.mutations import REWRITES


def _run(m, feeds):
    return ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)[0]


def _prelu(body, consts="<float[3] s3 = {0.1, 0.2, 0.3}, int64[2] s23 = {2, 3}>"):
    return onnx.parser.parse_model(
        f'<ir_version: 8, opset_import: ["" : 15]>\ng (float[2,3] x) => (float[2,3] y) {consts} {{\n{body}\n}}'
    )


FEEDS = {"x": np.array([[-1, 2, -3], [4, -5, 6]], np.float32)}


def test_explicit_writes_the_slope_at_x_shape_and_keeps_the_values():
    m = _prelu("y = PRelu(x, s3)")
    got = REWRITES["explicit-broadcast"].apply(m)
    assert got is not None
    out, applied = got
    assert list(applied.nodes) == ["#0:PRelu"]
    prelu = next(n for n in out.graph.node if n.op_type == "PRelu")
    assert prelu.input[0] == "x" and prelu.input[1] != "s3"  # only the slope moved
    onnx.checker.check_model(out, full_check=True)
    np.testing.assert_array_equal(_run(out, FEEDS), _run(m, FEEDS))


def test_implicit_reads_an_expanded_slope_back():
    m = _prelu("e = Expand(s3, s23)\ny = PRelu(x, e)")
    got = REWRITES["implicit-broadcast"].apply(m)
    assert got is not None
    out, _ = got
    assert [n.op_type for n in out.graph.node] == ["PRelu"]
    onnx.checker.check_model(out, full_check=True)
    np.testing.assert_array_equal(_run(out, FEEDS), _run(m, FEEDS))


def test_implicit_never_drops_the_expand_on_x():
    base = next(c for c in registry() if c.id == "broadcast/unidirectional-prelu")
    m = base.forms["common"].build()
    assert REWRITES["implicit-broadcast"].apply(m) is None
