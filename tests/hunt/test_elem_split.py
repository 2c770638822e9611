"""Element-type groups split at a shared constant (:mod:`passcheck.hunt.elem_split`): a constant several nodes
read is one value per reader, so an opset-19 Q -> DQ pair reading one scale initializer may move apart
(QuantizeLinear-19 and DequantizeLinear-19 bind their scales to separate type variables). The parts are
checker-valid and run unoptimized in onnxruntime, each reader's copy holds what a Cast gives, the whole-group
neighbour stays, and a planted pass wrong only on mixed scale types is found by the split kinds alone, in a
real hunt."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

from passcheck.hunt import variation, vary_probe
from passcheck.hunt.probe import Setting
from tests._inproc import cli, planted

PLANTED_FILE = Path(__file__).with_name("planted_split.py")
planted_split = planted(PLANTED_FILE)  # the planted pass and its bases, registered on import


def _run(model: onnx.ModelProto, x: np.ndarray) -> np.ndarray:
    opts = ort.SessionOptions()
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    sess = ort.InferenceSession(model.SerializeToString(), opts, providers=["CPUExecutionProvider"])
    return sess.run(None, {"x": x})[0]


def _scales(model: onnx.ModelProto) -> dict[str, int]:
    """Node name → the element type of the scale it reads (input 1)."""
    types = {t.name: t.data_type for t in model.graph.initializer}
    return {n.name: types[n.input[1]] for n in model.graph.node if n.op_type in ("QuantizeLinear", "DequantizeLinear")}


def test_a_shared_scale_splits_per_reader_and_the_whole_group_neighbour_stays():
    base = planted_split.double_qdq()()
    forms = variation.neighbours(base, random.Random(0))
    elem = sorted(f for f in forms if variation.family(f) == "elem")
    # q1's part {x, s@q1}; dq1's and q2's {s@dq1, b, s@q2}; dq2's {s@dq2, d, y}: two of three sampled
    assert "vary:elem-float16@graph" in elem, elem
    split = [f for f in elem if f.startswith("vary:elem-split-float16@")]
    assert len(split) == 2 and {f.split("@")[1] for f in split} <= {"x", "b", "d"}, elem
    f16, f32 = TensorProto.FLOAT16, TensorProto.FLOAT
    expected = {
        "x": {"q1": f16, "dq1": f32, "q2": f32, "dq2": f32},
        "b": {"q1": f32, "dq1": f16, "q2": f16, "dq2": f32},
        "d": {"q1": f32, "dq1": f32, "q2": f32, "dq2": f16},
    }
    x = np.linspace(-3, 3, 16, dtype=np.float32).reshape(2, 8)
    for site, scales in expected.items():
        moved = variation.build(base, f"vary:elem-split-float16@{site}")[0]
        onnx.checker.check_model(moved, full_check=True)
        assert _scales(moved) == scales, site
        inits = {t.name: numpy_helper.to_array(t) for t in moved.graph.initializer}
        assert inits["s"].dtype == np.float32 and float(inits["s"]) == np.float32(0.04)  # the other readers' own
        copies = [a for name, a in inits.items() if name.startswith("s_float16")]
        assert copies and all(a.dtype == np.float16 and a == np.float32(0.04).astype(np.float16) for a in copies)
        feed = x.astype(np.float16) if site == "x" else x
        assert _run(moved, feed).shape == (2, 8)


def test_a_shared_constant_node_gives_each_moved_reader_a_constant_node_of_its_own():
    base = planted_split.double_qdq()()
    g = base.graph
    del g.initializer[0]  # s as a Constant node
    g.node.insert(0, helper.make_node("Constant", [], ["s"], name="k", value=numpy_helper.from_array(np.float32(0.04))))
    moved = variation.build(base, "vary:elem-split-float16@b")
    assert moved is not None
    model = moved[0]
    onnx.checker.check_model(model, full_check=True)
    consts = {n.output[0]: numpy_helper.to_array(n.attribute[0].t) for n in model.graph.node if n.op_type == "Constant"}
    assert consts["s"].dtype == np.float32 and len(consts) == 3  # the original and the copies of dq1 and q2
    order = [n.output[0] for n in model.graph.node]
    for n in model.graph.node:  # every copy written before its reader
        assert all(order.index(v) < order.index(n.output[0]) for v in n.input if v in consts)
    assert _run(model, np.ones((2, 8), np.float32)).dtype == np.float32


def test_no_split_neighbour_where_every_reader_of_the_constant_stays_in_one_part():
    # c is read by Add and Mul, and a joins them: the split groups are the whole groups
    nodes = [helper.make_node("Add", ["x", "c"], ["a"]), helper.make_node("Mul", ["a", "c"], ["y"])]
    graph = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 4])],
        [numpy_helper.from_array(np.array(2.0, np.float32), "c")],
    )
    base = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    forms = variation.neighbours(base, random.Random(0))
    assert "vary:elem-float16@graph" in forms and not [f for f in forms if "elem-split" in f], forms


def test_a_copy_is_written_only_where_it_holds_what_a_cast_gives():
    from passcheck.hunt.elem_split import as_cast

    assert as_cast(np.array(0.04, np.float32), TensorProto.FLOAT16) == np.float16(0.04)
    assert as_cast(np.array([3.0, -2.0], np.float32), TensorProto.INT32).tolist() == [3, -2]
    assert as_cast(np.array(0.04, np.float32), TensorProto.INT32).tolist() == 0  # a Cast truncates too
    with pytest.raises(ValueError, match="no cast"):
        as_cast(np.array(2.7, np.float32), TensorProto.INT32)  # cast_values rounds to 3; a Cast truncates to 2
    with pytest.raises(ValueError, match="no cast"):
        as_cast(np.array(1e6, np.float32), TensorProto.FLOAT16)  # clipped to 65504; a Cast gives inf


def test_the_planted_pass_shows_on_split_neighbours_only():
    from passcheck.passes.isolation import executor_for

    base = planted_split.double_qdq()()
    forms = [f for f in variation.neighbours(base, random.Random(0)) if variation.family(f) == "elem"]
    setting = Setting("vary-split/double-qdq", bindings=({"N": 1}, {"N": 2}))
    found = {}
    with executor_for(None, isolation=False) as ex:
        for form in forms:
            outcome = vary_probe.judge(setting, base, form, planted_split.PASS_ID, ex)
            assert outcome.status == "done", (form, outcome)
            found[form] = [(f.oracle, f.kind) for f in outcome.findings]
    hit = {f for f, kinds in found.items() if ("numeric", "wrong-result") in kinds}
    assert hit and all("elem-split-" in f for f in hit), found
    assert not found["vary:elem-float16@graph"], found


def test_a_hunt_finds_the_planted_pass_by_a_split_neighbour_and_its_repro_reproduces(tmp_path):
    argv = ["hunt", "--cases-from", PLANTED_FILE, "--case", "vary-split/*"]  # in this process (tests/_inproc.py)
    argv += ["--pass", planted_split.PASS_ID, "--seed", "1", "--no-coverage", "--out", tmp_path / "h"]
    argv += ["--vary-kind", "elem-*", "--budget", "12items", "--progress", "none"]
    r = cli(*argv)
    assert r.returncode == 1, r.stdout + r.stderr
    state = json.loads((tmp_path / "h" / "hunt-state.json").read_text())
    sigs = list(state["signatures"].values())
    assert sigs and all(s["signature"]["rewrite"] == "vary:elem-split-float16" for s in sigs), sigs
    assert sigs[0]["reproduces"] is True and sigs[0]["signature"]["kind"] == "wrong-result", sigs[0]
    tried = {i["form"].split("@")[0] for i in state["items"]}
    assert {"vary:elem-float16", "vary:elem-split-float16"} <= tried, tried  # the whole-group one judged, clean


def test_each_part_names_the_nodes_it_retypes_so_the_scheduler_tells_parts_apart():
    from passcheck.hunt.signature import site_ops

    base = planted_split.double_qdq()()
    ops = {s: site_ops([base], variation.site_labels(base, f"vary:elem-split-float16@{s}")) for s in "xbd"}
    assert ops == {
        "x": {"QuantizeLinear"},
        "b": {"DequantizeLinear", "QuantizeLinear"},
        "d": {"DequantizeLinear", "Neg"},
    }, ops
    assert variation.site_labels(base, "vary:elem-float16@graph") == []  # a whole group: every op of the base
