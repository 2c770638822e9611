"""The onnx version converter drops model-local functions (onnx/onnx#4370, open): the output still calls
a function it no longer defines, so onnxruntime refuses it. passcheck records it as a known upstream
report (passcheck/triage/known_upstream.json) and reports it as one signature whatever op the function
wraps (the run error's masked phrase, passcheck/signature.py), on the real converter and onnxruntime."""

from __future__ import annotations

import json

import onnx
from onnx import TensorProto, helper, version_converter

import passcheck
from passcheck.cli import main
from passcheck.records import Finding
from passcheck.signature import Signature
from passcheck.triage.known import known, phrase

LINK = "https://github.com/onnx/onnx/issues/4370"


def _models(op: str) -> tuple[onnx.ModelProto, onnx.ModelProto]:
    """``op`` as a node, and the same node wrapped in a one-node model-local function."""
    io = (
        [helper.make_tensor_value_info("a", TensorProto.FLOAT, [2])],
        [helper.make_tensor_value_info("b", TensorProto.FLOAT, [2])],
    )
    plain = helper.make_model(
        helper.make_graph([helper.make_node(op, ["a"], ["b"], name=f"{op}_0")], "g", *io),
        opset_imports=[helper.make_opsetid("", 18)],
        ir_version=10,
    )
    fn = helper.make_function(
        "local", f"{op}_fn0", ["x"], ["y"], [helper.make_node(op, ["x"], ["y"])], [plain.opset_import[0]]
    )
    call = helper.make_node(f"{op}_fn0", ["a"], ["b"], domain="local", name=f"{op}_0")
    wrapped = helper.make_model(
        helper.make_graph([call], "g", *io),
        opset_imports=[helper.make_opsetid("", 18), helper.make_opsetid("local", 1)],
        functions=[fn],
        ir_version=10,
    )
    return plain, wrapped


def test_the_converter_still_drops_the_functions_here():
    _, wrapped = _models("Relu")
    converted = version_converter.convert_version(wrapped, 17)
    assert len(wrapped.functions) == 1 and len(converted.functions) == 0
    assert [(n.domain, n.op_type) for n in converted.graph.node] == [("local", "Relu_fn0")]


def test_the_library_case_is_known_upstream():
    report = passcheck.run(["functions/local-function"], ["onnx:convert-opset-16"])
    found = [f for c in report.cells for f in c.findings]
    entry = known(found, "onnx")
    assert entry is not None, [f.id for f in found]
    assert phrase(entry) == f"known: {LINK} (open)"


def test_every_wrapped_op_is_one_signature_through_the_engine(tmp_path):
    sigs = {}
    for op in ("Relu", "Abs", "Neg"):
        plain, wrapped = _models(op)
        d = tmp_path / op
        d.mkdir()
        onnx.save(plain, str(d / "common.onnx"))
        onnx.save(wrapped, str(d / "node-as-local-function.onnx"))
        args = ["compare", str(d / "common.onnx"), str(d / "node-as-local-function.onnx")]
        assert main([*args, "--pass", "onnx:convert-opset-17", "--json", str(d / "r.json"), "-q"]) == 1
        doc = json.loads((d / "r.json").read_text())
        found = [Finding.from_json(f) for c in doc["results"] for f in c["findings"]]
        assert [f.oracle + "|" + f.kind for f in found] == ["numeric|wrong-result"], [f.id for f in found]
        assert known(found, "onnx") is not None
        sigs[op] = Signature.of(found[0], models=[plain, wrapped], labels=[f"{op}_0"])
    assert len(set(sigs.values())) == 1, {op: s.key for op, s in sigs.items()}
    assert sigs["Relu"].ops == () and "is not a registered function/op" in sigs["Relu"].error
