"""The catalogue's rows without a rewrite: each test shows, with the real tools, why no rewrite can
produce that spelling (the gate would refuse it, the checker rejects it, or it is not the same
computation). See ``passcheck/mutations/freedoms_ir.py``."""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import helper, numpy_helper, parser

from passcheck.errors import PasscheckInternalError
from passcheck.mutations import verify_equivalent

from ._models import feeds

TWO_OUT = """<ir_version: 8, opset_import: ["" : 13]>
g (float[2] x, float[2] w) => (float[2] y, float[2] z) {
    y = Add(x, w)
    z = Neg(x)
}"""


def _add_model(domain: str = "", import_domain: str = "") -> onnx.ModelProto:
    x = helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [2])
    y = helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [2])
    w = numpy_helper.from_array(np.ones(2, np.float32), "w")
    g = helper.make_graph([helper.make_node("Add", ["x", "w"], ["y"], domain=domain)], "g", [x], [y], [w])
    return helper.make_model(g, opset_imports=[helper.make_opsetid(import_domain, 13)])


def test_reordered_graph_outputs_are_refused_by_the_gate():
    m = parser.parse_model(TWO_OUT)
    swapped = onnx.ModelProto()
    swapped.CopyFrom(m)
    outs = list(swapped.graph.output)
    del swapped.graph.output[:]
    swapped.graph.output.extend(reversed(outs))
    with pytest.raises(PasscheckInternalError, match="inputs/outputs changed"):
        verify_equivalent(m, swapped, feeds(m), "reordered")


def test_renamed_graph_input_is_refused_by_the_gate():
    m = parser.parse_model(TWO_OUT)
    renamed = parser.parse_model(TWO_OUT.replace("x", "x_in"))
    with pytest.raises(PasscheckInternalError, match="inputs/outputs changed"):
        verify_equivalent(m, renamed, feeds(m), "renamed")


def test_external_data_cannot_be_loaded_from_bytes(tmp_path):
    onnx.save(_add_model(), tmp_path / "m.onnx", save_as_external_data=True, location="w.bin", size_threshold=0)
    m = onnx.load(str(tmp_path / "m.onnx"), load_external_data=False)
    assert m.graph.initializer[0].data_location == onnx.TensorProto.EXTERNAL
    with pytest.raises(Exception, match="[Ee]xternal data"):
        ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
    with pytest.raises(onnx.checker.ValidationError):
        onnx.checker.check_model(m)


@pytest.mark.parametrize("import_domain", ["", "ai.onnx"])
def test_node_domain_ai_onnx_fails_the_checker(import_domain):
    m = _add_model(domain="ai.onnx", import_domain=import_domain)
    with pytest.raises(onnx.checker.ValidationError):
        onnx.checker.check_model(m)
    session = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
    got = session.run(None, {"x": np.ones(2, np.float32)})
    np.testing.assert_array_equal(got[0], [2, 2])  # onnxruntime runs it: the spelling is only the checker's


def test_sparse_initializer_fails_the_full_checker():
    m = _add_model()
    dense = m.graph.initializer.pop()
    sparse = helper.make_sparse_tensor(
        numpy_helper.from_array(np.ones(2, np.float32), dense.name),
        numpy_helper.from_array(np.array([0, 1], np.int64)),
        [2],
    )
    m.graph.sparse_initializer.append(sparse)
    onnx.checker.check_model(m)
    with pytest.raises(onnx.shape_inference.InferenceError, match="sparse_tensor"):
        onnx.checker.check_model(m, full_check=True)


def test_scalar_and_one_element_vector_differ():
    text = """<ir_version: 8, opset_import: ["" : 13]>
    g (float[3] x) => (float{shape} y) {{
        i = Constant<value = int64{shape} {{1}}>()
        y = Gather(x, i)
    }}"""
    x = {"x": np.arange(3, dtype=np.float32)}
    outs = []
    for shape in ("", "[1]"):
        m = parser.parse_model(text.format(shape=shape))
        outs.append(ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, x)[0])
    assert outs[0].shape == () and outs[1].shape == (1,)


def test_optional_type_in_a_static_optional_slot_is_rejected():
    m = parser.parse_model("""<ir_version: 8, opset_import: ["" : 15]>
    g (float[2, 3, 5, 5] x, float[2, 3, 3, 3] w, float[2] b) => (float[2, 2, 3, 3] y) {
        ob = Optional(b)
        y = Conv(x, w, ob)
    }""")
    with pytest.raises(onnx.shape_inference.InferenceError, match="optional"):
        onnx.checker.check_model(m, full_check=True)


def test_the_checker_accepts_non_identifier_names():
    m = parser.parse_model(TWO_OUT)
    m.graph.node[0].output[0] = "layer.0/out:0"
    m.graph.node.insert(1, helper.make_node("Identity", ["layer.0/out:0"], ["y"]))
    onnx.checker.check_model(m, full_check=True)  # accepted although not a C90 identifier


def test_shadowing_an_outer_name_is_rejected():
    m = parser.parse_model("""<ir_version: 8, opset_import: ["" : 13]>
    g (float[2] x, bool c) => (float[2] y) {
        a = Relu(x)
        y = If(c) <then_branch = t () => (float[2] a) { a = Neg(x) },
                   else_branch = e () => (float[2] b) { b = Identity(a) }>
    }""")
    with pytest.raises(onnx.checker.ValidationError, match="static single assignment|single static assignment"):
        onnx.checker.check_model(m)


def test_batchnorm_9_with_empty_optional_outputs_crashes_onnxruntime():
    """BatchNormalization-9 with its four optional outputs written as "" (IR.md §Optional Inputs and
    Outputs) passes the full checker, and onnxruntime dies running it: the isolation worker reports
    the crash (found.md row 906). empty-optional-outputs writes the form; the gate judges it through its spelling
    without the empty slots (tests/mutations/test_slot_canonical.py), so the crash is the ``input`` cell's finding."""
    from passcheck.passes.isolation import IsolatedExecutor

    x = helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [1, 2, 3, 3])
    y = helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [1, 2, 3, 3])
    inits = [numpy_helper.from_array(np.ones(2, np.float32), n) for n in ("s", "b", "m", "v")]
    node = helper.make_node("BatchNormalization", ["x", "s", "b", "m", "v"], ["y", "", "", "", ""])
    m = helper.make_model(helper.make_graph([node], "g", [x], [y], inits), opset_imports=[helper.make_opsetid("", 9)])
    onnx.checker.check_model(m, full_check=True)
    with IsolatedExecutor() as ex:
        got = ex.run_model(m, {"x": np.ones((1, 2, 3, 3), np.float32)})
    assert "SIGSEGV" in (got.error or "")  # "onnxruntime killed its process: SIGSEGV"
