"""Elem neighbours come from the schemas and onnxruntime's own CPU kernel registry
(:mod:`passcheck.runtime.kernels`, :mod:`passcheck.hunt.elem_groups`): none is drawn that a real onnxruntime
session refuses for a missing kernel, an integer neighbour of an Add/Mul base is valid and judged exactly,
and one type-constraint group moves at a time (the data, not the indices)."""

from __future__ import annotations

import random

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

from passcheck.hunt import variation, vary_probe
from passcheck.hunt.probe import Setting
from passcheck.passes import FunctionAdapter, known_pass_ids, register_pass

PLANTED = "planted:int-const-plus-one"


def _int_const_plus_one(model):
    """Every int32 initializer + 1 (a wrong fold a float tolerance would hide on small integers)."""
    for t in model.graph.initializer:
        if t.data_type == TensorProto.INT32:
            t.CopyFrom(numpy_helper.from_array(numpy_helper.to_array(t) + np.int32(1), t.name))
    return model


if PLANTED not in known_pass_ids():
    register_pass(FunctionAdapter(PLANTED, _int_const_plus_one, doc="test pass: int32 initializers + 1"))


def _session_error(model: onnx.ModelProto) -> str | None:
    opts = ort.SessionOptions()
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    try:
        ort.InferenceSession(model.SerializeToString(), opts, providers=["CPUExecutionProvider"])
    except Exception as exc:  # noqa: BLE001 - the refusal is what the test reads
        return str(exc)
    return None


def _add_mul() -> onnx.ModelProto:
    nodes = [helper.make_node("Add", ["x", "c"], ["a"], name="add"), helper.make_node("Mul", ["a", "x"], ["y"])]
    graph = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 4])],
        [numpy_helper.from_array(np.array(2.0, np.float32), "c")],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def test_no_drawn_elem_neighbour_lacks_a_cpu_kernel():
    from passcheck.hunt.space import bases

    found = {}
    for base in bases(["*"], generated=False):
        try:
            model = base.model()
        except Exception:  # noqa: BLE001 - a base that does not build is not this test's
            continue
        for form in variation.neighbours(model, random.Random(0)):
            if variation.family(form) == "elem" and (built := variation.build(model, form)) is not None:
                found[f"{base.id} {form}"] = built[0]
    sample = sorted(random.Random(1).sample(sorted(found), min(60, len(found))))
    assert len({k.rsplit("elem-", 1)[1].split("@")[0] for k in sample}) >= 4, sample  # several target types
    refused = {k: why for k in sample if (why := _session_error(found[k])) is not None}
    assert not refused, refused


def test_an_int32_neighbour_of_add_mul_is_valid_and_judged_exactly():
    from passcheck.passes.isolation import executor_for

    base = _add_mul()
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
        off = vary_probe.judge(setting, base, "vary:elem-int32@graph", PLANTED, ex)
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
