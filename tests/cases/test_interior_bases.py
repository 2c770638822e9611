"""The interior bases (``cases/interior_ops.py``, M347): every ai.onnx / ai.onnx.ml op read from and written to
``Mul(x, 1)`` nodes; the first form reaches onnxruntime's float16 block list and its quantizers' "direct 8-bit" ops
(``passcheck.coverage.ort_precision.triggers``, by effect), which the op at the graph's boundary does not; the
QOperator format's ``QLinear*`` outputs count as 8-bit values (M348); the gate keeps each op's newest version it
runs."""

from __future__ import annotations

import numpy as np
import onnx
import onnx.helper
import onnxruntime as ort
import pytest

from passcheck.cases import registry
from passcheck.runtime.feeds import synthesize

FAMILY = "interior/"


def _library():
    """The registry with the gated library families registered (lazy sources: passcheck.cases.sources.GatedModule)."""
    reg = registry()
    reg.claim_library()
    return reg


def _cases():
    return {c.id[len(FAMILY) :]: c for c in _library() if c.id.startswith(FAMILY)}


def _module():
    import sys

    _library()  # loads the library, the family's module among it
    return next(m for name, m in sys.modules.items() if name.endswith("interior_ops") and hasattr(m, "interior"))


def _run(model, feeds):
    return ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)


def test_interior_reads_and_writes_through_mul_by_one_and_computes_the_same_bits():
    x = onnx.helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [2, 3])
    v = onnx.helper.make_tensor_value_info("v", onnx.TensorProto.FLOAT, [2, 2])
    i = onnx.helper.make_tensor_value_info("i", onnx.TensorProto.INT64, [2, 2])
    k = onnx.helper.make_tensor("k", onnx.TensorProto.INT64, [1], [2])
    g = onnx.helper.make_graph([onnx.helper.make_node("TopK", ["x", "k"], ["v", "i"])], "g", [x], [v, i], [k])
    m = onnx.helper.make_model(g, opset_imports=[onnx.helper.make_opsetid("", 11)])
    m.ir_version = 3  # before IR 4 an initializer is also a graph input (IR.md)
    m.graph.input.append(onnx.helper.make_tensor_value_info("k", onnx.TensorProto.INT64, [1]))
    inner = _module().interior(m)
    onnx.checker.check_model(inner, full_check=True)
    ops = [n.op_type for n in inner.graph.node]
    assert ops == ["Mul", "TopK", "Mul", "Mul"]  # x in; v and i out (Mul-7 takes int64); k is a constant
    assert inner.graph.node[1].input[0] != "x" and inner.graph.node[1].input[1] == "k"
    feeds = {"x": np.array([[-0.0, 1.5, np.nan], [3.0, -2.0, np.inf]], np.float32)}
    for a, b in zip(_run(m, feeds), _run(inner, feeds)):
        assert a.tobytes() == b.tobytes()


# op → the ort-precision entries its interior first form triggers (onnxruntime's float16.DEFAULT_OP_BLOCK_LIST;
# registry.QDQRegistry / QLinearOpsRegistry's direct 8-bit ops, quantized only when their input is)
WANT = {
    "topk": ["block:TopK", "quantize-qdq:TopK"],
    "flatten": ["quantize-qdq:Flatten", "quantize-qlinear:Flatten"],
    "maxpool": ["quantize-qdq:MaxPool", "quantize-qlinear:MaxPool"],
    "argmax": ["quantize-qlinear:ArgMax"],
    "cumsum": ["block:CumSum"],
    "ml.binarizer": ["block:Binarizer"],
}


@pytest.mark.parametrize("op", sorted(WANT))
def test_the_first_form_triggers_the_precision_entries_the_boundary_form_does_not(op):
    from passcheck.coverage.ort_precision import triggers

    (name,) = [n for n in _cases() if n.rsplit("-", 1)[0] == op]
    case = _cases()[name]
    common, boundary = (case.forms[f].build() for f in ("common", "boundary"))
    got, plain = triggers(common), triggers(boundary)
    for entry in WANT[op]:
        assert f"ort-precision:{entry}" in got, (name, got)
        assert f"ort-precision:{entry}" not in plain, (name, plain)
    feeds = synthesize(common, {}, 0)
    for a, b in zip(_run(common, feeds), _run(boundary, feeds)):
        np.testing.assert_array_equal(a, b)


def test_the_gate_keeps_each_ops_newest_version_it_runs():
    mod = _module()
    v = mod.verdicts()
    fell_back = 0
    for versions in mod.candidates():
        tried = [cid for cid, _s, _n in versions if cid in v]
        kept = [cid for cid in tried if v[cid] == ""]
        assert len(kept) <= 1, kept
        if kept:
            assert tried[-1] == kept[0], tried  # judged newest first, stopped at the first kept
            assert kept[0][len(FAMILY) :] in _cases()
            fell_back += len(tried) > 1
        else:
            assert not any(c[len(FAMILY) :] in _cases() for c in tried)
    # with onnxruntime 1.32.0 among them RoiAlign-22 (no kernel for it, though the registry lists 16+) -> RoiAlign-16
    assert fell_back


def test_the_map_says_when_bases_hold_an_op_the_pass_left_no_evidence_on(tmp_path):
    """M349: an untriggered ``ort-precision`` entry names the bases that hold its op (the float16 conversion leaves
    Scaler without a Cast between Muls: symbolic shape inference cannot type its output) apart from an op no base
    holds (Binarizer, when only these bases are observed)."""
    import json
    import subprocess
    import sys

    out = tmp_path / "map.json"
    cmd = [sys.executable, "-m", "passcheck", "coverage", "--tool", "ort-precision", "--case", "interior/ml.scaler-*"]
    subprocess.run([*cmd, "--json", str(out)], check=True, capture_output=True, timeout=600)
    reasons = {e["name"]: e["reason"] for e in json.loads(out.read_text())["entries"] if e["kind"] == "block"}
    assert reasons["Scaler"].startswith("1 bases have Scaler (e.g. interior/ml.scaler-1.float:common)"), reasons
    assert "a Cast the float16 conversion added" in reasons["Scaler"]
    assert reasons["Binarizer"].startswith("no base has a node of Binarizer"), reasons
