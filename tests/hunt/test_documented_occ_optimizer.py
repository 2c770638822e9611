"""onnxconverter-common's optimizer rows told apart by their ``match`` rules (round 22g, M521).

Rows 1377, 1382, 1384 and 1385 (round 22b) had no rule: their words are generic (a wrong shape, a kept op, a bare
``IndexError`` / ``KeyError``). What tells them apart is a spelling's meaning (a Transpose without ``perm``, a
Constant node for an initializer: ``rewrite``), the op at the rewritten site (``ops_all``) or the function of the
tool that raised (``error``, the crash signature's ``@ package:function``, M521). Each test runs the real optimizer
on the row's model, builds the finding the acceptance oracle writes for its crash (or the signature of its
non-crash finding), and asks :func:`passcheck.hunt.documented.which`.
"""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import helper, numpy_helper

from passcheck.hunt import documented
from passcheck.passes import get_pass
from passcheck.records import Finding
from passcheck.signature import Signature

pytest.importorskip("onnxconverter_common.optimizer")

F = onnx.TensorProto.FLOAT
VI = helper.make_tensor_value_info
PASS = "occ:optimize"


def _model(nodes, inputs, outputs, inits=(), opsets=(("", 17),)) -> onnx.ModelProto:
    graph = helper.make_graph(nodes, "g", inputs, outputs, list(inits))
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid(d, v) for d, v in opsets], ir_version=8)
    onnx.checker.check_model(model, full_check=True)
    return model


def _init(name: str, value) -> onnx.TensorProto:
    return numpy_helper.from_array(np.asarray(value), name)


def _crash_row(model, tmp_path, form: str, models=()) -> dict | None:
    """Run ``occ:optimize`` on ``model`` (it must crash), write the acceptance oracle's finding for it, and return
    the documented entry its signature meets (``models``: the pair, base first, for the rewritten sites' ops)."""
    out = get_pass(PASS).run(model, tmp_path)
    assert out.status == "crashed", out.status
    first = out.error.splitlines()[0]
    details = {"status": "crashed", "error": out.error}
    message = f"{PASS} crashed on this form only (accepted: common): {first}"
    finding = Finding("rejected", "acceptance", "c", form, PASS, message, details)
    sig = Signature.of(finding, models=models)
    return documented.which(sig.key, {"signature": sig.to_json(), "message": message})


def _row(sig: Signature, message: str) -> str | None:
    found = documented.which(sig.key, {"signature": sig.to_json(), "message": message})
    return None if found is None else found["row"]


def _conv_bn(bias: bool = True) -> onnx.ModelProto:
    """``y = BatchNormalization(Conv(x, w[, b]), …)`` writing the graph output (row 1385's model)."""
    rng = np.random.default_rng(0)
    inits = [_init("w", rng.standard_normal((2, 3, 1, 1)).astype(np.float32))]
    inits += [_init(n, np.ones(2, np.float32)) for n in ("scale", "var")]
    inits += [_init(n, np.zeros(2, np.float32)) for n in ("shift", "mean")]
    conv_in = ["x", "w", "b"] if bias else ["x", "w", ""]
    if bias:
        inits.append(_init("b", np.zeros(2, np.float32)))
    nodes = [
        helper.make_node("Conv", conv_in, ["c"], name="conv"),
        helper.make_node("BatchNormalization", ["c", "scale", "shift", "mean", "var"], ["y"], name="bn"),
    ]
    return _model(nodes, [VI("x", F, [1, 3, 4, 4])], [VI("y", F, [1, 2, 4, 4])], inits)


def test_a_transpose_without_perm_is_row_1377(tmp_path):
    omitted = _model([helper.make_node("Transpose", ["x"], ["t"]), helper.make_node("Relu", ["t"], ["y"])],
                     [VI("x", F, [2, 3])], [VI("y", F, [3, 2])])  # fmt: skip
    out = get_pass(PASS).run(omitted, tmp_path)
    assert [n.op_type for n in out.model.graph.node] == ["Relu"]  # deleted as an identity: y is x's shape
    message = "output 'y' (binding 0): shape [2, 3] vs expected [3, 2]"
    assert _row(Signature(PASS, "numeric", "wrong-result", ("Transpose",), "transpose-perm-omitted", ""), message) == (
        "1377"
    )
    assert _row(Signature(PASS, "numeric", "wrong-result", ("Transpose",), "commute-operands", ""), message) != "1377"


def test_a_transpose_without_perm_pushed_through_a_mul_is_row_1377(tmp_path):
    """``interior/transpose-25.float``: the pushed Transpose is rebuilt with ``perm=[]`` (``get_perm``'s ``[]``)."""
    nodes = [
        helper.make_node("Mul", ["x", "one"], ["a"]),
        helper.make_node("Transpose", ["a"], ["t"]),
        helper.make_node("Mul", ["t", "one"], ["y"]),
    ]
    model = _model(nodes, [VI("x", F, [2, 3, 4])], [VI("y", F, [4, 3, 2])], [_init("one", np.float32(1))])
    found = _crash_row(model, tmp_path, "common")
    assert found is not None and found["row"] == "1377"


def test_a_constant_node_left_unfolded_is_row_1382(tmp_path):
    nodes = [
        helper.make_node("Constant", [], ["k"], value=_init("kv", np.float32([1, 2, 3]))),
        helper.make_node("Mul", ["k", "b"], ["m"], name="mul"),
        helper.make_node("Add", ["x", "m"], ["y"]),
    ]
    model = _model(nodes, [VI("x", F, [3])], [VI("y", F, [3])], [_init("b", np.float32([2, 2, 2]))])
    out = get_pass(PASS).run(model, tmp_path)
    assert "Mul" in [n.op_type for n in out.model.graph.node]  # _OnMul exists; the Constant's first visit says -1
    message = f"{PASS} removed Mul 1→0 in 'common' but 1→1 in 'initializer-to-constant'; kept: mul"
    sig = Signature(PASS, "parity", "missed-optimization", ("Mul",), "initializer-to-constant", "")
    assert _row(sig, message) == "1382"
    assert _row(sig.replace(rewrite="commute-operands"), message) != "1382"


def test_another_domains_range_folded_as_ai_onnx_is_row_1384_not_1383(tmp_path):
    nodes = [
        helper.make_node("Range", ["s", "l"], ["r"], domain="com.microsoft"),  # delta omitted: com.microsoft's default
        helper.make_node("Add", ["x", "r"], ["y"]),
    ]
    inits = [_init("s", np.float32(0)), _init("l", np.float32(3))]
    model = _model(nodes, [VI("x", F, [3])], [VI("y", F, [3])], inits, (("", 17), ("com.microsoft", 1)))
    found = _crash_row(model, tmp_path, "omitted")
    assert found is not None and found["row"] == "1384"


def test_an_empty_conv_bias_before_bn_stays_row_1383(tmp_path):
    found = _crash_row(_conv_bn(bias=False), tmp_path, "empty-name")
    assert found is not None and found["row"] == "1383"


def test_a_fused_output_name_lost_is_row_1385_when_the_site_is_the_bn(tmp_path):
    model = _conv_bn()
    found = _crash_row(model, tmp_path, "output-identity-folded@bn", models=[model, model])
    assert found is not None and found["row"] == "1385"
    # without the pair (a library cell) the finding names no op: the KeyError is row 1379's rule
    found = _crash_row(model, tmp_path, "common")
    assert found is not None and found["row"] == "1379"


def test_an_identity_after_one_of_two_outputs_is_row_1389(tmp_path):
    nodes = [
        helper.make_node("Split", ["x"], ["a", "b"], axis=0, num_outputs=2),
        helper.make_node("Identity", ["a"], ["y"]),
    ]
    model = _model(nodes, [VI("x", F, [2, 3])], [VI("y", F, [1, 3]), VI("b", F, [1, 3])], opsets=(("", 18),))
    found = _crash_row(model, tmp_path, "output-through-identity")
    assert found is not None and found["row"] == "1389"


def test_empty_input_and_output_names_on_one_node_are_row_1390(tmp_path):
    rng = np.random.default_rng(0)
    inits = [
        _init("W", rng.standard_normal((1, 6, 3)).astype(np.float32)),
        _init("R", rng.standard_normal((1, 6, 2)).astype(np.float32)),
    ]
    nodes = [
        helper.make_node("GRU", ["x", "W", "R", "", ""], ["", "y_h"], hidden_size=2),
        helper.make_node("Relu", ["y_h"], ["y"]),
    ]
    model = _model(nodes, [VI("x", F, [5, 1, 3])], [VI("y", F, [1, 1, 2])], inits)
    found = _crash_row(model, tmp_path, "empty-optional-inputs")
    assert found is not None and found["row"] == "1390"


def test_a_slice_with_a_negative_axis_is_row_1391(tmp_path):
    inits = [
        _init("c", np.arange(12, dtype=np.float32).reshape(3, 4)),
        _init("s0", np.int64([0])),
        _init("e2", np.int64([2])),
        _init("ax", np.int64([-1])),
    ]
    nodes = [helper.make_node("Slice", ["c", "s0", "e2", "ax"], ["s"]), helper.make_node("Add", ["s", "x"], ["y"])]
    model = _model(nodes, [VI("x", F, [3, 2])], [VI("y", F, [3, 2])], inits)
    out = get_pass(PASS).run(model, tmp_path)
    folded = next(i for i in out.model.graph.initializer if i.name == "s")
    assert list(folded.dims) == [3, 4]  # the negative axis left whole
    message = "the checker rejects the output of occ:optimize: InferenceError: … Incompatible dimensions"
    sig = Signature(PASS, "validity", "invalid-model", ("Slice",), "axes-input-negative", "InferenceError")
    assert _row(sig, message) == "1391"


def test_without_the_error_field_the_range_crash_is_row_1383(tmp_path, monkeypatch):
    """Planted break: ``matches`` ignoring ``error`` (as before M521) gives the other domain's Range crash to row
    1383, whose words (``IndexError: list index out of range``) it shares and which comes first in the file."""
    matches = documented.matches
    monkeypatch.setattr(
        documented, "matches", lambda r, s, m: matches({k: v for k, v in r.items() if k != "error"}, s, m)
    )
    nodes = [
        helper.make_node("Range", ["s", "l"], ["r"], domain="com.microsoft"),
        helper.make_node("Add", ["x", "r"], ["y"]),
    ]
    inits = [_init("s", np.float32(0)), _init("l", np.float32(3))]
    model = _model(nodes, [VI("x", F, [3])], [VI("y", F, [3])], inits, (("", 17), ("com.microsoft", 1)))
    found = _crash_row(model, tmp_path, "omitted")
    assert found is not None and found["row"] == "1383"
