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
