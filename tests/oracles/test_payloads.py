"""The payloads oracle (M285): a tensor a pass writes holds as many elements as its dims say."""

from __future__ import annotations

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from passcheck.engine import Subject, evaluate
from passcheck.oracles import payloads
from passcheck.oracles._context import FormRun
from passcheck.oracles.validity import checker_error
from passcheck.passes._base import PassOutcome
from passcheck.testing import as_adapter, registered


def _model() -> onnx.ModelProto:
    """``y = Add(x, w) + c``: ``w`` float [4] raw, ``c`` an int64-free Constant float [4] in ``float_data``."""
    w = numpy_helper.from_array(np.arange(4, dtype=np.float32), "w")
    c = helper.make_tensor("c", TensorProto.FLOAT, [4], [1.0, 2.0, 3.0, 4.0])
    nodes = [
        helper.make_node("Constant", [], ["c"], name="k", value=c),
        helper.make_node("Add", ["x", "w"], ["t"]),
        helper.make_node("Add", ["t", "c"], ["y"]),
    ]
    io = [helper.make_tensor_value_info(n, TensorProto.FLOAT, [4]) for n in ("x", "y")]
    g = helper.make_graph(nodes, "g", io[:1], io[1:], [w])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def _long(m: onnx.ModelProto) -> onnx.ModelProto:
    """A planted pass: repeats the last element of ``w``'s raw_data and of the Constant's float_data."""
    out = onnx.ModelProto()
    out.CopyFrom(m)
    w = out.graph.initializer[0]
    w.raw_data = w.raw_data + w.raw_data[-4:]
    out.graph.node[0].attribute[0].t.float_data.append(4.0)
    return out


def test_a_long_payload_a_pass_writes_is_a_spec_violation_the_checker_lets_through():
    m = _model()
    assert [payloads.mismatch(t) for t in (m.graph.initializer[0], m.graph.node[0].attribute[0].t)] == [None, None]
    bad = _long(m)
    assert payloads.mismatch(bad.graph.initializer[0]) == ("raw_data", 20, 16)
    assert payloads.mismatch(bad.graph.node[0].attribute[0].t) == ("float_data", 5, 4)
    subject = Subject("payloads/long", {"common": m}, [{"x": np.ones(4, np.float32)}])
    with registered(as_adapter(_long, "user:long")) as pid, registered(as_adapter(lambda x: x, "user:same")) as same:
        cells = {c.pass_id: c for c in evaluate(subject, [pid, same])}
    found = sorted(
        (f.details["tensor"], f.details["scope"], f.details["field"])
        for f in cells[pid].findings
        if f.oracle == "payloads"
    )
    assert found == [("c", "main/k", "float_data"), ("w", "main", "raw_data")]
    assert [f for f in cells[same].findings if f.oracle == "payloads"] == []
    if checker_error(bad) is None:  # onnx 1.23.2 (docs/found.md row 998): only this oracle sees it
        assert not [f for f in cells[pid].findings if f.oracle == "validity"]


def test_a_mismatch_the_input_already_has_is_not_the_pass_s_and_what_is_not_judged():
    m = _long(_model())
    kept = FormRun("c", "common", "user:same", m, PassOutcome("user:same", "unchanged", m), [{}], [], [])
    assert payloads.check(kept) == []  # the input's own mismatch, kept
    worse = _long(m)
    run = FormRun("c", "common", "user:longer", m, PassOutcome("user:longer", "changed", worse), [{}], [], [])
    assert sorted(f.details["held"] for f in payloads.check(run)) == [6, 24]  # longer still: the pass's
    short = helper.make_tensor("s", TensorProto.COMPLEX64, [2], [1 + 2j, 3 + 4j])
    assert payloads.mismatch(short) is None  # complex: two float_data entries per element
    del short.float_data[-1]
    assert payloads.mismatch(short) == ("float_data", 3, 4)
    ext = numpy_helper.from_array(np.arange(4, dtype=np.float32), "e")
    ext.raw_data = ext.raw_data[:-4]
    ext.data_location = TensorProto.EXTERNAL
    assert payloads.mismatch(ext) is None


def test_tensors_of_subgraphs_and_functions_carry_their_scope():
    """Every scope ``graph_scopes`` names is read: an If branch's initializer and a local function's Constant."""
    one = helper.make_tensor("one", TensorProto.FLOAT, [2], [1.0, 2.0])
    branch = helper.make_graph(
        [helper.make_node("Identity", ["b"], ["o"])],
        "then",
        [],
        [helper.make_tensor_value_info("o", TensorProto.FLOAT, [2])],
        [numpy_helper.from_array(np.ones(2, np.float32), "b")],
    )
    fn = helper.make_function(
        "local", "f", [], ["z"], [helper.make_node("Constant", [], ["z"], value=one)], [helper.make_opsetid("", 17)]
    )
    nodes = [
        helper.make_node("If", ["c"], ["y"], name="gate", then_branch=branch, else_branch=branch),
        helper.make_node("f", [], ["z"], domain="local"),
    ]
    g = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("c", TensorProto.BOOL, [])],
        [helper.make_tensor_value_info(n, TensorProto.FLOAT, [2]) for n in ("y", "z")],
    )
    m = helper.make_model(
        g, opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid("local", 1)], functions=[fn], ir_version=8
    )
    assert sorted((label, t.name) for label, t in payloads._tensors(m)) == [
        ("function local.f/Constant#0", "one"),
        ("gate.else_branch", "b"),
        ("gate.then_branch", "b"),
    ]
