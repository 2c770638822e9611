"""What one onnxruntime transformer's fault hides (``passcheck.attribution.peel``), on real sessions of the installed
onnxruntime, each in the isolation worker; and the attribution candidates the installed build registers under its
own names (``LayerNormFusionL1``)."""

from __future__ import annotations

import json

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from passcheck.attribution.ort import candidates
from passcheck.attribution.peel import peel, said
from passcheck.cli import main
from passcheck.oracles.ort_levels import registered
from passcheck.passes.isolation import IsolatedExecutor


def _f(name, values):
    return numpy_helper.from_array(np.asarray(values, np.float32), name)


def _layernorm_widened(prefix="", x="x", out="out"):
    """A decomposed LayerNorm over a last axis of 1 whose trailing ``Mul`` / ``Add`` operands have 2 elements: the
    output is ``[1, 2]`` (Broadcasting.md); a ``LayerNormalization`` keeps its input's shape, so a fusion that takes
    the operands for its scale and bias fails at run time (microsoft/onnxruntime#32603, open)."""
    p = prefix
    nodes = [
        helper.make_node("ReduceMean", [x], [p + "mn"], axes=[-1]),
        helper.make_node("Sub", [x, p + "mn"], [p + "ct"]),
        helper.make_node("Pow", [p + "ct", p + "two"], [p + "sq"]),
        helper.make_node("ReduceMean", [p + "sq"], [p + "vr"], axes=[-1]),
        helper.make_node("Add", [p + "vr", p + "eps"], [p + "ve"]),
        helper.make_node("Sqrt", [p + "ve"], [p + "sd"]),
        helper.make_node("Div", [p + "ct", p + "sd"], [p + "nm"]),
        helper.make_node("Mul", [p + "nm", p + "scale"], [p + "sc"]),
        helper.make_node("Add", [p + "sc", p + "bias"], [out]),
    ]
    inits = [_f(p + "two", 2.0), _f(p + "eps", 1e-5), _f(p + "scale", [0.5, 2.0]), _f(p + "bias", [1.0, -1.0])]
    return nodes, inits


def _div_mul_rank():
    """``Mul(Div(one, x), z)``, ``one: [1, 1, 1]``: the output is ``[1, 2, 3]``; DivMulFusion's ``z / x`` drops the
    leading 1 (docs/found.md row 310)."""
    return [helper.make_node("Div", ["one", "x2"], ["d"]), helper.make_node("Mul", ["d", "z"], ["y"])], [
        _f("one", np.ones((1, 1, 1)))
    ]


def _model(parts, inputs, outputs):
    nodes = [n for p in parts for n in p[0]]
    inits = [t for p in parts for t in p[1]]
    vi = helper.make_tensor_value_info
    g = helper.make_graph(
        nodes,
        "g",
        [vi(n, TensorProto.FLOAT, s) for n, s in inputs],
        [vi(n, TensorProto.FLOAT, s) for n, s in outputs],
        inits,
    )
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
    onnx.checker.check_model(m, full_check=True)
    return m


def _needs(name):
    if name not in (registered() or {}):
        pytest.skip(f"the installed onnxruntime registers no {name}")


def test_a_failed_run_hides_a_wrong_output_and_each_layer_is_named():
    """One model, two independent faults of onnxruntime's basic level: the LayerNorm fusion makes the run fail, so no
    output is seen and DivMulFusion's wrong shape stays hidden; with the first fault's transformer held disabled the
    second shows, and is named in its turn."""
    _needs("LayerNormFusionL1")
    model = _model(
        [_layernorm_widened(), _div_mul_rank()],
        [("x", [1, 1]), ("x2", [2, 3]), ("z", [2, 3])],
        [("out", [1, 2]), ("y", [1, 2, 3])],
    )
    with IsolatedExecutor() as ex:
        got = peel(model, "basic", ex.call)
    assert [(layer.failure.kind, layer.names, layer.held) for layer in got.layers] == [
        ("rejected", ("LayerNormFusionL1",), ()),
        ("wrong-result", ("DivMulFusion",), ("LayerNormFusionL1",)),
    ], said(got)
    assert got.layers[1].failure.outputs == ("y",)
    assert "shape [2, 3] vs expected [1, 2, 3]" in got.layers[1].failure.text
    assert got.note.startswith("checked: with every named transformer disabled the form runs right")
    assert "hidden under LayerNormFusionL1: DivMulFusion: wrong-result" in said(got)


def test_the_build_s_own_transformer_names_are_candidates():
    """The fusion that fails the run registers as ``LayerNormFusionL1`` (microsoft/onnxruntime#21332), a name the
    table read from the sources lacks: the candidates hold it, and the fault is named by it."""
    _needs("LayerNormFusionL1")
    assert {"LayerNormFusionL1", "GeluFusionL1"} <= set(candidates("basic"))
    assert "LayerNormFusionL2" not in candidates("basic") and "LayerNormFusionL2" in candidates("extended")
    model = _model([_layernorm_widened()], [("x", [1, 1])], [("out", [1, 2])])
    with IsolatedExecutor() as ex:
        got = peel(model, "basic", ex.call)
        right = peel(
            _model([([helper.make_node("Relu", ["x"], ["r"])], [])], [("x", [2])], [("r", [2])]), "basic", ex.call
        )
    assert [layer.names for layer in got.layers] == [("LayerNormFusionL1",)], said(got)
    assert got.layers[0].failure.kind == "rejected" and "LayerNormalization" in got.layers[0].failure.text
    # a form the level runs right: nothing to peel
    assert right.layers == [] and right.note.startswith("not reproduced"), said(right)


def test_attribute_names_the_transformer_behind_a_wrong_result_finding(tmp_path, capsys):
    """``passcheck check`` finds DivMulFusion's wrong shape (a numeric ``wrong-result`` of ``ort:basic``);
    ``passcheck attribute --finding`` names the transformer and says nothing else was hidden."""
    path = tmp_path / "divmul.onnx"
    onnx.save(_model([_div_mul_rank()], [("x2", [2, 3]), ("z", [2, 3])], [("y", [1, 2, 3])]), path)
    report = tmp_path / "r.json"
    main(["check", str(path), "--pass", "ort:basic", "--json", str(report), "-q", "--progress", "none"])
    ids = [f["id"] for c in json.loads(report.read_text())["results"] for f in c.get("findings", [])]
    (wrong,) = [i for i in ids if i.endswith("ort:basic|numeric|wrong-result")]
    capsys.readouterr()
    assert main(["attribute", str(report), "--finding", wrong]) == 0
    out = capsys.readouterr().out
    assert f"{wrong} | local: attributed to: DivMulFusion (DivMulFusion: wrong-result: output 'y'" in out, out
    assert "checked: with every named transformer disabled the form runs right" in out
    stored = [f for c in json.loads(report.read_text())["results"] for f in c.get("findings", []) if f["id"] == wrong]
    assert stored and stored[0]["attribution"] == ["DivMulFusion"]
