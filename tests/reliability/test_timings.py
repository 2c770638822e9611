"""``PASSCHECK_TIMINGS``: every worker job's line gives its wall and CPU seconds inside the worker
(:func:`passcheck.execution.process.timed`; read by ``bench/check_mutations.py``)."""

from __future__ import annotations

import json
import time

from passcheck.execution import process


class _Spin:
    label = "spin"

    def __call__(self, data: bytes, workdir: str) -> int:
        return sum(i * i for i in range(200_000))


def test_a_jobs_line_gives_its_wall_and_cpu_seconds(tmp_path, monkeypatch):
    path = tmp_path / "timings.jsonl"
    monkeypatch.setenv("PASSCHECK_TIMINGS", str(path))
    before = time.time()
    assert process.timed(_Spin(), b"", str(tmp_path)) == sum(i * i for i in range(200_000))
    after = time.time()
    (line,) = [json.loads(x) for x in path.read_text().splitlines()]
    assert line["job"] == "spin" and 0 < line["cpu"] <= line["seconds"] * 1.5 + 0.01
    # where the job lies on the run's timeline: it ended within the call, and began after the call did
    assert before <= line["end"] <= after and line["end"] - line["seconds"] >= before - 0.01
