"""A form the installed onnx cannot build skips its case with the reason; the run goes on (issue 18.6).

onnx 1.16's parser cannot read ``""`` as an input name, so half the optional-input library
raised ParseError while building and a whole-library ``run`` aborted with exit 2 and no report.
Here the same failure is planted with a spelling no onnx parses, through the real CLI.
"""

from __future__ import annotations

import json
import subprocess
import sys

CASES = '''
import onnx.parser
from passcheck.cases import Case, Form, register

def _good():
    return onnx.parser.parse_model("""<ir_version: 8, opset_import: ["" : 18]>
g (float[N,3] x) => (float[N,3] y) { y = Relu(x) }""")

def _unparsable():
    return onnx.parser.parse_model("""<ir_version: 8, opset_import: ["" : 18]>
g (float[N,3] x) => (float[N,3] y) { y = Relu(x, ?) }""")

def _typo():
    return {}["no such key"]

for cid, other in (("planted/unparsable", _unparsable), ("planted/good", _good)):
    register(Case(id=cid, forms={"common": Form(_good), "other": Form(other)}, doc="planted", opset=18,
                  bindings=({"N": 1}, {"N": 2}), passes=("onnx:infer-shapes",)))
'''


def _run(tmp_path, *extra):
    (tmp_path / "planted_cases.py").write_text(CASES)
    out = tmp_path / "r.json"
    p = subprocess.run(
        [
            sys.executable,
            "-m",
            "passcheck",
            "run",
            "--cases-from",
            str(tmp_path / "planted_cases.py"),
            "--case",
            "planted/*",
            "--json",
            str(out),
            "-q",
            "--progress",
            "none",
            *extra,
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    return p, out


def test_unparsable_form_skips_its_case_and_the_run_reports(tmp_path):
    p, out = _run(tmp_path)
    assert p.returncode == 0, p.stderr
    assert "Traceback" not in p.stderr
    cells = json.loads(out.read_text())["results"]
    bad = [c for c in cells if c["case"] == "planted/unparsable"]
    assert bad and {c["status"] for c in bad} == {"skipped"}
    assert all("cannot build form 'other': ParseError" in c["error"] for c in bad)
    good = [c for c in cells if c["case"] == "planted/good"]
    assert good and "skipped" not in {c["status"] for c in good}


def test_builder_bug_outside_onnx_is_still_a_case_error(tmp_path):
    (tmp_path / "planted_cases.py").write_text(CASES.replace('("planted/good", _good)', '("planted/good", _typo)'))
    p = subprocess.run(
        [
            sys.executable,
            "-m",
            "passcheck",
            "run",
            "--cases-from",
            str(tmp_path / "planted_cases.py"),
            "--case",
            "planted/good",
            "-q",
            "--progress",
            "none",
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert p.returncode == 2
    assert "its build function raised KeyError" in p.stderr and "Traceback" not in p.stderr
