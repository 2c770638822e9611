"""The Python API from a user's script with no ``if __name__ == "__main__":`` guard: the isolation
worker starts (it never runs the script's ``__main__``, whatever multiprocessing's start method), so
passes get verdicts; a worker that cannot start is one clear error, never a finding on a pass."""

import json
import subprocess
import sys
import textwrap

import pytest

SCRIPT = """\
import json, multiprocessing
{start}
from passcheck.testing import run_pass

def my_pass(model):  # a function of __main__: runs in a forked child
    return model

cells = run_pass(my_pass, "optional-input/conv-mul") + run_pass("onnx:infer-shapes", "optional-input/conv-mul")
print(json.dumps(sorted({{c.status for c in cells}})))
"""


@pytest.mark.parametrize("start", ["", "multiprocessing.set_start_method('forkserver')"], ids=["default", "forkserver"])
def test_a_script_without_a_main_guard_gets_verdicts(tmp_path, start):
    (tmp_path / "user_script.py").write_text(SCRIPT.format(start=start))
    p = subprocess.run([sys.executable, "user_script.py"], capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert p.returncode == 0, p.stderr[-3000:]
    assert "Traceback" not in p.stderr and "bootstrapping" not in p.stderr
    statuses = json.loads(p.stdout.strip().splitlines()[-1])
    assert "crashed" not in statuses and set(statuses) <= {"changed", "unchanged"}


def test_a_worker_that_cannot_start_is_an_error_not_a_finding(tmp_path):
    (tmp_path / "user_script.py").write_text(
        textwrap.dedent("""\
        from passcheck.passes.isolation import IsolatedExecutor
        from passcheck.testing import run_pass
        with IsolatedExecutor(memory_mb=1) as ex:  # no interpreter starts in 1 MiB
            run_pass("onnx:infer-shapes", "optional-input/conv-mul", executor=ex)
        """)
    )
    p = subprocess.run([sys.executable, "user_script.py"], capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert p.returncode != 0
    assert "WorkerStartError: the isolation worker could not be started under the 1 MiB memory limit" in p.stderr


def test_the_console_script_says_so_in_one_line(tmp_path):
    p = subprocess.run(
        [
            str(__import__("pathlib").Path(sys.executable).with_name("passcheck")),
            "run",
            "--case",
            "optional-input/conv-mul",
            "--pass",
            "onnx:infer-shapes",
            "--memory-limit",
            "1",
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=600,
    )
    assert p.returncode == 2 and "Traceback" not in p.stderr, p.stderr[-2000:]
    assert p.stderr.strip().splitlines()[-1].startswith("passcheck: error: the isolation worker could not be started")
