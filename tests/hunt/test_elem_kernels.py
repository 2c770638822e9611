"""Elem neighbours come from the schemas and onnxruntime's own CPU kernel registry
(:mod:`passcheck.runtime.kernels`, :mod:`passcheck.hunt.elem_groups`): none is drawn that a real onnxruntime
session refuses for a missing kernel, an integer neighbour of an Add/Mul base is valid and judged exactly,
and one type-constraint group moves at a time (the data, not the indices)."""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

from passcheck.hunt import variation, vary_probe
from passcheck.hunt.probe import Setting
from tests._inproc import cli, planted

PLANTED_FILE = Path(__file__).with_name("planted_elem.py")
planted_elem = planted(PLANTED_FILE)  # the planted pass and its bases, registered on import


def _session_error(model: onnx.ModelProto) -> str | None:
    opts = ort.SessionOptions()
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    try:
        ort.InferenceSession(model.SerializeToString(), opts, providers=["CPUExecutionProvider"])
    except Exception as exc:  # noqa: BLE001 - the refusal is what the test reads
        return str(exc)
    return None


def test_no_drawn_elem_neighbour_lacks_a_cpu_kernel():
    """60 elem neighbours the hunt can draw, one each of the first 60 bases that offer one in a seeded order of the
    whole library (3,264 bases, gated families included; each base's neighbour drawn by a generator seeded with its
    id): none is refused by a real session for a missing kernel. Listing every base's elem neighbours (10,898) to
    sample 60 of them was 12.9 s of CPU; drawing bases first lists 79 (2.3 s), and any base may still be met."""
    from passcheck.hunt.space import bases

    library = sorted(bases(["*"], generated=False), key=lambda b: b.id)  # the seeded order reads ids, not load order
    drawn = {}
    for base in random.Random(1).sample(library, len(library)):
        try:
            model = base.model()
        except Exception:  # noqa: BLE001 - a base that does not build is not this test's
            continue
        # the elem family alone: the forms the full listing draws (test_the_elem_listing_is_the_full_listings_elem)
        if forms := variation.neighbours(model, random.Random(0), family="elem"):
            form = random.Random(f"1:{base.id}").choice(forms)
            drawn[f"{base.id} {form}"] = (model, form)
            if len(drawn) == 60:
                break
    sample = sorted(drawn)
    built = {k: b[0] for k in sample if (b := variation.build(*drawn[k])) is not None}  # None: the hunt skips it
    assert len(built) >= 55, sorted(set(sample) - set(built))
    assert len({k.rsplit("elem-", 1)[1].split("@")[0] for k in built}) >= 4, sample  # several target types
    refused = {k: why for k, m in built.items() if (why := _session_error(m)) is not None}
    # a missing kernel is onnxruntime's "Could not find an implementation for Op(version) node"; a refusal of
    # another kind is an upstream defect a valid neighbour shows, which the hunt's gate drops ("onnxruntime rejects
    # common"): docs/found.md row 71, CenterCropPad-18's expanded body with an int32 shape (Tind allows it)
    missing = {k: why for k, why in refused.items() if "Could not find an implementation" in why}
    assert not missing, missing
    assert len(built) - len(refused) >= 50, refused


def test_the_elem_listing_is_the_full_listings_elem_forms():
    """``neighbours(family="elem")`` lists only the elem candidates; its forms are those the full listing draws, in
    order, split kinds included (the QDQ base's shared scales), and another family filters the full listing."""
    from passcheck.hunt.space import bases

    keep = ("pattern-ort-qdq/conv:opset-19", "optional-input/clip-min-only:common")
    models = [planted_elem.add_mul()()] + [
        b.model()
        for b in bases(["pattern-ort-qdq/conv", "optional-input/clip-min-only"], generated=False)
        if b.id in keep
    ]
    assert len(models) == 3
    split = 0
    for model in models:
        full = variation.neighbours(model, random.Random(0))
        for fam in ("elem", "value"):
            assert variation.neighbours(model, random.Random(0), family=fam) == [
                f for f in full if variation.family(f) == fam
            ]
        split += sum("elem-split-" in f for f in full)
    assert split and any(variation.family(f) == "value" for f in full)  # both paths met a form to compare
    with pytest.raises(ValueError, match="no variation family 'elements'"):
        variation.neighbours(models[0], random.Random(0), family="elements")


def test_an_int32_neighbour_of_add_mul_is_valid_and_judged_exactly():
    from passcheck.passes.isolation import executor_for

    base = planted_elem.add_mul()()
    assert "vary:elem-int32@graph" in variation.neighbours(base, random.Random(0))
    neighbour = variation.build(base, "vary:elem-int32@graph")[0]
    onnx.checker.check_model(neighbour, full_check=True)
    assert numpy_helper.to_array(neighbour.graph.initializer[0]).tolist() == 2
    x = np.arange(-3, 5, dtype=np.int32).reshape(2, 4)
    sess = ort.InferenceSession(neighbour.SerializeToString(), providers=["CPUExecutionProvider"])
    np.testing.assert_array_equal(sess.run(None, {"x": x})[0], (x + 2) * x)
    # a case tolerance wide enough to pass any float difference here: integers are still compared exactly
    setting = Setting("vary-test/add-mul", rtol=1.0, atol=100.0)
    with executor_for(None, isolation=False) as ex:
        ok = vary_probe.judge(setting, base, "vary:elem-int32@graph", "ort:all", ex)
        assert ok.status == "done" and not ok.findings, ok
        off = vary_probe.judge(setting, base, "vary:elem-int32@graph", planted_elem.PASS_ID, ex)
    assert off.status == "done", off
    assert [(f.oracle, f.kind) for f in off.findings] == [("numeric", "wrong-result")], off.findings


def test_one_type_constraint_group_moves_at_a_time():
    # Gather's data (T) and indices (Tind) are separate groups: int32 indices keep the float data
    nodes = [helper.make_node("Gather", ["x", "i"], ["g"], axis=0), helper.make_node("Relu", ["g"], ["y"])]
    graph = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 4])],
        [numpy_helper.from_array(np.array([0, 2], np.int64), "i")],
    )
    base = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    forms = variation.neighbours(base, random.Random(0))
    assert "vary:elem-int32@i" in forms and "vary:elem-double@graph" in forms, forms
    moved = variation.build(base, "vary:elem-int32@i")[0]
    assert {t.name: t.data_type for t in moved.graph.initializer} == {"i": TensorProto.INT32}
    assert moved.graph.output[0].type.tensor_type.elem_type == TensorProto.FLOAT
    assert numpy_helper.to_array(moved.graph.initializer[0]).tolist() == [0, 2]  # indices keep their values
    assert _session_error(moved) is None


@pytest.mark.parametrize(
    ("op", "since", "types", "expected"),
    [
        ("Add", 14, {"T": "tensor(int8)"}, True),
        ("Add", 14, {"T": "tensor(bfloat16)"}, False),
        ("Constant", 13, {}, True),  # loaded as an initializer
        ("NoSuchOp", 1, {}, False),
    ],
)
def test_kernel_answers_match_a_real_session(op, since, types, expected):
    from passcheck.runtime.kernels import has_cpu_kernel

    assert has_cpu_kernel("", op, since, types) is expected
    if op == "Add":
        t = TensorProto.INT8 if "int8" in types["T"] else TensorProto.BFLOAT16
        vi = [helper.make_tensor_value_info(n, t, [2]) for n in "abc"]
        m = helper.make_model(
            helper.make_graph([helper.make_node("Add", ["a", "b"], ["c"])], "g", vi[:2], vi[2:]),
            opset_imports=[helper.make_opsetid("", 14)],
        )
        assert (_session_error(m) is None) is expected


def test_an_int32_finding_round_trips_through_hunt_shrink_save_and_resume(tmp_path):
    def hunt(*args: str) -> subprocess.CompletedProcess:  # in this process (tests/_inproc.py)
        argv = ["hunt", "--cases-from", PLANTED_FILE, "--case", "vary-int/*"]
        argv += ["--pass", planted_elem.PASS_ID, "--seed", "1", "--no-coverage", "--out", tmp_path / "h"]
        return cli(*argv, "--progress", "none", *args)

    # the element-type kinds alone (--vary-kind): elem-int32 is the 7th item at seed 1 (among every kind it was the
    # 88th, and moved whenever a kind or step joined the schedule)
    r = hunt("--vary-kind", "elem-*", "--budget", "12items")
    assert r.returncode == 1, r.stdout + r.stderr
    state = json.loads((tmp_path / "h" / "hunt-state.json").read_text())
    sigs = [s for s in state["signatures"].values() if s.get("variation", "").startswith("vary:elem-int32@")]
    assert sigs, state["signatures"]
    assert sigs[0]["signature"]["rewrite"] == "vary:elem-int32" and sigs[0]["reproduces"] is True, sigs[0]
    assert sigs[0]["signature"]["kind"] == "wrong-result"
    before = {i["form"] for i in state["items"]}
    r = hunt("--vary-kind", "elem-*", "--budget", "4items", "--resume")
    assert r.returncode in (0, 1), r.stdout + r.stderr
    again = json.loads((tmp_path / "h" / "hunt-state.json").read_text())
    assert before <= {i["form"] for i in again["items"]} and len(again["items"]) > len(state["items"])
    assert sigs[0]["signature"] in [s["signature"] for s in again["signatures"].values()]


def test_a_float16_neighbour_takes_the_numeric_oracles_float16_tolerance_over_a_tighter_case_one():
    from passcheck.oracles.numeric import TOLERANCES

    base = planted_elem.add_mul()()
    setting = Setting(
        "vary-test/add-mul", rtol=1e-5, atol=1e-6, feeds=lambda binding, seed: {"x": np.ones((2, 4), np.float32)}
    )
    f16 = variation.build(base, "vary:elem-float16@graph")[0]
    mine = vary_probe.setting_for(setting, "vary:elem-float16@graph", f16)
    assert (mine.rtol, mine.atol) == TOLERANCES["float16"]
    assert mine.feeds({}, 0)["x"].dtype == np.float16
    ints = vary_probe.setting_for(setting, "vary:elem-int32@graph", variation.build(base, "vary:elem-int32@graph")[0])
    assert (ints.rtol, ints.atol) == (1e-5, 1e-6) and ints.feeds({}, 0)["x"].dtype == np.int32
