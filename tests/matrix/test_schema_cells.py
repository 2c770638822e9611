"""The released-schema oracle in the matrix (:mod:`passcheck.matrix.schemas`): one cell per environment whose onnx
is older than the newest in the run, a finding per field its released schemas report differently, the tables
cached per onnx version; and on the real onnx 1.17 environment the GlobalLpPool constraints that release swapped
(onnx/onnx#6503) in the report of a matrix run that selects them (no ``--case``, or one matching
``schemas/released``), none in a run restricted to other cases."""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path

import onnx
import pytest

from passcheck._procs import Children
from passcheck.matrix import plan, schemas
from passcheck.matrix.create import Env
from passcheck.matrix.envs import EnvSpec
from passcheck.oracles.schema_history import table
from passcheck.records import NOT_RUN

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


def _interpreter(root: Path, script: str) -> Env:
    """An environment at ``root`` whose ``bin/python`` is the shell ``script``."""
    exe = root / "bin" / "python"
    exe.parent.mkdir(parents=True)
    exe.write_text("#!/bin/sh\n" + script + "\n", encoding="utf-8")
    exe.chmod(0o755)
    return Env(EnvSpec(root.name, ("onnx==0.0.1",), root / f"{root.name}.txt"), root, created=False, seconds=0.0)


def _cache(tmp_path: Path) -> Path:
    """A cache holding the planted table of onnx 0.0.1 (GlobalLpPool-22 without bfloat16)."""
    old, _ = _planted()
    path = tmp_path / "cache" / "schemas" / "onnx-0.0.1.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(old), encoding="utf-8")
    return tmp_path / "cache"


def test_a_cached_table_is_read_once_the_environment_says_which_onnx_it_imports(tmp_path):
    cache = _cache(tmp_path)
    env = _interpreter(tmp_path / "onnx-planted", "printf 0.0.1")  # answers `import onnx` with its version
    version, got = schemas.env_table(env, cache, Children(), tmp_path)
    assert version == "0.0.1" and "tensor(bfloat16)" not in got[POOL_22]["types:T"]
    got = _by_form(schemas.run([env.spec], {env.spec.id: env}, cache, Children(), tmp_path))
    assert got[("onnx-planted", schemas.FORM)].verdict == "ok"
    assert got[("onnx-planted", "ai.onnx.GlobalLpPool-22")].verdict == "findings"


def test_a_cached_table_does_not_answer_for_an_environment_whose_onnx_no_longer_imports(tmp_path):
    """A verdict is a promise: the cache holds onnx 0.0.1's table, but the environment pinning it cannot import
    onnx (a planted broken onnx first on its path; a missing interpreter; an environment never created), so its
    schema cell is ``unchecked`` with why, not ``ok``."""
    cache = _cache(tmp_path)
    broken = tmp_path / "broken" / "onnx"
    broken.mkdir(parents=True)
    (broken / "__init__.py").write_text('raise ImportError("planted: this onnx is broken")\n', encoding="utf-8")
    env = _interpreter(tmp_path / "onnx-broken", f'PYTHONPATH="{broken.parent}" exec "{sys.executable}" "$@"')
    why = schemas.env_table(env, cache, Children(), tmp_path)
    assert isinstance(why, str) and "planted: this onnx is broken" in why and "onnx-broken" in why
    gone = Env(EnvSpec("onnx-gone", ("onnx==0.0.1",), tmp_path / "g.txt"), tmp_path / "none", False, 0.0)
    never = EnvSpec("onnx-never", ("onnx==0.0.1",), tmp_path / "n.txt")  # not in `ready`, nothing in the cache
    got = _by_form(
        schemas.run([env.spec, gone.spec, never], {"onnx-broken": env, "onnx-gone": gone}, cache, Children(), tmp_path)
    )
    assert set(got) == {(e, schemas.FORM) for e in ("onnx-broken", "onnx-gone", "onnx-never")}
    for (env_id, _form), cell in got.items():
        assert cell.verdict == "unchecked" and not cell.findings and cell.versions["onnx"] == "0.0.1", cell
        assert env_id in cell.error and cell.unchecked == {NOT_RUN: cell.error}, cell
    assert "planted: this onnx is broken" in got[("onnx-broken", schemas.FORM)].error
    assert "does not start" in got[("onnx-gone", schemas.FORM)].error
    assert "was not created" in got[("onnx-never", schemas.FORM)].error


def test_an_environment_not_asked_is_not_judged_when_it_pins_the_newest_onnx():
    (cell,) = schemas.cells({}, ("1.0.0", table()), {"new": ("1.0.0", "not asked"), "old": ("0.9.0", "not asked")})
    assert cell.env == "old" and cell.verdict == "unchecked"
    assert [c.env for c in schemas.cells({}, None, {"any": (None, "not asked")})] == ["any"]


@pytest.mark.matrix
def test_a_matrix_in_onnx_117_reports_the_swapped_global_lp_pool_constraints(tmp_path):
    from passcheck.report import read_report
    from tests.matrix.test_real_matrix import matrix

    out = tmp_path / "out"
    args = ("--env", "onnx-1.17", "--case", "constant/pad-pads-opset17", "--pass", "onnx:infer-shapes")
    code = matrix(out, *args, "--case", "schemas/*")
    cells, _ = read_report(out / "report.json")
    mine = [c for c in cells if c.case == schemas.CASE]
    assert {c.env for c in mine} == {"onnx-1.17"} and {c.versions["onnx"] for c in mine} == {"1.17.0"}
    unexpected = {(f.details["schema"], f.details["field"]) for c in mine for f in c.findings if not f.expected}
    assert {(POOL_22, "types:T"), ("ai.onnx::GlobalLpPool::2", "types:T")} <= unexpected
    assert code == 1
    assert "GlobalLpPool::22" in (out / "report.md").read_text(encoding="utf-8")
    # the same run restricted to its case alone judges no released schema: the drift is not among its findings
    alone = tmp_path / "alone"
    matrix(alone, *args)  # the form's own findings on onnx 1.17 decide its exit code
    cells, _ = read_report(alone / "report.json")
    assert {c.case for c in cells} == {"constant/pad-pads-opset17"}, {c.case for c in cells}


def test_a_case_selection_asks_for_the_released_schema_cells_only_by_a_pattern_that_matches_them(tmp_path):
    assert plan.wants_schemas([]) and plan.wants_schemas(["*"]) and plan.wants_schemas(["schemas/*:every-domain"])
    assert not plan.wants_schemas(["constant/*", "shape/*:common"])
    # a pattern that names only the released-schema cells builds no model; beside a case, that case's
    plan.build_models(["schemas/*"], ["onnx:infer-shapes"], tmp_path / "none")
    assert json.loads((tmp_path / "none" / "manifest.json").read_text())["cases"] == []
    plan.build_models(["schemas/released", "constant/pad-pads-opset17"], ["onnx:infer-shapes"], tmp_path / "one")
    built = json.loads((tmp_path / "one" / "manifest.json").read_text())["cases"]
    assert [c["id"] for c in built] == ["constant/pad-pads-opset17"]
