"""The schema-built families' one gate (``passcheck/cases/schema_gate.py``, M353), the contrib recipes the schema text
gives (``cases/contrib_ops.py`` ``ROWS``, M354; their bases run in ``tests/cases/test_contrib_ops.py``) and the
stated-default spelling (M355), with real onnxruntime sessions in passcheck's isolation worker: the gate keeps a base
onnxruntime runs and refuses one it cannot run, with the form and the reason; docs/found.md row 1080 (an optional zero
point written as an empty name refused by onnxruntime's type inference) is what it refuses."""

from __future__ import annotations

import sys

import onnx
import onnx.helper as oh

from passcheck.cases import registry, schema_gate
from passcheck.passes.isolation import IsolatedExecutor
from passcheck.runtime import ort_schemas

T = onnx.TensorProto


def _library():
    """The registry with the gated library families registered (lazy sources: passcheck.cases.sources.GatedModule)."""
    reg = registry()
    reg.claim_library()
    return reg


def _module():
    _library()  # loads the built-in library, the contrib family's module among it
    return sys.modules["passcheck._library.contrib_ops"]


def _one(op: str, domain: str = "", out_elem: int = T.FLOAT, **attrs):
    """A one-node model: X float (2, 3) → op → Y (rank 2: the checker asks a shape of graph outputs)."""
    node = oh.make_node(op, ["X"], ["Y"], domain=domain, **attrs)
    graph = oh.make_graph(
        [node],
        "g",
        [oh.make_tensor_value_info("X", T.FLOAT, [2, 3])],
        [oh.make_tensor_value_info("Y", out_elem, [2, 3])],
    )
    opsets = [oh.make_opsetid("", 17)] + ([oh.make_opsetid(domain, 1)] if domain else [])
    return oh.make_model(graph, opset_imports=opsets, ir_version=8)


def test_the_gate_keeps_a_base_onnxruntime_runs_and_refuses_one_it_cannot():
    relu, neg = _one("Relu"), _one("Neg")
    # a contrib op with no CPU kernel for float (Gelu's is float only: int64 output type makes the session refuse)
    refused = _one("Gelu", "com.microsoft", out_elem=T.INT64)
    keep = schema_gate.Candidate("t/keep", {"common": lambda _r: relu, "same": lambda _r: relu})
    differ = schema_gate.Candidate("t/differ", {"common": lambda _r: relu, "other": lambda _r: neg})
    # two contrib ops the reference evaluator does not hold: onnxruntime's own outputs are all that tells them apart
    gelu, quick = _one("Gelu", "com.microsoft"), _one("QuickGelu", "com.microsoft")
    differ_ort = schema_gate.Candidate("t/differ-ort", {"common": lambda _r: gelu, "other": lambda _r: quick})
    bad = schema_gate.Candidate("t/bad", {"common": lambda _r: refused, "same": lambda _r: refused})
    out = schema_gate.judge_all([keep, differ, differ_ort, bad])
    assert out["t/keep"] == {"forms": {"common": "", "same": ""}, "ranks": {"Y": 2}}
    assert schema_gate.kept_forms(out["t/keep"]) == ["common", "same"]
    # a form that computes something else is refused, named, the common form kept
    assert out["t/differ"]["forms"]["common"] == ""
    assert "differs from the common form's" in out["t/differ"]["forms"]["other"]
    assert out["t/differ-ort"]["forms"]["common"] == ""
    assert out["t/differ-ort"]["forms"]["other"].startswith("output 'Y' differs from the common form's")
    # onnxruntime cannot run the common form: every form refused, theirs say it was common's failure
    assert out["t/bad"]["forms"]["common"].startswith("does not run: ")
    assert out["t/bad"]["forms"]["same"].startswith("common: does not run: ")
    assert schema_gate.kept_forms(out["t/bad"]) == []


def test_the_gate_runs_every_tool_in_the_worker_and_the_reference_evaluator_decides_where_it_has_the_op():
    """A form the checker refuses is refused (the full checker, in the worker), and a form onnxruntime and the
    reference evaluator compute differently is refused by the evaluator's word; a contrib op the evaluator does not
    hold is judged by onnxruntime alone."""
    relu = _one("Relu")
    no_shape = _one("Relu")
    no_shape.graph.output[0].type.tensor_type.ClearField("shape")
    gelu = _one("Gelu", "com.microsoft")
    with IsolatedExecutor(timeout=60) as ex:
        v = schema_gate.judge(schema_gate.Candidate("t/c", {"common": lambda _r: relu, "x": lambda _r: no_shape}), ex)
        g = schema_gate.judge(schema_gate.Candidate("t/g", {"common": lambda _r: gelu, "same": lambda _r: gelu}), ex)
    assert v["forms"]["x"].startswith("checker: ") and "shape" in v["forms"]["x"]
    assert g["forms"] == {"common": "", "same": ""}  # the evaluator: "Node type 'Gelu' from domain ... is unknown"


def test_the_cache_key_follows_its_parts(tmp_path):
    a = schema_gate.gate_key(("gen-1",))
    assert a == schema_gate.gate_key(("gen-1",)) != schema_gate.gate_key(("gen-2",))
    f = tmp_path / "family.py"
    f.write_text("x = 1\n")
    before = schema_gate.gate_key((f,))
    f.write_text("x = 2\n")
    assert schema_gate.gate_key((f,)) != before


def test_the_stated_defaults_come_from_the_schema_text():
    mod = _module()
    by_name = {s.name: s for s in ort_schemas.schemas("com.microsoft")}
    qadd = {p.name: p for p in by_name["QLinearAdd"].inputs}
    assert mod.stated_default(qadd["A_zero_point"]) == 0.0  # "Default value is 0 if it's not specified"
    assert mod.stated_default(qadd["A_scale"]) is None  # required: no freedom
    mm = {p.name: p for p in by_name["MatMulIntegerToFloat"].inputs}
    assert mod.stated_default(mm["b_zero_point"]) == 0.0  # "It's optional and default value is 0."


def test_row_1080_a_zero_point_left_out_by_an_empty_name_is_refused_and_the_gate_says_so():
    """QLinearAdd's A_zero_point given as its stated default 0 runs; written "" (IR.md §Nodes: an optional input
    left out) onnxruntime's type inference refuses the model (``ValidateTypeAndShapeForScaleAndZP`` fails on the
    missing input's type); the gate drops the pair with that reason and keeps the trailing C_zero_point's pair."""
    mod = _module()
    out = mod._gate(("QLinearAdd",))
    why = out["dropped"]["contrib/qlinearadd-1.stated-default.a-zero-point"]
    assert why.startswith("omitted: does not run:") and "Input data type does not match" in why
    assert "contrib/qlinearadd-1.stated-default.c-zero-point" in out["kept"]
    assert "contrib/qlinearadd-1.shape" in out["kept"]
