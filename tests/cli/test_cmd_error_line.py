"""A ``cmd:`` pass that fails with a Python traceback is reported by the error's last line, not
"Traceback (most recent call last):"; the whole text stays in the finding's details (issue 18.6)."""

from __future__ import annotations

import json
import subprocess
import sys

from passcheck.passes.command import headline

TOOL = """
import sys
print("loading model", file=sys.stderr)
def optimize(path):
    raise ValueError("Unsupported dtype for initializer W: bfloat16")
optimize(sys.argv[1])
"""


def test_declined_command_finding_names_the_exception(tmp_path):
    tool = tmp_path / "bad_tool.py"
    tool.write_text(TOOL)
    out = tmp_path / "r.json"
    p = subprocess.run(
        [
            sys.executable,
            "-m",
            "passcheck",
            "run",
            "--case",
            "optional-input/conv-relu",
            "--pass",
            f"cmd:{sys.executable} {tool} {{in}} {{out}}",
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
    cells = [c for c in json.loads(out.read_text())["results"] if c["pass_id"].startswith("cmd:")]
    found = [f for c in cells for f in c["findings"] if f["oracle"] == "acceptance"]
    assert found
    for f in found:
        assert "ValueError: Unsupported dtype for initializer W: bfloat16" in f["message"], f["message"]
        assert "Traceback" not in f["message"]
        assert "Traceback (most recent call last):" in json.dumps(f["details"])


def test_headline_picks_the_exception_of_the_last_traceback():
    chained = (
        "Traceback (most recent call last):\n  File \"a.py\", line 1, in <module>\nKeyError: 'x'\n\n"
        "During handling of the above exception, another exception occurred:\n\n"
        'Traceback (most recent call last):\n  File "a.py", line 3, in <module>\n    f()\n    ^^^\n'
        "onnx.checker.ValidationError: bad graph\nexiting\n"
    )
    assert headline(chained) == "onnx.checker.ValidationError: bad graph"
    assert headline("warning: x\nerror: cannot open model\n") == "error: cannot open model"
