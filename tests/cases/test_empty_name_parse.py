"""A node input or output written ``""`` builds the same model on a parser that rejects it (onnx 1.16's:
"Expected character ) not found"): the library's text forms are parsed under a stand-in name and emptied
after, and every such form of the library is byte-equal to what this onnx's own parser builds."""

from __future__ import annotations

import onnx
import onnx.parser
import pytest

from passcheck.cases import builders, registry


def _library_texts(monkeypatch) -> list[tuple[str, str]]:
    """(header, text) of every text form of the library, recorded as the real parse builds them."""
    seen: list[tuple[str, str]] = []
    real = onnx.parser.parse_model

    def recording(text: str) -> onnx.ModelProto:
        header, _, body = text.partition("\n")
        seen.append((header + "\n", body))
        return real(text)

    monkeypatch.setattr(onnx.parser, "parse_model", recording)
    for case in registry():
        for form in case.forms:
            try:
                case.build(form)
            except Exception:  # noqa: BLE001 - a form this onnx cannot build is test_library's concern
                continue
    return seen


def test_every_library_form_with_an_empty_name_parses_the_same_through_the_stand_in(monkeypatch):
    texts = [(h, t, s) for h, t in _library_texts(monkeypatch) if (s := builders._empty_names_stood_in(t)) != t]
    monkeypatch.undo()
    assert len(texts) > 20, len(texts)
    for header, text, stood_in in texts:
        direct = onnx.parser.parse_model(header + text)
        model = onnx.parser.parse_model(header + stood_in)
        builders._restore_empty_names(model)
        assert model.SerializeToString() == direct.SerializeToString(), text


@pytest.mark.parametrize(
    ("text", "kept", "names"),
    [
        ('y = Resize <mode = ""> (x, "", sc)', '<mode = "">', 1),
        ('y = Foo <strings = ["a", "", "b"]> (x)', '["a", "", "b"]', 0),
        ('"", y = LSTM <hidden_size = 2> (x, W, R)', "LSTM", 1),
        ('y = Loop(n, "", x) <body = b (int64 i, bool c) => (bool d) {\n  d = Identity(c)\n}>', "Loop", 1),
    ],
)
def test_only_node_input_and_output_names_are_stood_in(text, kept, names):
    stood_in = builders._empty_names_stood_in(f"g (float[2] x) => (float[2] y) {{\n  {text}\n}}")
    assert kept in stood_in and stood_in.count(builders.EMPTY_STAND_IN) == names, stood_in


def test_empty_names_inside_subgraphs_and_functions_are_emptied_too():
    header = '<ir_version: 8, opset_import: ["" : 18, "local" : 1]>\n'
    text = """g (float[2] x, float[2] lo) => (float[2] y, float[2] z) {
  n = Constant <value = int64 {2}> ()
  y = Loop(n, "", x) <body = b (int64 i, bool c, float[2] a) => (bool d, float[2] e) {
    d = Identity(c)
    e = Clip(a, "", lo)
  }>
  z = local.clipped(x, lo)
}

<domain: "local", opset_import: ["" : 18]>
clipped (a, hi) => (c) {
  c = Clip(a, "", hi)
}
"""
    stood_in = builders._empty_names_stood_in(text)
    assert stood_in.count(builders.EMPTY_STAND_IN) == 3
    model = onnx.parser.parse_model(header + stood_in)
    builders._restore_empty_names(model)
    assert model.SerializeToString() == onnx.parser.parse_model(header + text).SerializeToString()
