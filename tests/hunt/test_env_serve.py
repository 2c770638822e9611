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
