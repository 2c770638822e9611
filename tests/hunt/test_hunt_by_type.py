"""M465: a base the gate keeps for the converters only (tag ``declared-passes-only``: an adapter-source base, an op
at an older schema version) is also searched under the passes that declare they treat its op by type
(``PassAdapter.by_type``: the float16 conversion's block list and always-float inputs). Such a pass reads the
op's inputs by position from a table keyed by op type alone, and the schema's inputs are per version (Operators.md
Resize-10: ``X, scales``; Resize-11+: ``X, roi, scales, sizes``). Real tools: the installed onnxruntime's float16
module, the engine and onnx's checker; a planted pass with the pre-1.25 table (Resize's scales at index 2 only) is
found on a Resize-10 base, and the plan of ``--pass`` now draws it there."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from passcheck.case_model import DECLARED_ONLY, Case, Form
from passcheck.hunt import passes
from passcheck.passes import FunctionAdapter, known_pass_ids, register_pass

PLANTED = "planted:float16-by-index"


def _resize10() -> onnx.ModelProto:
    """``y = Resize-10(x, scales)``, nearest ×2 on H and W, the scales a float initializer (input 1)."""
    scales = numpy_helper.from_array(np.array([1, 1, 2, 2], np.float32), "scales")
    g = helper.make_graph(
        [helper.make_node("Resize", ["x", "scales"], ["y"], mode="nearest")],
        "resize10",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, 2, 2])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 1, 4, 4])],
        [scales],
    )
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 10)], ir_version=5)


def _case(op: str) -> Case:
    tags = frozenset({"generated", "adapter-source", DECLARED_ONLY, f"op:{op}"})
    forms = {"common": Form(_resize10), "again": Form(_resize10, "the same model")}
    return Case(
        id=f"by-type-test/{op.lower()}-10",
        forms=forms,
        doc="tests only",
        opset=10,
        passes=("onnx:convert-opset-up",),
        tags=tags,
    )


def _by_index(model: onnx.ModelProto) -> onnx.ModelProto:
    """A planted float16 conversion whose always-float table names Resize's input 2 only (onnxruntime ≤ 1.24's
    ``ALWAYS_FLOAT_INPUTS``): every other float initializer a Resize reads becomes float16."""
    m = onnx.ModelProto()
    m.CopyFrom(model)
    keep = {n.input[2] for n in m.graph.node if n.op_type == "Resize" and len(n.input) > 2}
    for init in m.graph.initializer:
        if init.data_type == TensorProto.FLOAT and init.name not in keep:
            init.CopyFrom(numpy_helper.from_array(numpy_helper.to_array(init).astype(np.float16), init.name))
    return m


class _ByIndex(FunctionAdapter):
    by_type = frozenset({"Resize"})


def _register() -> None:
    if PLANTED not in known_pass_ids():
        register_pass(_ByIndex(PLANTED, _by_index))


def test_the_float16_conversion_declares_resize_and_a_declared_only_resize_base_draws_it():
    from passcheck.passes import get_pass

    assert "Resize" in get_pass("ort-transformers:float16").by_type  # the installed float16.ALWAYS_FLOAT_INPUTS
    resize, relu = _case("Resize"), _case("Relu")
    bases = [SimpleNamespace(case=resize), SimpleNamespace(case=relu)]
    plan = passes.explicit(["ort:basic", "ort-transformers:float16", "onnx:convert-opset-up"], bases)
    assert plan.of(f"{resize.id}:common") == ("ort-transformers:float16", "onnx:convert-opset-up")
    assert plan.of(f"{relu.id}:common") == ("onnx:convert-opset-up",)  # nothing treats Relu by type
    assert passes.treats_op("ort-transformers:float16", resize) and not passes.treats_op("ort:basic", resize)


def test_without_a_pass_list_the_relevant_set_of_a_declared_only_base_holds_the_by_type_passes():
    _register()
    resize = _case("Resize")
    plan = passes.relevant([SimpleNamespace(case=resize)], available=lambda p: None)
    got = plan.of(f"{resize.id}:common")
    assert "onnx:convert-opset-up" in got and PLANTED in got and "ort-transformers:float16" in got
    assert not set(got) & {"ort:basic", "onnx:infer-shapes"}  # the defaults stay out of a declared-only base


def test_a_planted_by_index_float16_table_is_found_on_the_resize10_base():
    from passcheck.api import check_model

    _register()
    report = check_model(_resize10(), [PLANTED], isolation=False, synthesize_feeds=True)
    found = [f for f in report.findings if f.pass_id == PLANTED and f.oracle == "validity"]
    assert found, [(f.pass_id, f.oracle, f.message) for f in report.findings]
    assert any("scales" in f.message for f in found)
    onnx.checker.check_model(_resize10(), full_check=True)  # the base itself is valid
