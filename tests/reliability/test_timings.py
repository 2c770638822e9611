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


def test_a_reference_run_made_in_this_process_writes_its_line_once(tmp_path, monkeypatch):
    """onnx's reference evaluator run by passcheck's own process (function and subgraph values,
    the equivalence gate) is a tool's run too: one ``reference run`` line per evaluation, none for a
    run its cache answers."""
    import numpy as np
    from onnx import TensorProto, helper

    from passcheck.runtime.reference import REFERENCE_LABEL, run_reference

    path = tmp_path / "timings.jsonl"
    monkeypatch.setenv("PASSCHECK_TIMINGS", str(path))
    graph = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["y"])],
        "speed31-timed-reference",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3])],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    feeds = {"x": np.array([-1.0, 0.0, 2.5], np.float32)}
    for _ in range(2):  # the second run is the cache's
        assert run_reference(model, feeds).outputs["y"].tolist() == [0.0, 0.0, 2.5]
    (line,) = [json.loads(x) for x in path.read_text().splitlines()]
    assert line["job"] == REFERENCE_LABEL == "reference run" and line["seconds"] >= 0 and "end" in line
