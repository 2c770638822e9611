"""A pass crash is one signature per behaviour (passcheck/signature.py ``crash_error``): the exception
class, its masked phrase and the innermost frame of the pass's own package, not one signature per op
beside it. onnxscript's optimizer raising ``ValueError: zero-size array …`` on a one-input Max then Min
is one signature whatever op follows; two crashes with the same phrase in different functions stay two."""

from __future__ import annotations

import json
from pathlib import Path

import onnx
from onnx import TensorProto, helper

from passcheck.cli import main
from passcheck.hunt.signature import signature
from passcheck.passes._base import PassAdapter
from passcheck.records import Finding
from passcheck.signature import Signature, error_phrase

REWRITE = "neutral-one-input-variadic"


def _model(ops: list[str], tail: str) -> onnx.ModelProto:
    names = ["x", *(f"v{i}" for i in range(len(ops))), "y"]
    nodes = [
        helper.make_node(op, [a], [b], name=f"n{i}_{op}")
        for i, (op, a, b) in enumerate(zip([*ops, tail], names, names[1:]))
    ]
    graph = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3, 2] if tail == "Transpose" else [2, 3])],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)


def _crash_finding(tmp: Path, tail: str) -> tuple[Finding, list[onnx.ModelProto]]:
    """``passcheck compare`` (isolated worker, real onnxscript) of x→tail against x→Max→Min→tail."""
    common, uncommon = _model([], tail), _model(["Max", "Min"], tail)
    tmp.mkdir()
    onnx.save(common, str(tmp / "common.onnx"))
    onnx.save(uncommon, str(tmp / f"{REWRITE}.onnx"))
    args = ["compare", str(tmp / "common.onnx"), str(tmp / f"{REWRITE}.onnx"), "--pass", "onnxscript:optimize"]
    assert main([*args, "--json", str(tmp / "r.json"), "-q"]) == 1
    doc = json.loads((tmp / "r.json").read_text())
    found = [Finding.from_json(f) for c in doc["results"] for f in c["findings"] if f["oracle"] == "acceptance"]
    assert len(found) == 1 and "zero-size array" in found[0].message, [f.id for f in found]
    return found[0], [common, uncommon]


def test_one_crash_beside_different_ops_is_one_signature(tmp_path):
    sigs = {}
    for tail in ("Relu", "Transpose"):
        f, models = _crash_finding(tmp_path / tail, tail)
        sigs[tail] = signature(f, REWRITE, models, ["x"])  # the site the hunt rewrote: x, read by the neighbour
    relu, transpose = sigs["Relu"], sigs["Transpose"]
    assert relu == transpose and relu.key == transpose.key, (relu.key, transpose.key)
    assert relu.ops == () and relu.rewrite == REWRITE
    assert relu.error.startswith("ValueError: zero-size array to reduction operation")
    # the frame, version-stable: the tool's package and the function, no module path, no line
    assert " @ onnxscript:" in relu.error and "(line" not in relu.error
    # the keys an older passcheck wrote (op types and bare class, one per neighbour; the module path)
    assert relu.aliases[0] == f"onnxscript:optimize|acceptance|rejected|Max,Relu|{REWRITE}|ValueError"
    assert relu.aliases[1].startswith(relu.key.split(" @ ")[0] + " @ onnxscript.")
    assert Signature.from_json(json.loads(json.dumps(relu.to_json()))).aliases == relu.aliases


class _Planted(PassAdapter):
    """Crashes inside onnx.helper with ``KeyError: 999``: from tensor_dtype_to_string when the model's
    doc_string says so, else from tensor_dtype_to_np_dtype (the same phrase, another function)."""

    id = "planted:dtype-lookup"
    tools = ("onnx",)

    def apply(self, model, workdir):
        look = helper.tensor_dtype_to_string if model.doc_string == "string" else helper.tensor_dtype_to_np_dtype
        look(999)
        return model


def _planted_finding(doc: str, tmp: Path) -> Finding:
    model = _model([], "Relu")
    model.doc_string = doc
    out = _Planted().run(model, tmp)
    assert out.status == "crashed", out
    details = {"status": out.status, "error": out.error}
    return Finding("rejected", "acceptance", "c", "form", _Planted.id, f"crashed: {out.error.splitlines()[0]}", details)


def test_the_same_phrase_raised_in_two_functions_is_two_signatures(tmp_path):
    a, b = _planted_finding("string", tmp_path), _planted_finding("np", tmp_path)
    assert error_phrase(a.details["error"]) == error_phrase(b.details["error"]) == "KeyError: #"
    sa, sb = Signature.of(a), Signature.of(b)
    assert sa != sb
    assert sa.error == "KeyError: # @ onnx:tensor_dtype_to_string"
    assert sb.error == "KeyError: # @ onnx:tensor_dtype_to_np_dtype"


def test_a_worker_death_without_an_exception_keeps_its_op_types():
    died = {"status": "crashed", "error": "the pass died of signal SIGSEGV", "kept_op_types": ["Conv"]}
    sig = Signature.of(Finding("rejected", "acceptance", "c", "f", "ort:basic", "ort:basic crashed", died))
    assert sig.ops == ("Conv",) and sig.error == "" and sig.aliases == ()
    declined = {"status": "declined", "error": "RuntimeError: bad model", "kept_op_types": ["Conv"]}
    sig = Signature.of(Finding("rejected", "acceptance", "c", "f", "ort:basic", "declined", declined))
    # a refusal keys on its masked words (test_signature_refusals.py), its older class-only key an alias
    assert sig.ops == ("Conv",) and sig.error == "RuntimeError: bad model"
    assert sig.aliases == ("ort:basic|acceptance|rejected|Conv|f|RuntimeError",)
