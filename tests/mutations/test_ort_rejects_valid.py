"""onnxruntime rejecting a verified-valid rewrite is a finding about onnxruntime, not a passcheck
bug (issue 18.6): the reference evaluator is the gate's second opinion.

``Squeeze(x, "")`` (axes written as an empty name) is valid ONNX and the reference evaluator runs
it, but onnxruntime 1.22+ fails at run time ("Axes input is null").
"""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import onnx
import pytest

from passcheck.errors import PasscheckInternalError
from passcheck.mutations.equivalence import verify_equivalent

HEAD = '<ir_version: 8, opset_import: ["" : 18]>\n'
ORIGINAL = HEAD + "g (float[N,1,3] x) => (float[N,3] y) { y = Squeeze(x) }"
SAME = HEAD + 'g (float[N,1,3] x) => (float[N,3] y) { y = Squeeze(x, "") }'
WRONG = HEAD + 'g (float[N,1,3] x) => (float[N,3] y) { s = Squeeze(x, "")\n y = Neg(s) }'
FEEDS = [{"x": np.arange(6, dtype=np.float32).reshape(2, 1, 3)}]


def _ort_fails_on_empty_axes() -> bool:
    import onnxruntime as ort

    sess = ort.InferenceSession(onnx.parser.parse_model(SAME).SerializeToString(), providers=["CPUExecutionProvider"])
    try:
        sess.run(None, FEEDS[0])
    except Exception:  # noqa: BLE001
        return True
    return False


needs_ort_bug = pytest.mark.skipif(not _ort_fails_on_empty_axes(), reason='this onnxruntime runs Squeeze(x, "")')


@needs_ort_bug
def test_gate_keeps_a_mutant_only_onnxruntime_rejects():
    verify_equivalent(onnx.parser.parse_model(ORIGINAL), onnx.parser.parse_model(SAME), FEEDS, "planted")


@needs_ort_bug
def test_gate_still_refuses_a_mutant_the_reference_evaluator_says_differs():
    with pytest.raises(PasscheckInternalError, match="reference evaluator"):
        verify_equivalent(onnx.parser.parse_model(ORIGINAL), onnx.parser.parse_model(WRONG), FEEDS, "planted")


@needs_ort_bug
def test_check_mutations_reports_onnxruntime_rejecting_the_empty_axes_form(tmp_path):
    model = tmp_path / "sq.onnx"
    onnx.save(onnx.parser.parse_model(ORIGINAL), model)
    out = tmp_path / "r.json"
    p = subprocess.run(
        [
            sys.executable,
            "-m",
            "passcheck",
            "check",
            str(model),
            "--mutations",
            "--form",
            "empty-optional-input",
            "--json",
            str(out),
            "-q",
            "--progress",
            "none",
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert p.returncode == 1, p.stderr
    assert "internal error" not in p.stderr
    cells = json.loads(out.read_text())["results"]
    found = [f for c in cells if c["form"] == "empty-optional-input" and c["pass_id"] == "input" for f in c["findings"]]
    assert [(f["kind"], f["oracle"]) for f in found] == [("rejected", "runtime")]
    assert (
        "Axes input is null" in json.dumps(found[0]["details"])
        and "'common' runs on the same feeds" in found[0]["message"]
    )
