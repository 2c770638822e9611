"""``hunt --env``'s judge keeps one worker per environment across items
(:class:`passcheck.matrix.hunt.EnvJudge`, ``python -m passcheck.matrix.worker serve``): real
environments (the two pins files of ``test_env_windows.py``), the planted pass that differs from
onnxruntime 1.32 on, and the worker's cells the same as a fresh matrix worker's. A worker that
dies on an item costs a re-run of that item the matrix's way, and after two such items in a row
the environment is judged only that way."""

from pathlib import Path

import pytest

from passcheck.matrix.envs import load_spec
from passcheck.matrix.hunt import SERVE_FAILURES, EnvJudge

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
PLANTED = HERE / "planted_versions.py"
OLD, NEW = load_spec(HERE / "envs" / "hunt-ort-1.31.1.txt"), load_spec(HERE / "envs" / "hunt-ort-1.32.0.txt")
PASS = "planted:ort-1.32-drop"

_MODULE = """
import os, sys

from onnx import TensorProto, helper

from passcheck.cases import Case, Form, register

if {die!r} and "serve" in sys.argv:  # only inside the long-lived worker
    os._exit(3)


def _model(ops, doc=""):
    nodes = [helper.make_node(op, [f"t{{i}}"], [f"t{{i + 1}}"]) for i, op in enumerate(ops)]
    nodes[-1].output[0] = "y"
    nodes[0].input[0] = "x"
    graph = helper.make_graph(
        nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])],
    )
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], doc_string=doc)
    m.ir_version = 8
    return m


register(Case(
    id={cid!r},
    forms={{
        "common": Form(lambda: _model([{op!r}])),
        "uncommon": Form(lambda: _model([{op!r}, "Identity"], doc="spelled unusually"), "two nodes"),
    }},
    doc="serve test pair",
    opset=17,
    passes=({pass_id!r},),
))
"""


def _item(folder: Path, op: str, die: bool = False) -> tuple[Path, str]:
    cid = f"serve/{op.lower()}{'-dies' if die else ''}"
    path = folder / f"serve_{op.lower()}{'_dies' if die else ''}.py"
    path.write_text(_MODULE.format(die=die, cid=cid, op=op, pass_id=PASS))
    return path, cid


def _summary(cells) -> set:
    return {(c.form, c.pass_id, c.status, tuple(sorted(f.kind for f in c.findings))) for c in cells}


@pytest.mark.matrix  # creates (or reuses) two pinned uv environments
def test_one_worker_per_environment_judges_every_item_as_a_fresh_worker_would(tmp_path):
    judge = EnvJudge(envs=[OLD, NEW], source=REPO, work=tmp_path / "w", cases_from=[str(PLANTED)], timeout=240)
    judge.prepare()
    items = [_item(tmp_path, op) for op in ("Relu", "Sigmoid", "Tanh")]
    with judge:
        got = [judge(module, cid, PASS) for module, cid in items]
        servers = judge._servers()
        assert {e: (s.started, s.failures) for e, s in servers.items()} == {OLD.id: (1, 0), NEW.id: (1, 0)}
        assert judge.fallbacks == []
        fresh = judge._by_matrix(NEW.id, *items[-1], PASS)
    for result in got:
        assert set(result) == {OLD.id, NEW.id}
        old, new = result[OLD.id], result[NEW.id]
        assert {(c.form, c.pass_id) for c in new} == {(f, p) for f in ("common", "uncommon") for p in ("input", PASS)}
        assert not [f for c in old for f in c.findings], old
        assert "invalid-model" in {f.kind for c in new for f in c.findings if c.form == "uncommon"}, new
        assert not [f for c in new for f in c.findings if c.form == "common"], new
    assert _summary(got[-1][NEW.id]) == _summary(fresh)


@pytest.mark.matrix
def test_a_worker_dying_on_items_costs_reruns_then_the_matrix_way(tmp_path):
    judge = EnvJudge(envs=[NEW], source=REPO, work=tmp_path / "w", cases_from=[str(PLANTED)], timeout=240)
    judge.prepare()
    items = [_item(tmp_path, op, die=True) for op in ("Relu", "Sigmoid", "Tanh")]
    with judge:
        got = [judge(module, cid, PASS)[NEW.id] for module, cid in items]
        server = judge._servers()[NEW.id]
        assert (server.started, server.failures) == (SERVE_FAILURES, SERVE_FAILURES)
    assert len(judge.fallbacks) == SERVE_FAILURES
    assert all("the worker died: exit code 3" in why for why in judge.fallbacks), judge.fallbacks
    for cells in got:  # each item judged in full by a fresh worker (which never runs 'serve')
        assert not isinstance(cells, str), cells
        assert "invalid-model" in {f.kind for c in cells for f in c.findings if c.form == "uncommon"}, cells


_HANGING_PASS = """
import os
import threading

from passcheck.passes import FunctionAdapter, known_pass_ids, register_pass


def _hang(model):
    with open(os.environ["PLANTED_MARK"], "a") as f:  # the pass worker inside the environment, busy from now on
        f.write(f"{os.getpid()}\\n")
    threading.Event().wait()


if "planted:hangs" not in known_pass_ids():
    register_pass(FunctionAdapter("planted:hangs", _hang, doc="test pass: never returns"))
"""


def _serving(folder: Path) -> list[int]:
    """Pids of the ``worker serve`` processes whose setup file is in ``folder`` (read from /proc)."""
    out = []
    for proc in Path("/proc").iterdir():
        try:
            if proc.name.isdigit() and str(folder) in (proc / "cmdline").read_bytes().decode(errors="replace"):
                out.append(int(proc.name))
        except OSError:
            continue
    return out


def _gone(pid: int) -> bool:
    status = Path(f"/proc/{pid}/status")
    try:
        return "zombie" in status.read_text().lower()
    except OSError:
        return True


@pytest.mark.matrix
def test_ctrl_c_while_the_workers_are_busy_kills_them_at_once(tmp_path):
    import os
    import signal
    import subprocess
    import sys
    import time

    module, mark, out = tmp_path / "hangs.py", tmp_path / "mark", tmp_path / "hunt"
    module.write_text(_HANGING_PASS)
    args = ["--env", str(OLD.path), "--env", str(NEW.path), "--cases-from", str(module), "--pass", "planted:hangs"]
    args += ["--case", "attributes/leakyrelu-alpha", "--no-generated", "--no-coverage", "--budget", "5items"]
    args += ["--out", str(out), "--source", str(REPO), "--progress", "none", "--timeout", "600"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "passcheck", "hunt", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PLANTED_MARK": str(mark)},
        text=True,
    )
    try:
        deadline = time.monotonic() + 300  # generous: two environments' workers must start under load
        while not (mark.is_file() and len(mark.read_text().split()) == 2):  # the pass runs in both environments
            assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
            time.sleep(0.1)
        servers, passes = _serving(out / "env-runs" / "serve"), [int(x) for x in mark.read_text().split()]
        assert len(servers) >= 2, servers  # the two workers (and the pass workers they forked)
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=120)
        print(f"SIGINT to exit: {time.monotonic() - sent:.2f} s")
        assert proc.returncode == 130, err
    finally:  # a failing run leaves no hunt behind (its workers die with it: SIGINT's cleanup, else the kill)
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
    assert all(_gone(pid) for pid in servers + passes), (servers, passes)
