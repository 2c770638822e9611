"""Withheld pairs (:mod:`passcheck.mutations.withheld`): a form ``anonymous-output-dims+R`` pairs the base and
its ``R`` spelling with both sides' output dims withheld, so the parity oracle compares what the pass infers on
each (docs/recall.md R5: onnx 1.16 infers every Einsum rank-only, which the declared output dims hid), and the
parity oracle does not blame a pass for a form whose graph inputs declare less (``symbolic-input-dims``).

The passes are real onnx shape inference, and for the Einsum gap (fixed in onnx 1.17, so absent from this
venv) onnx shape inference followed by what onnx 1.16 did to an Einsum output: its dims forgotten (rank kept).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import onnx
import pytest

from passcheck.hunt.probe import Setting, probe
from passcheck.hunt.space import Base
from passcheck.mutations import REWRITES, withheld
from passcheck.mutations import forms as hforms
from passcheck.passes.isolation import IsolatedExecutor
from tests._inproc import cli, planted

W = "anonymous-output-dims"
PLANTED = Path(__file__).with_name("planted_withheld.py")
P = planted(PLANTED)  # the planted pass and its base, registered on import
_matmul = P.matmul


@pytest.fixture(scope="module")
def ex():
    with IsolatedExecutor(preload=[str(PLANTED)]) as executor:
        yield executor


def _dims(model) -> list[list]:
    return [
        [d.dim_value if d.HasField("dim_value") else (d.dim_param or None) for d in o.type.tensor_type.shape.dim]
        for o in model.graph.output
    ]


def _findings(ex, common, form, mutant, pass_id):
    outcome = probe(Setting("withheld-test"), common, form, mutant, pass_id, ex)
    assert outcome.status == "done", outcome.reason
    return {(f.form, f.oracle, f.kind) for f in outcome.findings}


def test_a_withheld_form_withholds_both_sides_and_differs_by_the_other_rewrite_alone():
    m = _matmul()
    common, uncommon, labels = withheld.pair(m, f"{W}+einsum-spelling")
    assert _dims(common) == _dims(uncommon) == [[None, None]] and _dims(m) == [[2, 4]]
    assert [n.op_type for n in common.graph.node] == ["MatMul"] and [n.op_type for n in uncommon.graph.node] == [
        "Einsum"
    ]
    assert "y" in labels
    again = withheld.pair(common, f"{W}+einsum-spelling")  # a base already withheld: the same pair
    assert again[0] is common and _dims(again[1]) == [[None, None]]
    alone = withheld.pair(m, W)  # the rank-only spelling judged against the declared one
    assert alone[0] is m and _dims(alone[1]) == [[None, None]]
    plain = withheld.pair(m, "einsum-spelling")
    assert plain[0] is m and _dims(plain[1]) == [[2, 4]]


def test_a_base_offers_each_rewrite_withheld_when_its_outputs_declare_dims():
    from passcheck.cases import Case, Form

    base = Base(
        Case(
            id="withheld/matmul",
            forms={"common": Form(_matmul), "named": Form(lambda: _matmul("mm"), "named")},
            doc="withheld test",
            opset=13,
        ),
        "common",
    )
    got = base.forms(0)
    assert f"{W}+einsum-spelling" in got and f"{W}+{W}" not in got
    bare = [f for f in hforms.enumerate_forms(_matmul(), random.Random(0)) if "+" not in f and "@" not in f]
    # a rewrite that hides shapes on purpose gets no withheld pair (its side says less by construction)
    assert withheld.forms(bare) == [f"{W}+{r}" for r in bare if r != W and not REWRITES[r].hides_shapes]
    assert withheld.forms([r for r in bare if r != W]) == []  # nothing to withhold: no withheld form


def test_rank_only_inference_on_one_spelling_is_found_only_in_the_withheld_pair(ex):
    """The declared pair hides the gap (both outputs stay [2, 4], the parity oracle sees equal annotations); the
    withheld pair shows it as the pass's: less precise on the Einsum spelling, MatMul's [2, 4] holding at run time."""
    m = _matmul()
    declared = withheld.pair(m, "einsum-spelling")
    assert not _findings(ex, declared[0], "einsum-spelling", declared[1], P.PASS_ID)
    common, uncommon, _ = withheld.pair(m, f"{W}+einsum-spelling")
    found = _findings(ex, common, f"{W}+einsum-spelling", uncommon, P.PASS_ID)
    assert (f"{W}+einsum-spelling", "parity", "less-precise") in found, found


def test_real_shape_inference_is_not_blamed_for_inputs_the_form_names(ex):
    """``symbolic-input-dims`` names the input dims: onnx infers ``y`` as [a_d0, b_d1] there and [2, 4] on the
    common form; with the outputs withheld on both sides that is the form's declaration, not a pass gap."""
    m = _matmul()
    common, uncommon, _ = withheld.pair(m, f"{W}+symbolic-input-dims")
    inferred = onnx.shape_inference.infer_shapes(uncommon)
    assert _dims(inferred)[0] != [2, 4]  # the premise: the form's inputs say less
    found = _findings(ex, common, f"{W}+symbolic-input-dims", uncommon, "onnx:infer-shapes")
    assert not [f for f in found if f[2] == "less-precise"], found
    ok = withheld.pair(m, f"{W}+einsum-spelling")  # and real inference of both spellings in onnx 1.23: alike
    assert not _findings(ex, ok[0], f"{W}+einsum-spelling", ok[1], "onnx:infer-shapes")


def test_a_hunt_finds_the_rank_only_einsum_through_the_withheld_pair_and_shrinks_it(tmp_path):
    # pinned to the Einsum spellings, declared and withheld (the planted pass acts on Einsum alone): all 9 items of
    # that space, where the unpinned hunt met the withheld pair at item 87 of 200
    argv = ["hunt", "--cases-from", PLANTED, "--case", P.CASE_ID]  # in this process (tests/_inproc.py)
    argv += ["--pass", P.PASS_ID, "--rewrite", "einsum-*", "--no-variation", "--no-coverage", "--budget", "200items"]
    argv += ["--out", tmp_path]
    r = cli(*argv, "--progress", "none")
    assert r.returncode == 1, r.stdout + r.stderr
    state = json.loads((tmp_path / "hunt-state.json").read_text())
    found = {(s["signature"]["kind"], s["signature"]["rewrite"]): s for s in state["signatures"].values()}
    rec = found.get(("less-precise", f"{W}+einsum-spelling"))
    assert rec is not None and rec["reproduces"], sorted(found)
    assert all(rw.startswith(f"{W}+einsum-") for _, rw in found), sorted(found)  # declared pairs hide it
    tried = {r["form"] for r in state["items"]}
    assert {"einsum-spelling", "einsum-implicit"} <= tried, sorted(tried)  # they were tried
