"""On a real onnx 1.16 environment (ci/envs/onnx-1.16.txt: onnxruntime 1.18.1), an ``ort:<level>-without-<Name>`` pass
whose name that release does not register is ``unavailable`` with the reason (:func:`passcheck.passes.ort_config.
unregistered`), not the plain level under another name: SwiGluFusion (a later transformer), GeluFusionL2 (1.18.1
registers GeluFusion unsuffixed, at Level2) and CastChainElimination (a later rewrite rule); the names it registers
run. Needs the package index (creates the pinned environment)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from passcheck.matrix import create, envs

REPO = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.matrix

_SCRIPT = """
import json, onnxruntime
from passcheck.passes import get_pass
ids = ["ort:all-without-SwiGluFusion", "ort:extended-without-GeluFusionL2", "ort:all-without-CastChainElimination",
       "ort:extended-without-GeluFusion", "ort:basic-without-EliminateIdentity"]
print(json.dumps([onnxruntime.__version__, {i: get_pass(i).unavailable_reason() for i in ids}]))
"""


def test_onnxruntime_118_names_it_does_not_register_are_unavailable():
    env = create.ensure(envs.load_spec(REPO / "ci" / "envs" / "onnx-1.16.txt"), REPO)
    p = subprocess.run([str(env.python), "-c", _SCRIPT], capture_output=True, text=True, timeout=600, cwd=REPO)
    assert p.returncode == 0, p.stderr
    version, reasons = json.loads(p.stdout.strip().splitlines()[-1])
    assert version == "1.18.1"
    absent = (
        "ort:all-without-SwiGluFusion",
        "ort:extended-without-GeluFusionL2",
        "ort:all-without-CastChainElimination",
    )
    for pid in absent:
        name = pid.split("-without-")[1]
        assert reasons[pid] and f"onnxruntime 1.18.1 registers no {name}" in reasons[pid], reasons
    assert reasons["ort:extended-without-GeluFusion"] is None and reasons["ort:basic-without-EliminateIdentity"] is None
