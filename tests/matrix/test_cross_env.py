"""The cross-environment precision oracle (M52, passcheck.matrix.cross_env) and the inferred types it reads
(passcheck.oracles.inferred): a cell whose tool states less of the same model bytes than the same cell in another
environment, where the other's statement holds at run time, is ``less-precise``; two concrete dims that differ blame
the one the run contradicts; nothing without the run's confirmation. The matrix-marked test runs onnx 1.16.2 and
1.23.2 (OneHot's ``depth`` read from 1.17.0, onnx/onnx#5963)."""

from __future__ import annotations

from pathlib import Path

import pytest

from passcheck.matrix import cross_env
from passcheck.records import CellResult

REPO = Path(__file__).resolve().parents[2]
CASES = Path(__file__).with_name("xenv_onehot.py")


def _cell(env: str, dims, holds: bool = True, elem_type: int = 1, sha: str = "s") -> CellResult:
    """A cell of onnx:infer-shapes whose graph output ``y`` was inferred with ``dims`` (None: rank unknown; an int a
    dim_value, a str a dim_param, None inside an unknown dim)."""
    rec = {
        "type": "rank unknown" if dims is None else repr(dims),
        "elem_type": elem_type,
        "precision": [0, 0, 0]
        if dims is None
        else [1, sum(isinstance(d, int) for d in dims), sum(isinstance(d, str) for d in dims)],
        "dims": None if dims is None else [d if isinstance(d, int) else None for d in dims],
        "holds": holds,
    }
    return CellResult("c/x", "common", "onnx:infer-shapes", "unchanged", env=env, model_sha256=sha, inferred={"y": rec})


def _kinds(cell: CellResult) -> list[tuple[str, str]]:
    return [(f.kind, f.details["witness_env"]) for f in cell.findings if f.oracle == cross_env.NAME]


def test_less_precise_env_gets_the_finding_naming_the_witness():
    old, new = _cell("onnx-1.16", [2, 3, None]), _cell("onnx-1.23", [2, 3, 5])
    cross_env.judge([old, new])
    assert _kinds(old) == [("less-precise", "onnx-1.23")]
    assert _kinds(new) == []
    assert old.verdict == "findings" and new.verdict == "ok"
    assert "--env onnx-1.16 --env onnx-1.23" in old.findings[0].repro


def test_three_envs_one_finding_per_output_naming_every_witness():
    old, mid, new = _cell("onnx-1.16", None), _cell("onnx-1.18", [2, 3, 5]), _cell("onnx-1.23", [2, 3, 5])
    cross_env.judge([old, mid, new])
    assert [f.details["witness_envs"] for f in old.findings] == [["onnx-1.18", "onnx-1.23"]]
    assert not mid.findings and not new.findings


@pytest.mark.parametrize(
    ("weak", "strong"),
    [(None, [2, 3, 5]), ([2, 3, "d"], [2, 3, 5]), ([None, None], ["a", "b"])],
    ids=["rank", "dim-value-over-param", "named-over-unknown"],
)
def test_each_precision_step_counts(weak, strong):
    a, b = _cell("e1", weak), _cell("e2", strong)
    cross_env.judge([a, b])
    assert _kinds(a) == [("less-precise", "e2")] and _kinds(b) == []


def test_elem_type_stated_in_one_env_only():
    a, b = _cell("e1", [2], elem_type=0), _cell("e2", [2], elem_type=1)
    cross_env.judge([a, b])
    assert [f.details["compared"] for f in a.findings] == ["elem_type"] and not b.findings


def test_no_blame_without_the_runs_confirmation():
    """The more precise statement was not checked in every run (or was violated): nobody is blamed."""
    old, new = _cell("onnx-1.16", [2, 3, None]), _cell("onnx-1.23", [2, 3, 5], holds=False)
    cross_env.judge([old, new])
    assert old.findings == [] and new.findings == []


def test_contradiction_blames_the_env_the_run_contradicts():
    wrong, right = _cell("e1", [2, 3, 4], holds=False), _cell("e2", [2, 3, 5])
    cross_env.judge([wrong, right])
    assert _kinds(wrong) == [("annotation-violated", "e2")] and _kinds(right) == []
    both = [_cell("e1", [2, 3, 4], holds=False), _cell("e2", [2, 3, 5], holds=False)]
    cross_env.judge(both)
    assert all(not c.findings for c in both)


def _runtime_blamed(cell: CellResult) -> CellResult:
    """``cell`` with the annotations oracle's finding on ``y``: violated at run time, held by onnx's reference
    evaluator (``blame = runtime``, as :func:`passcheck.oracles.annotations.check` writes it)."""
    from passcheck.oracles.annotations import NAME, RUNTIME_DEVIATES
    from passcheck.records import Finding

    msg = "annotation does not hold (binding 0): y: axis 3 annotated 16, run produced 15" + RUNTIME_DEVIATES
    cell.findings.append(
        Finding(
            "annotation-violated",
            NAME,
            cell.case,
            cell.form,
            cell.pass_id,
            msg,
            {"value": "y", "blame": "runtime"},
            env=cell.env,
        )
    )
    return cell


def test_a_contradiction_the_reference_evaluator_settles_blames_the_env_agreeing_with_the_deviating_run():
    """Round 14b: onnx 1.23 annotates Resize's 16 (the spec's round_int of 15.5, the reference evaluator's), onnx
    1.21 annotates 15, onnxruntime runs 15: the witness is not the run but the spec, so onnx-1.21 is blamed."""
    spec, old = _runtime_blamed(_cell("onnx-1.23", [2, 2, 31, 16], holds=False)), _cell("onnx-1.21", [2, 2, 31, 15])
    cross_env.judge([spec, old])
    assert _kinds(spec) == [] and _kinds(old) == [("annotation-violated", "onnx-1.23")]
    (f,) = [f for f in old.findings if f.oracle == cross_env.NAME]
    assert f.details["reference"] is True and "reference evaluator" in f.message
    # without the reference evaluator's word the run decides, as before
    plain, other = _cell("onnx-1.23", [2, 2, 31, 16], holds=False), _cell("onnx-1.21", [2, 2, 31, 15])
    cross_env.judge([plain, other])
    assert _kinds(plain) == [("annotation-violated", "onnx-1.21")] and _kinds(other) == []


def test_different_bytes_or_one_env_are_not_compared_and_judging_again_is_idempotent():
    a, b = _cell("e1", None, sha="x"), _cell("e2", [1], sha="y")
    cross_env.judge([a, b])
    assert not a.findings
    c, d = _cell("e1", None), _cell("e2", [1])
    cross_env.judge([c, d])
    cross_env.judge([c, d])
    assert len(c.findings) == 1


def test_inferred_travels_in_json_and_is_left_out_when_empty():
    cell = _cell("e1", [2, 3, 5])
    assert CellResult.from_json(cell.to_json()).inferred == cell.inferred
    assert "inferred" not in CellResult("c/x", "common", "p", "ok").to_json()


def _load_cases() -> str:
    from passcheck.cases import load_path

    load_path(str(CASES))
    return "xenv/onehot-depth"


def test_record_holds_only_when_the_run_confirms_the_inferred_type():
    """Real onnx shape inference and onnxruntime runs: the inferred [2, 3, 5] holds; a planted pass stating the
    depth dim 4 does not; a pass that rewrites the graph, or a run outside a named environment, records nothing."""
    from passcheck.passes import FunctionAdapter
    from passcheck.testing import run_pass

    case = _load_cases()
    good = run_pass("onnx:infer-shapes", case, isolation=False, env="here")
    assert {c.form: c.inferred["y"]["dims"] for c in good} == {"common": [2, 3, 5], "named-depth": [2, 3, 5]}
    assert all(c.inferred["y"]["holds"] for c in good)

    def depth_four(model):
        for o in model.graph.output:
            o.type.tensor_type.shape.Clear()
            for v in (2, 3, 4):
                o.type.tensor_type.shape.dim.add().dim_value = v
        return model

    planted = FunctionAdapter("planted:depth-four", depth_four, optimizes=False)  # states types, rewrites nothing
    bad = run_pass(planted, case, isolation=False, env="here")
    assert [(c.inferred["y"]["dims"], c.inferred["y"]["holds"]) for c in bad] == [([2, 3, 4], False)] * 2
    assert (
        run_pass(FunctionAdapter("planted:rewrites", depth_four), case, isolation=False, env="here")[0].inferred == {}
    )
    assert run_pass("onnx:infer-shapes", case, isolation=False)[0].inferred == {}  # env "local": nothing to compare


@pytest.mark.matrix
def test_matrix_blames_onnx_116_for_onehot_depth_left_unknown(tmp_path):
    """onnx 1.16.2 infers ``[2, 3, unk__0]`` (or keeps ``"depth"``), onnx 1.23.2 ``[2, 3, 5]``, which holds: the
    finding is on onnx-1.16 only, naming onnx-1.23."""
    from passcheck.cli import main
    from passcheck.report.json_report import read_report

    out = tmp_path / "m"
    paths = {"--cases-from": CASES, "--out": out, "--source": REPO, "--envs-dir": REPO / "ci" / "envs"}
    selection = "matrix --env onnx-1.16 --env onnx-1.23 --case xenv/* --pass onnx:infer-shapes --progress none -q"
    code = main([*selection.split(), "--exit-zero", *(x for k, v in paths.items() for x in (k, str(v)))])
    assert code == 0
    cells, _ = read_report(out / "report.json")
    got = {(c.env, c.form): _kinds(c) for c in cells if c.pass_id == "onnx:infer-shapes"}
    assert got == {
        ("onnx-1.16", "common"): [("less-precise", "onnx-1.23")],
        ("onnx-1.16", "named-depth"): [("less-precise", "onnx-1.23")],
        ("onnx-1.23", "common"): [],
        ("onnx-1.23", "named-depth"): [],
    }
