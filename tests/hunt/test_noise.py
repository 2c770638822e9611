"""The hunt's noise categories (issue 30): an unavailable cell is an environment fact when the form
itself is unavailable (or a pass output cannot be loaded), else its tool's stated limit; an item
the budget cut short is a budget artefact; the summary counts each apart."""

from passcheck.hunt import noise
from passcheck.records import INPUT, CellResult


def _cell(form, pass_id, status="ok", error=None):
    return CellResult("c", form, pass_id, status, error=error)


def test_classify_by_where_the_cell_became_unavailable():
    kernel = "onnxruntime here has no CPU kernel for Tan(7) (an environment fact, not a finding)"
    cells = [
        _cell("common", INPUT),
        _cell("f64", INPUT, "unavailable", kernel),
        _cell("f64", "ort:basic", "unavailable", kernel),
        _cell("common", "onnx:convert-opset-11", "unavailable", "No Adapter From Version 13 for Tan"),
        _cell("f64", "onnx:convert-opset-11", "unavailable", kernel),
        _cell(
            "common",
            "onnx:convert-opset-30",
            "unavailable",
            "the output of onnx:convert-opset-30 cannot be run here: …",
        ),
    ]
    assert noise.classify(cells) == [
        [noise.ENVIRONMENT, kernel],
        [noise.TOOL_LIMIT, "No Adapter From Version 13 for Tan"],
        [noise.ENVIRONMENT, "the output of onnx:convert-opset-30 cannot be run here: …"],
    ]


def test_counts_and_lines_separate_the_categories():
    items = [
        {"status": "done", "unavailable": [[noise.ENVIRONMENT, "a"], [noise.TOOL_LIMIT, "b"]]},
        {"status": "done", "unavailable": [[noise.ENVIRONMENT, "a"]]},
        {"status": "unfinished", "reason": "budget ran out"},
        {"status": "done"},
    ]
    got = noise.counts(items)
    assert got == {
        noise.ENVIRONMENT: {"items": 2, "reasons": {"a": 2}},
        noise.TOOL_LIMIT: {"items": 1, "reasons": {"b": 1}},
        noise.BUDGET: {"items": 1, "reasons": {"budget ran out": 1}},
    }
    text = noise.lines(items)
    assert text[0].endswith("environment facts 2 items, documented tool limits 1 items, budget artefacts 1 items")
    assert "commonest (2): a" in text[1]


def _model(node, inputs, inits=()):
    from onnx import TensorProto, helper

    ins = [helper.make_tensor_value_info(n, TensorProto.FLOAT, [2, 3]) for n in inputs]
    out = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])
    graph = helper.make_graph([node], "g", ins, [out], list(inits))
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    return model


def test_a_hunt_item_records_environment_facts_and_tool_limits_from_real_tools():
    """onnxruntime has no double Tan kernel (its float64 form is an environment fact); the version
    converter states it has no LayerNormalization below opset 17 (a documented tool limit)."""
    import numpy as np
    from onnx import TensorProto, helper, numpy_helper

    from passcheck.hunt.probe import Setting, probe
    from passcheck.mutations import forms as hforms
    from passcheck.passes.isolation import executor_for

    tan = _model(helper.make_node("Tan", ["x"], ["y"]), ["x"])
    # Tan computed in double with Casts at the boundary, written by hand: the float64-compute rewrite no
    # longer builds a form onnxruntime's kernel registry has no kernel for (passcheck/runtime/kernels.py)
    in_double = _model(helper.make_node("Tan", ["xd"], ["yd"]), ["x"])
    in_double.graph.node.insert(0, helper.make_node("Cast", ["x"], ["xd"], to=TensorProto.DOUBLE))
    in_double.graph.node.append(helper.make_node("Cast", ["yd"], ["y"], to=TensorProto.FLOAT))
    scale = numpy_helper.from_array(np.ones(3, np.float32), "s")
    ln = _model(helper.make_node("LayerNormalization", ["x", "s"], ["y"], axis=-1), ["x"], [scale])
    with executor_for(None, timeout=60) as ex:
        assert hforms.build(tan, "float64-compute") is None
        f64 = probe(Setting("t/tan"), tan, "float64-compute", in_double, "ort:basic", ex)
        renamed = hforms.build(ln, "rename-values")[0]
        down = probe(Setting("t/ln"), ln, "rename-values", renamed, "onnx:convert-opset-16", ex)
    assert f64.status == "done" and not f64.findings
    assert [c for c, _ in f64.unavailable] == [noise.ENVIRONMENT] and "Tan" in f64.unavailable[0][1]
    assert down.status == "done" and not down.findings
    assert [c for c, _ in down.unavailable] == [noise.TOOL_LIMIT] and "No Previous Version" in down.unavailable[0][1]


def test_an_item_skipped_for_a_recorded_limit_counts_as_a_tool_limit():
    skipped = {"status": "unavailable", "reason": "a limit onnx:convert-opset-down states (recorded earlier): x"}
    found = noise.counts([skipped, {"status": "done"}])
    assert found == {noise.TOOL_LIMIT: {"items": 1, "reasons": {skipped["reason"]: 1}}}
