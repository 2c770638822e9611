"""A tool that calls another whole meets that tool's documented rows (:attr:`~passcheck.passes.PassAdapter.steps`,
passcheck/hunt/documented.py ``which``). Polygraphy's ``ConvertToFp16`` is onnxconverter-common's
``convert_float_to_float16(keep_io_types=True)`` called whole (polygraphy/backend/onnx/loader.py): ``polygraphy:fp16``
declares ``occ:float16-keep-io`` its step, so a defect of that call is onnxconverter-common's row (docs/found.md rows
1289–1298), not a second one; its FoldConstants goes through onnx-graphsurgeon's import / export (row 1278's).
onnxconverter-common itself runs onnx shape inference first, so the ``occ:*`` passes declare ``onnx:infer-shapes``
(row 711's dropped labels are onnx's). Round 21h, M505 / M506."""

from __future__ import annotations

import types

import numpy as np
import onnx
import pytest
from onnx import helper, numpy_helper

from passcheck.hunt import documented
from passcheck.passes import get_pass
from passcheck.signature import Signature, crash_error

pytest.importorskip("polygraphy")
pytest.importorskip("onnxconverter_common")


def _gru_skipping_y() -> onnx.ModelProto:
    """``y_h = GRU(x, w, r, "", "", h0)``, outputs ``["", "y_h"]``: an absent optional input and output (row 1296)."""
    f = onnx.TensorProto.FLOAT
    inits = [
        numpy_helper.from_array(np.ones((1, 6, 3), np.float32), "w"),
        numpy_helper.from_array(np.ones((1, 6, 2), np.float32), "r"),
        numpy_helper.from_array(np.zeros((1, 1, 2), np.float32), "h0"),
    ]
    node = helper.make_node("GRU", ["x", "w", "r", "", "", "h0"], ["", "y_h"], hidden_size=2, name="gru")
    graph = helper.make_graph(
        [node],
        "g",
        [helper.make_tensor_value_info("x", f, [1, 1, 3])],
        [helper.make_tensor_value_info("y_h", f, [1, 1, 2])],
        inits,
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def _crash_record(pass_id: str, tmp_path) -> tuple[str, dict]:
    """The hunt's key and store record of the real pass's crash on :func:`_gru_skipping_y`."""
    tmp_path.mkdir(exist_ok=True)
    out = get_pass(pass_id).run(_gru_skipping_y(), tmp_path)
    assert out.status == "crashed", out.status
    finding = types.SimpleNamespace(details={"status": "crashed", "error": out.error}, kind="rejected")
    sig = Signature(pass_id, "acceptance", "rejected", ("GRU",), "inputs-empty", crash_error(finding))
    message = f"{pass_id} crashed on this form only (accepted: common): {out.error.splitlines()[0]}"
    return sig.key, {"signature": sig.to_json(), "message": message, "case": sig.case_id}


def test_polygraphy_fp16_crash_is_onnxconverter_commons_row(tmp_path):
    assert get_pass("polygraphy:fp16").steps == ("occ:float16-keep-io",)
    key, rec = _crash_record("polygraphy:fp16", tmp_path / "p")
    assert "'NoneType' object has no attribute 'output'" in rec["message"]
    row = documented.which(key, rec)
    assert row is not None and row["row"] == "1296"
    assert documented.which(*_crash_record("occ:float16-keep-io", tmp_path / "o")) is row


def test_without_the_step_the_crash_is_new(tmp_path, monkeypatch):
    """Planted break: the variant declared with no step meets no row (the crash is not Polygraphy's own)."""
    key, rec = _crash_record("polygraphy:fp16", tmp_path)
    monkeypatch.setattr(documented, "_steps", lambda pass_id: ())
    assert documented.which(key, rec) is None


def test_onnxruntimes_words_for_a_float_only_input_are_row_1298():
    """onnxruntime refuses a float16 input whose schema has no float16 in other words than the checker's."""
    message = (
        "the output of polygraphy:fp16 fails to run (binding 0): InvalidGraph: [ONNXRuntimeError] : 10 : "
        "INVALID_GRAPH : This is an invalid model. Type Error: Type 'tensor(float16)' of input parameter "
        "(X_cast_to_) of operator (Celu) in node () is invalid."
    )
    sig = Signature("polygraphy:fp16", "numeric", "wrong-result", ("Celu",), "op", "")
    rec = {"signature": sig.to_json(), "message": message}
    row = documented.which(sig.key, rec)
    assert row is not None and row["row"] == "1298"
    other = {"signature": sig.to_json(), "message": message.replace("tensor(float16)", "tensor(int8)")}
    assert documented.which(sig.key, other) is None


def _labelled() -> onnx.ModelProto:
    """``y = Relu(x)``, ``y: float[2, 3]`` declared with ``DATA_FEATURE`` on both dims (IR.md §Dimension denotation)."""
    f = onnx.TensorProto.FLOAT
    y = helper.make_tensor_value_info("y", f, [2, 3])
    for dim in y.type.tensor_type.shape.dim:
        dim.denotation = "DATA_FEATURE"
    graph = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["y"], name="r")], "g", [helper.make_tensor_value_info("x", f, [2, 3])], [y]
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def test_a_label_the_converters_own_shape_inference_drops_is_onnxs_row(tmp_path, monkeypatch):
    """onnxconverter-common runs onnx.shape_inference.infer_shapes first (``initial_checking``); the static dims'
    labels that inference drops (docs/found.md row 711) are dropped by the converter the same way."""
    labels = {}
    for pass_id in ("occ:float16-keep-io", "onnx:infer-shapes"):
        adapter = get_pass(pass_id)
        out = adapter.run(_labelled(), tmp_path / pass_id.replace(":", "_"))
        y = next(o for o in out.model.graph.output if o.name == "y")
        labels[pass_id] = [d.denotation for d in y.type.tensor_type.shape.dim]
    assert labels == {"occ:float16-keep-io": ["", ""], "onnx:infer-shapes": ["", ""]}
    assert get_pass("occ:float16-keep-io").steps == ("onnx:infer-shapes",)
    sig = Signature("occ:float16-keep-io", "pass-contract", "description-dropped", (), "", "dim-denotation")
    message = (
        "occ:float16-keep-io dropped what its input says of the graph's interface (dim-denotation): "
        "output 'y': dim-denotation (dim 0) 'DATA_FEATURE' -> ''"
    )
    rec = {"signature": sig.to_json(), "message": message}
    row = documented.which(sig.key, rec)
    assert row is not None and row["row"] == "711"
    monkeypatch.setattr(documented, "_steps", lambda pass_id: ())  # planted break: the step not declared
    assert documented.which(sig.key, rec) is None


def _described() -> onnx.ModelProto:
    """``y = Neg(x)``, the graph input ``x`` with a doc_string (IR.md §ValueInfo), opset 17, IR 10."""
    f = onnx.TensorProto.FLOAT
    x = helper.make_tensor_value_info("x", f, [2])
    x.doc_string = "metres"
    graph = helper.make_graph(
        [helper.make_node("Neg", ["x"], ["y"], name="n")], "g", [x], [helper.make_tensor_value_info("y", f, [2])]
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=10)


def test_what_polygraphys_folding_round_trip_drops_is_graphsurgeons_row(tmp_path, monkeypatch):
    """Polygraphy's FoldConstants goes through gs.import_onnx / gs.export_onnx, which keep a Variable's name, dtype
    and shape only (docs/found.md row 1278): a graph input's doc_string is dropped by both the same way."""
    pytest.importorskip("onnx_graphsurgeon")
    docs = {}
    for pass_id in ("polygraphy:sanitize-fold", "onnx-gs:round-trip"):
        workdir = tmp_path / pass_id.replace(":", "_")
        workdir.mkdir()
        out = get_pass(pass_id).run(_described(), workdir)
        docs[pass_id] = out.model.graph.input[0].doc_string
    assert docs == {"polygraphy:sanitize-fold": "", "onnx-gs:round-trip": ""}
    assert "onnx-gs:round-trip" in get_pass("polygraphy:sanitize-fold").steps
    sig = Signature("polygraphy:sanitize-fold", "pass-contract", "description-dropped", (), "", "doc_string")
    rec = {"signature": sig.to_json(), "message": "input 'x': doc_string 'metres' -> ''"}
    row = documented.which(sig.key, rec)
    assert row is not None and row["row"] == "1278"
    monkeypatch.setattr(documented, "_steps", lambda pass_id: ())  # planted break: the step not declared
    assert documented.which(sig.key, rec) is None


def _constant_value_float() -> onnx.ModelProto:
    """``y = Mul(x, Constant(value_float=0.5))``, ``x: float[3]``, opset 17 (Operators.md §Constant: a FLOAT scalar)."""
    f = onnx.TensorProto.FLOAT
    nodes = [
        helper.make_node("Constant", [], ["c"], value_float=0.5, name="c"),
        helper.make_node("Mul", ["x", "c"], ["y"], name="m"),
    ]
    graph = helper.make_graph(
        nodes, "g", [helper.make_tensor_value_info("x", f, [3])], [helper.make_tensor_value_info("y", f, [3])]
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


@pytest.mark.parametrize(
    ("pass_id", "gs_id"),
    [
        ("polygraphy:sanitize-fold", "onnx-gs:fold-constants"),
        ("polygraphy:sanitize-fold-no-shapes", "onnx-gs:fold-constants-no-shapes"),
        ("polygraphy:sanitize-fold-recursive", "onnx-gs:fold-constants-partition"),
    ],
)
def test_polygraphys_folding_meets_graphsurgeons_fold_rows(pass_id, gs_id, tmp_path, monkeypatch):
    """Polygraphy's FoldConstants is gs's ``Graph.fold_constants`` (with the same ``fold_shapes`` / ``partitioning``)
    after the load's InferShapes: a value_float Constant lowered to DOUBLE by both (docs/found.md row 1271) is that
    row, whichever ``--fold-constants`` id shows it (round 21i, M507)."""
    pytest.importorskip("onnx_graphsurgeon")
    types_of = {}
    for pid in (pass_id, gs_id):
        workdir = tmp_path / pid.replace(":", "_")
        workdir.mkdir()
        out = get_pass(pid).run(_constant_value_float(), workdir)
        assert out.model is not None, (pid, out.status, out.error)
        types_of[pid] = sorted({i.data_type for i in out.model.graph.initializer})
    assert types_of == {pass_id: [onnx.TensorProto.DOUBLE], gs_id: [onnx.TensorProto.DOUBLE]}
    assert get_pass(pass_id).steps == ("onnx-gs:round-trip", gs_id, "ort:symbolic-shape-infer")
    message = (
        f"the checker rejects the output of {pass_id}: InferenceError: [ShapeInferenceError] (op_type:Mul): "
        "B has inconsistent type tensor(double)"
    )
    sig = Signature(pass_id, "validity", "invalid-model", ("Mul",), "value-float", "")
    rec = {"signature": sig.to_json(), "message": message}
    row = documented.which(sig.key, rec)
    assert row is not None and row["row"] == "1271"
    monkeypatch.setattr(documented, "_steps", lambda pass_id: ())  # planted break: the steps not declared
    assert documented.which(sig.key, rec) is None


def test_a_graph_input_dim_the_auto_merge_renames_is_row_1282(tmp_path):
    """``InferShapes``' default (onnxruntime's inference, ``auto_merge=True``) merges ``B``'s dim with its broadcast
    partner's in ``C = Add(A, B)`` and writes it back on the graph input, which fails when ``A``'s dim is 1
    (Broadcasting.md): docs/found.md row 1282 (round 21i's hunt, ``hunt_831fc0d7``); a pass of another tool is not."""
    i16 = onnx.TensorProto.INT16
    graph = helper.make_graph(
        [helper.make_node("Add", ["A", "B"], ["C"])],
        "g",
        [
            helper.make_tensor_value_info("A", i16, ["n2", "A_d0", "n4"]),
            helper.make_tensor_value_info("B", i16, ["n2", "n3", "n4"]),
        ],
        [helper.make_tensor_value_info("C", i16, ["n2", "n3", "n4"])],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
    out = get_pass("polygraphy:sanitize").run(model, tmp_path)
    dims = {v.name: [d.dim_param for d in v.type.tensor_type.shape.dim] for v in out.model.graph.input}
    # which of the two symbols survives follows a set's order (hash seed): either way the inputs are made one symbol
    assert dims["A"] == dims["B"] and dims["B"] in (["n2", "A_d0", "n4"], ["n2", "n3", "n4"]), dims
    message = (
        "graph input annotation (narrowed by the pass) does not hold (binding 0): inputs disagree on symbol 'A_d0': "
        "A[1]=1, B[1]=2"
    )
    sig = Signature("polygraphy:sanitize", "annotations", "annotation-violated", ("Add",), "symbolic-input-dims", "")
    row = documented.which(sig.key, {"signature": sig.to_json(), "message": message})
    assert row is not None and row["row"] == "1282"
    other = sig.replace(pass_id="onnx:infer-shapes")
    assert documented.which(other.key, {"signature": other.to_json(), "message": message}) is None
