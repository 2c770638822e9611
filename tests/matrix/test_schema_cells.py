"""The released-schema oracle in the matrix (:mod:`passcheck.matrix.schemas`): one cell per environment whose onnx
is older than the newest in the run, a finding per field its released schemas report differently, the tables
cached per onnx version; and on the real onnx 1.17 environment the GlobalLpPool constraints that release swapped
(onnx/onnx#6503) in the report of an ordinary matrix run."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import onnx
import pytest

from passcheck._procs import Children
from passcheck.matrix import schemas
from passcheck.matrix.create import Env
from passcheck.matrix.envs import EnvSpec
from passcheck.oracles.schema_history import table

REPO = Path(__file__).resolve().parents[2]
POOL_22 = "ai.onnx::GlobalLpPool::22"


def _planted():
    new = table()
    old = copy.deepcopy(new)
    old[POOL_22]["types:T"].remove("tensor(bfloat16)")
    old["ai.onnx::Erf::13"]["types:T"].append("tensor(int32)")  # the in-place clarification onnx 1.20 made
    return old, new


def _by_form(cells):
    return {(c.env, c.form): c for c in cells}


def test_each_schema_that_differs_is_a_row_of_its_own():
    old, new = _planted()
    other = copy.deepcopy(new)  # an older environment whose schemas are all right
    del other["ai.onnx::Erf::13"]  # and which does not define Erf-13
    got = _by_form(
        schemas.cells({"onnx-old": ("1.9.0", old), "onnx-other": ("1.9.5", other), "onnx-new": ("1.10.0", new)})
    )  # 1.9 < 1.10: versions, not text
    assert set(got) == {
        ("onnx-old", schemas.FORM),
        ("onnx-old", "ai.onnx.GlobalLpPool-22"),
        ("onnx-old", "ai.onnx.Erf-13"),
        ("onnx-other", schemas.FORM),
        ("onnx-other", "ai.onnx.GlobalLpPool-22"),
    }
    pool = got[("onnx-old", "ai.onnx.GlobalLpPool-22")]
    assert (pool.case, pool.pass_id, pool.verdict) == (schemas.CASE, schemas.PASS, "findings")
    (f,) = pool.findings
    assert f.details["schema"] == POOL_22 and not f.expected and "lacks tensor(bfloat16)" in f.message
    assert f.id == "schemas/released:ai.onnx.GlobalLpPool-22|onnx:checker|schema_history|schema-drift"
    (erf,) = got[("onnx-old", "ai.onnx.Erf-13")].findings
    assert erf.expected and "#7398" in erf.reason
    assert got[("onnx-other", "ai.onnx.GlobalLpPool-22")].verdict == "ok"
    assert got[("onnx-old", schemas.FORM)].verdict == got[("onnx-other", schemas.FORM)].verdict == "ok"


def test_the_onnx_imported_here_is_the_reference_when_newest():
    old, new = _planted()
    got = _by_form(schemas.cells({"onnx-old": ("1.9.0", old)}, local=(onnx.__version__, new)))
    assert {f.details["reference"] for c in got.values() for f in c.findings} == {onnx.__version__}
    assert schemas.cells({"only": (onnx.__version__, new)}, local=(onnx.__version__, new)) == []


def test_same_schemas_give_one_ok_cell():
    t = table()
    (cell,) = schemas.cells({"onnx-old": ("1.0.0", copy.deepcopy(t))}, local=("2.0.0", t))
    assert cell.form == schemas.FORM and cell.verdict == "ok" and cell.findings == []


def test_a_cached_table_is_read_without_asking_the_environment(tmp_path):
    spec = EnvSpec("onnx-planted", ("onnx==0.0.1",), tmp_path / "onnx-planted.txt")
    env = Env(spec, tmp_path / "no-such-env", created=False, seconds=0.0)  # no interpreter: only the cache answers
    children = Children()
    assert schemas.env_table(env, tmp_path, children, tmp_path) is None
    old, _ = _planted()
    path = tmp_path / "schemas" / "onnx-0.0.1.json"
    path.parent.mkdir()
    path.write_text(json.dumps(old), encoding="utf-8")
    version, got = schemas.env_table(env, tmp_path, children, tmp_path)
    assert version == "0.0.1" and "tensor(bfloat16)" not in got[POOL_22]["types:T"]


@pytest.mark.matrix
def test_a_matrix_in_onnx_117_reports_the_swapped_global_lp_pool_constraints(tmp_path):
    from passcheck.report import read_report
    from tests.matrix.test_real_matrix import matrix

    out = tmp_path / "out"
    code = matrix(out, "--env", "onnx-1.17", "--case", "constant/pad-pads-opset17", "--pass", "onnx:infer-shapes")
    cells, _ = read_report(out / "report.json")
    mine = [c for c in cells if c.case == schemas.CASE]
    assert {c.env for c in mine} == {"onnx-1.17"} and {c.versions["onnx"] for c in mine} == {"1.17.0"}
    unexpected = {(f.details["schema"], f.details["field"]) for c in mine for f in c.findings if not f.expected}
    assert {(POOL_22, "types:T"), ("ai.onnx::GlobalLpPool::2", "types:T")} <= unexpected
    assert code == 1
    assert "GlobalLpPool::22" in (out / "report.md").read_text(encoding="utf-8")
