"""Rows 450 and 1277 met by a fresh pair through their ``match`` rules (round 22c, M518). Both defects are one
spelling's meaning: IR.md §Graphs, an initializer named like a graph input is that input's default, which a caller
may override (``vary:default-fed`` feeds it another value). onnx's shape inference reads the default as a constant
(row 450: the inferred annotation fails on the fed run); onnx-graphsurgeon's importer drops the graph input (row
1277: the fed value is ignored). Their findings carry no words of their own (an annotation or a shape differs), so
the rules name the rewrite (``documented.matches``' ``rewrite``), and a pass that runs the tool whole
(``polygraphy:infer-shapes`` → ``onnx:infer-shapes``, ``polygraphy:sanitize-fold*`` → ``onnx-gs:round-trip``) meets
them through its ``steps``."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import helper, numpy_helper

from passcheck.hunt import documented
from passcheck.passes import get_pass
from passcheck.signature import Signature

pytest.importorskip("onnx_graphsurgeon")
pytest.importorskip("polygraphy")


def _overridable_shape() -> onnx.ModelProto:
    """``y = Reshape(x, s)``, ``x: float[2, 3, 4]``, ``s: int64[2]`` a graph input whose initializer ``[4, 6]`` is
    its default, ``y: float[?, ?]``; opset 14, IR 8 (row 450's model)."""
    f = onnx.TensorProto.FLOAT
    graph = helper.make_graph(
        [helper.make_node("Reshape", ["x", "s"], ["y"], name="reshape")],
        "g",
        [helper.make_tensor_value_info("x", f, [2, 3, 4]), helper.make_tensor_value_info("s", 7, [2])],
        [helper.make_tensor_value_info("y", f, [None, None])],
        [numpy_helper.from_array(np.array([4, 6], np.int64), "s")],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)], ir_version=8)


def _record(pass_id: str, oracle: str, kind: str, message: str, rewrite: str = "vary:default-fed") -> tuple[str, dict]:
    sig = Signature(pass_id, oracle, kind, ("Reshape",), rewrite, "")
    return sig.key, {"signature": sig.to_json(), "message": message}


@pytest.mark.parametrize("pass_id", ["onnx:infer-shapes", "polygraphy:infer-shapes"])
def test_a_fed_default_read_as_a_constant_is_row_450(pass_id, tmp_path):
    out = get_pass(pass_id).run(_overridable_shape(), tmp_path)
    dims = [d.dim_value for d in out.model.graph.output[0].type.tensor_type.shape.dim]
    assert dims == [4, 6]  # the default's values: fed s = [6, 4] runs to shape (6, 4)
    message = "annotation does not hold (binding 0): y: axis 0 annotated 4, run produced 6 (shape [6, 4])"
    row = documented.which(*_record(pass_id, "annotations", "annotation-violated", message))
    assert row is not None and row["row"] == "450"
    other = documented.which(*_record(pass_id, "annotations", "annotation-violated", message, "neutral-op"))
    assert other is None or other["row"] != "450"


@pytest.mark.parametrize("pass_id", ["onnx-gs:round-trip", "polygraphy:sanitize-fold"])
def test_a_fed_default_dropped_is_row_1277(pass_id, tmp_path):
    out = get_pass(pass_id).run(_overridable_shape(), tmp_path)
    assert [i.name for i in out.model.graph.input] == ["x"]  # the overridable default is no graph input any more
    message = "output 'y' (binding 0): shape [4, 6] vs expected [6, 4]"
    row = documented.which(*_record(pass_id, "numeric", "wrong-result", message))
    assert row is not None and row["row"] == "1277"


def test_without_the_rewrite_field_a_fresh_pair_is_new(monkeypatch):
    """Planted break: rules that ignore ``rewrite`` (as before M518) cannot name these rows: the entries hold no
    rule without it, and a rule without it would claim every wrong result of the pass."""
    key, rec = _record("polygraphy:infer-shapes", "annotations", "annotation-violated", "annotation does not hold")
    strip = [
        {**e, "match": [r for r in documented.rules(e) if "rewrite" not in r]} if "match" in e else e
        for e in documented.entries()
    ]
    monkeypatch.setattr(documented, "entries", lambda: tuple(strip))
    assert documented.which(key, rec) is None
