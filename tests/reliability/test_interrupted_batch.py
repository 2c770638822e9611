"""Ctrl-C while ``passcheck check`` judges the passes' outputs keeps what the passes already produced: the
engine runs every pass on a small form in one round trip (``_batched``) before judging any, and an
interrupt between the first judged pass and the last dropped the outputs not judged yet from the partial
report. They are now in it, each ``unchecked`` (interrupted), and the report is written."""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading

import onnx
from onnx import TensorProto, helper

from passcheck.passes import DEFAULT_PASSES
from passcheck.records import INTERRUPTED


def _slow_model(path, n: int = 1024, k: int = 24) -> None:
    """k rounds of t = Tanh(t @ x) on an n×n input: under the 1 MB batch limit (no initializer), and each
    run of a pass output takes long enough (seconds) for the signal to land while outputs wait."""
    nodes, prev = [], "x"
    for i in range(k):
        nodes += [helper.make_node("MatMul", [prev, "x"], [f"m{i}"]), helper.make_node("Tanh", [f"m{i}"], [f"t{i}"])]
        prev = f"t{i}"
    graph = helper.make_graph(
        nodes,
        "slow",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [n, n])],
        [helper.make_tensor_value_info(prev, TensorProto.FLOAT, [n, n])],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, path)


def test_ctrl_c_after_the_first_pass_cell_keeps_the_unjudged_outputs(tmp_path):
    _slow_model(tmp_path / "slow.onnx")
    env = {**os.environ, "PASSCHECK_PROGRESS_EVERY": "0", "PASSCHECK_CACHE": str(tmp_path / "cache")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "passcheck", "check", "slow.onnx", "--progress", "lines", "--json", "r.json"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    lines: queue.Queue[str | None] = queue.Queue()
    first_pass = threading.Event()

    def read() -> None:
        for line in proc.stderr:
            lines.put(line)
            if f"common {DEFAULT_PASSES[0]})" in line:  # the first pass cell is reported: the batch has run
                first_pass.set()
        lines.put(None)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        assert first_pass.wait(timeout=300), "no pass cell was reported"
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=120)
    finally:
        proc.kill()
    reader.join(timeout=60)
    err = "".join(iter(lines.get_nowait, None))
    assert proc.returncode == 130, err  # the signal landed before the run ended
    assert "Traceback" not in err, err
    doc = json.loads((tmp_path / "r.json").read_text())
    assert doc["partial"] is True
    cells = {c["pass_id"]: c for c in doc["results"]}
    # every pass ran on the form in the batch: each has its cell, judged or unchecked (interrupted)
    assert set(cells) == {"input", *DEFAULT_PASSES}, sorted(cells)
    interrupted = [p for p, c in cells.items() if INTERRUPTED in c["unchecked"]]
    assert interrupted, "the signal landed after every output was judged"
    for p in interrupted:
        c = cells[p]
        assert c["verdict"] == "unchecked" and c["status"] in ("changed", "unchanged"), c
        assert c["versions"] and c["nodes_after"] is not None, c  # what the pass did is kept
    judged = [p for p in cells if p not in interrupted]
    assert "input" in judged and DEFAULT_PASSES[0] in judged, judged


def test_an_interrupt_during_a_later_form_s_batch_keeps_the_earlier_forms_outputs():
    # the batch runs the passes form by form (one round trip each): an interrupt while the second form's
    # passes run kept nothing of the first form's outputs (they were returned only once every form was done)
    import pytest
    from onnx import parser

    from passcheck.api import check_model
    from passcheck.interrupts import Interrupted
    from passcheck.passes.isolation import IsolatedExecutor

    class InterruptedInSecondBatch(IsolatedExecutor):
        """The real worker; the second batch round trip is interrupted (where Ctrl-C lands while it waits)."""

        batches = 0

        def run_passes(self, adapters, model, workdirs):
            self.batches += 1
            if self.batches == 2:
                raise KeyboardInterrupt
            return super().run_passes(adapters, model, workdirs)

    common = parser.parse_model(
        '<ir_version: 8, opset_import: ["" : 17]> g (float[2] x) => (float[2] y) { y = Relu(x) }'
    )
    other = parser.parse_model(
        '<ir_version: 8, opset_import: ["" : 17]> g (float[2] x) => (float[2] y) { t = Identity(x)\n y = Relu(t) }'
    )
    passes = ["ort:basic", "onnx:infer-shapes"]
    with InterruptedInSecondBatch(timeout=120) as ex, pytest.raises(Interrupted) as got:
        check_model(common, passes, forms={"other": other}, executor=ex)
    assert ex.batches == 2
    kept = {(c.form, c.pass_id): c for c in got.value.unfinished}
    assert set(kept) == {("common", p) for p in passes}, sorted(kept)  # the first form's outputs, unjudged
    assert all(c.verdict == "unchecked" and INTERRUPTED in c.unchecked and c.versions for c in kept.values())
