"""Run-condition variants: the hunt also runs a base under other bindings of its dim_params and on other
float feeds (:mod:`passcheck.hunt.vary_bindings`), each judged against the base under its own conditions.

A planted inference that writes the broadcast of ``N`` with ``M`` as ``N`` (``planted:first-dim``,
``tests/hunt/planted_bindings.py``) is right under every binding a case gives by default (every symbol 2,
then 3) and on every spelling of its base, so only a binding variant (``N`` bound to 1) finds it; a binding
under which the base itself cannot run (``N`` bound to 0 against ``M`` = 2) is skipped, never blamed.
"""

from __future__ import annotations

import json
import random
import shlex
import subprocess
from pathlib import Path

import numpy as np
import pytest
from onnx import TensorProto, helper

from passcheck.hunt import variation, vary_bindings, vary_probe
from passcheck.hunt.probe import Setting
from tests._inproc import cli, planted

PLANTED = Path(__file__).with_name("planted_bindings.py")
planted_bindings = planted(PLANTED)  # the planted pass and base case, registered on import


def _hunt(out: Path, *args: str) -> subprocess.CompletedProcess:
    """``passcheck hunt`` in this process (tests/_inproc.py); the saved case's reproduce command runs as printed."""
    argv = ["hunt", "--cases-from", PLANTED, "--case", "varbind-test/*"]
    # the variation hunt pins the binding kinds (--vary-kind bind-*): its 10 items are every binding neighbour of
    # both bases. Seed 2: since session 29's op-visit rule (M89) seed 1's 40 rewrite items reach the planted pass's
    # other defect (a rank-3 broadcast, below) through neutral-op's outrank Add; seeds 2, 4, 6 do not (checked 1-6).
    # Seed 3 since session 44 (cast-across-movement, transpose-conjugate-perm): seed 2's rewrite items then reached
    # it; seeds 1 and 3-8 do not, and each finds vary:bind-one in the 64 binding items (checked 1-8)
    argv += ["--pass", planted_bindings.PASS_ID, "--seed", "3", "--no-coverage", "--out", out]
    return cli(*argv, "--progress", "none", *args)


def _state(out: Path) -> dict:
    return json.loads((out / "hunt-state.json").read_text())


def test_a_first_operand_broadcast_dim_is_found_only_through_a_binding_variant_and_its_saved_case_reproduces(
    tmp_path,
):
    r = _hunt(tmp_path / "off", "--budget", "40items", "--no-variation")
    assert r.returncode in (0, 1), r.stderr
    off = _state(tmp_path / "off")
    assert not [s for s in off["signatures"].values() if s["signature"]["kind"] == "annotation-violated"], off
    assert not [i for i in off["items"] if i["form"].startswith("vary:")]

    # the binding kinds only: an input neighbour (vary_inputs: b given a leading 1) shows the same planted
    # pass wrong by another route (it writes the first operand's rank-2 type for a rank-3 broadcast)
    r = _hunt(tmp_path / "on", "--budget", "64items", "--vary-kind", "bind-*")
    assert r.returncode == 1, r.stderr
    state = _state(tmp_path / "on")
    hit = [s for s in state["signatures"].values() if s["signature"]["kind"] == "annotation-violated"]
    assert len(hit) == 1, state["signatures"]
    sig = hit[0]
    # the first operand's symbol bound to 1: N on add:common, M on add:swapped (whichever the schedule reached first)
    assert sig["signature"]["rewrite"] == "vary:bind-one", sig
    one = {"varbind-test/add:common": "N", "varbind-test/add:swapped": "M"}[sig["found_on"]["base"]]
    assert sig["variation"] == f"vary:bind-one@{one}", sig
    assert sig["reproduces"] is True and sig["nodes"] == [1, 1]  # the Relu cut away
    zero = [i for i in state["items"] if i["form"].startswith("vary:bind-zero@")]
    assert zero and all(i["status"] == vary_probe.INVALID and not i["signatures"] for i in zero), zero
    # the saved module carries the variant's binding; its reproduce command, run as printed, shows it
    text = Path(sig["case_module"]).read_text()
    bound = "({'N': 1, 'M': 2}, {'N': 1, 'M': 3})" if one == "N" else "({'M': 1, 'N': 2}, {'M': 1, 'N': 3})"
    assert f"bindings={bound}" in text, text
    argv = shlex.split(sig["repro"])  # run as printed, in this process (tests/_inproc.py), after the hunt
    assert argv[:2] == ["passcheck", "run"], argv
    rep = cli(*argv[1:])
    assert rep.returncode == 1 and "annotation-violated" in rep.stdout, rep.stdout + rep.stderr

    # resumed: the variation items are read back (none tried again: the pinned kinds' 10 items were all tried)
    # and the signature keeps its key
    r = _hunt(tmp_path / "on", "--budget", "10items", "--resume", "--vary-kind", "bind-*")
    assert r.returncode == 1, r.stderr
    again = _state(tmp_path / "on")
    keys = [(i["base"], i["form"], i["pass"]) for i in again["items"]]
    assert len(keys) == len(set(keys)) and len(keys) >= len(state["items"])
    assert set(state["signatures"]) <= set(again["signatures"])


def test_a_zero_binding_the_base_cannot_run_is_skipped_not_blamed():
    from passcheck.passes.isolation import executor_for

    base = planted_bindings._add(False)()
    forms = variation.neighbours(base, random.Random(0))
    assert {"vary:bind-one@N", "vary:bind-zero@N", "vary:bind-distinct@graph"} <= set(forms), forms
    setting = Setting("varbind-test/add")
    with executor_for(None, timeout=60) as ex:
        zero = vary_probe.judge(setting, base, "vary:bind-zero@N", planted_bindings.PASS_ID, ex)
        assert zero.status == vary_probe.INVALID and not zero.findings, zero
        assert zero.reason.startswith("the model does not run under ort:disabled"), zero.reason
        one = vary_probe.judge(setting, base, "vary:bind-one@N", planted_bindings.PASS_ID, ex)
        assert one.status == "done" and [(f.oracle, f.kind) for f in one.findings] == [
            ("annotations", "annotation-violated")
        ], one
        other = vary_probe.judge(setting, base, "vary:bind-one@M", planted_bindings.PASS_ID, ex)
        assert other.status == "done" and not other.findings, other  # N broadcast with M = 1 is N


def test_binding_kinds_bind_what_they_name_and_keep_the_rest():
    base = planted_bindings._add(False)()
    case = ({}, {})
    assert vary_bindings.bindings_for(base, "bind-one", "N", case) == [{"N": 1, "M": 2}, {"N": 1, "M": 3}]
    assert vary_bindings.bindings_for(base, "bind-zero", "M", case) == [{"N": 2, "M": 0}, {"N": 3, "M": 0}]
    distinct = vary_bindings.bindings_for(base, "bind-distinct", "graph", case)
    assert all(len(set(b.values())) == len(b) for b in distinct) and distinct[0] != distinct[1], distinct
    # bind-equal only where the case binds two names differently
    assert "vary:bind-equal@graph" not in variation.neighbours(base, random.Random(0))
    apart = ({"N": 2, "M": 1}, {"N": 3, "M": 1})
    assert "vary:bind-equal@graph" in variation.neighbours(base, random.Random(0), apart)
    assert vary_bindings.bindings_for(base, "bind-equal", "graph", apart) == [{"N": 2, "M": 2}, {"N": 3, "M": 3}]
    # a site the model does not have builds nothing
    assert variation.build(base, "vary:bind-one@K") is None
    assert variation.build(base, "vary:bind-one@N")[1] == []


def test_feed_kinds_at_the_ends_of_an_element_types_range():
    """``feed-tiny`` / ``feed-wide`` scale by a power of two (exact: same significands, signs and order) into the
    element type's own extremes: float16's largest magnitude at 2^-8 (a 1/255 step of its range is subnormal)
    and within (65504/2, 65504] (every value finite, the range of a mixed-sign feed not); likewise float32
    and bfloat16 by their own limits (planted break: ``_finfo`` returning float32's for every type fails this)."""
    import ml_dtypes

    x = np.array([[-1.3, 0.2, 0.74, 2.0]], np.float16)
    tiny = vary_bindings.transform("feed-tiny", {"x": x})["x"]
    wide = vary_bindings.transform("feed-wide", {"x": x})["x"]
    assert tiny.dtype == np.float16 and float(np.abs(tiny).max()) == 2.0**-8
    assert 65504 / 2 < float(np.abs(wide).max()) <= 65504 and np.isfinite(wide).all()
    sym = vary_bindings.transform("feed-wide", {"x": np.array([-2.0, 0.5, 2.0], np.float16)})["x"]
    assert np.isinf(sym.max() - sym.min())  # the range of a feed with extremes of both signs overflows its type
    for scaled in (tiny, wide):  # one power of two for the whole feed
        ratio = scaled.astype(np.float64) / x.astype(np.float64)
        assert np.all(ratio == ratio.flat[0]) and np.log2(ratio.flat[0]).is_integer()
    x32 = x.astype(np.float32)
    assert float(np.abs(vary_bindings.transform("feed-tiny", {"x": x32})["x"]).max()) == 2.0**-120
    b16 = x.astype(ml_dtypes.bfloat16)
    assert float(np.abs(vary_bindings._changed("feed-wide", b16)).max()) > 1e37  # ml_dtypes' limits
    assert not vary_bindings.transform("feed-wide", {"x": np.zeros(3, np.float16)})["x"].any()


def test_feed_kinds_change_float_feeds_only():
    x = np.array([[-1.3, 0.2, 0.74, 2.0]], np.float32)
    idx = np.array([0, 3], np.int64)
    feeds = {"x": x, "i": idx, "s": [x, x]}
    neg = vary_bindings.transform("feed-negative", feeds)
    assert (neg["x"] < 0).all() and (neg["s"][1] < 0).all() and neg["i"] is idx
    assert not vary_bindings.transform("feed-zero", feeds)["x"].any()
    assert np.array_equal(vary_bindings.transform("feed-large", feeds)["x"], x * np.float32(1e3))
    ties = vary_bindings.transform("feed-ties", feeds)["x"]
    assert ties.dtype == np.float32 and (ties < 0).any() and (ties > 0).any()
    assert np.array_equal(ties * 2, np.round(ties * 2))  # on the ½ grid: equal values tie exactly
    for k in vary_bindings.FEED_KINDS:  # a rank-0 feed keeps its rank (a scalar input's annotation holds)
        assert vary_bindings.transform(k, {"s": np.array(1.5, np.float32)})["s"].shape == ()
    # an integer-only model has no feed variants
    g = helper.make_graph(
        [helper.make_node("Neg", ["i"], ["o"])],
        "g",
        [helper.make_tensor_value_info("i", TensorProto.INT64, ["N"])],
        [helper.make_tensor_value_info("o", TensorProto.INT64, ["N"])],
    )
    ints = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    assert not [f for f in variation.neighbours(ints, random.Random(0)) if f.startswith("vary:feed-")]


@pytest.mark.parametrize("form", ["vary:feed-ties@graph", "vary:bind-one@N"])
def test_a_saved_variant_case_runs_on_the_variant_s_feeds(tmp_path, form):
    """The case module a variant's finding is saved as (bindings, feed function) gives the feeds the hunt
    judged the variant on: the id round-trips through save and reload."""
    from passcheck._versions import tool_version
    from passcheck.cases import registry
    from passcheck.cases._registry import load_file
    from passcheck.engine import Subject, feeds_for
    from passcheck.records import Finding
    from passcheck.reduce.case_module import case_module

    base = planted_bindings._add(False)()
    case_id = f"hunt/varbind-{form.split(':')[1].split('@')[0]}"
    setting = Setting(case_id)
    mine = vary_probe.setting_for(setting, form, base)
    finding = Finding("annotation-violated", "annotations", case_id, "common", planted_bindings.PASS_ID, "m")
    path = tmp_path / f"{case_id.split('/')[1].replace('-', '_')}.py"  # a module name of its own
    path.write_text(case_module(finding, None, base, case_id=case_id, **vary_bindings.saved(setting, base, form)))
    load_file(path, prefix="passcheck_varbind_test")
    case = registry().get(case_id)
    subject = Subject.from_case(case, tool_version("onnx"))
    got = feeds_for(base, subject.id, subject.bindings, feed_fn=subject.feeds)
    want = mine.feed_list(base)
    assert len(got) == len(want) == 2
    for g, w in zip(got, want, strict=True):
        assert g.keys() == w.keys() and all(np.array_equal(g[k], w[k]) for k in g), (g, w)
    own = feeds_for(base, case_id, ({}, {}))  # the base's conditions
    assert any(not np.array_equal(g[k], o[k]) for g, o in zip(got, own, strict=True) for k in g)
