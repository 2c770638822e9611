"""A line that only an isolation worker runs keeps the test that made the worker run it in the mutation
map, even when the worker is killed while coverage writes its data file again (bench/mutation_contexts.py,
bench/mutation_select.py's ``read_map``)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.test_bench_scripts import ROOT, _bench

#: What runs in the "worker": one job through ``timed``, a save, then a kill while the data file is
#: written again, as SIGKILL leaves a file coverage writes in place without a journal: cut short.
_WORKER = """
import os, signal
import coverage
from passcheck.execution import process
from passcheck.runtime import lru

def job(data, workdir):
    return lru.kept(__import__("collections").OrderedDict(), "k", lambda: 1, 1)

process.timed(job, b"", "")
live = coverage.Coverage.current().get_data().data_filename()
with open(live, "r+b") as f:
    f.truncate(1000)
os.kill(os.getpid(), signal.SIGKILL)
"""


def test_a_line_only_a_killed_worker_ran_keeps_its_test(tmp_path, capsys):
    sel = _bench("mutation_select")
    cov = tmp_path / "_coverage"
    (cov / "plugin").mkdir(parents=True)
    (cov / "plugin" / "mutation_contexts.py").write_bytes((ROOT / "bench" / "mutation_contexts.py").read_bytes())
    (cov / "rc").write_text(sel._RC.format(data=cov / "data"))
    shutil.copytree(ROOT / "passcheck", tmp_path / "passcheck", ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "worker.py").write_text(_WORKER)
    test = "tests/runtime/test_x.py::test_job"
    (cov / "now").write_text(test)
    env = dict(
        os.environ,
        PYTHONPATH=os.pathsep.join([str(cov / "plugin"), str(tmp_path)]),
        PASSCHECK_IN_WORKER="1",
        PASSCHECK_MUTATION_CONTEXT=str(cov / "now"),
    )
    env.pop("PASSCHECK_TIMINGS", None)
    argv = [sys.executable, "-m", "coverage", "run", f"--rcfile={cov / 'rc'}", "worker.py"]
    proc = subprocess.run(argv, cwd=tmp_path, env=env, capture_output=True, text=True)
    assert proc.returncode == -9, proc.stderr  # killed, as a worker ends

    found = sel.read_map(tmp_path, ["passcheck/runtime/lru.py"])
    body = Path(ROOT / "passcheck/runtime/lru.py").read_text().splitlines()
    line = next(i for i, text in enumerate(body, 1) if "value = cache.get(key)" in text)
    assert found["lines"]["passcheck/runtime/lru.py"][line] == [test]
    assert "1 coverage data files unreadable" in capsys.readouterr().out  # the cut file is named, not hidden
