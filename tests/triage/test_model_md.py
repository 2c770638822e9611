"""REPORT.md's "Model" section (:func:`passcheck.triage.follow.model_md`): each bundle model as ONNX text,
long lines (initializer values) and long models cut, an unreadable file named with the reason."""

from __future__ import annotations

import numpy as np
import onnx
import onnx.parser
from onnx import numpy_helper

from passcheck.triage.follow import MODEL_LINE_CHARS, MODEL_LINES, model_md


def test_each_model_is_shown_as_text_with_long_lines_and_long_models_cut(tmp_path):
    small = onnx.parser.parse_model(
        '<ir_version: 8, opset_import: ["" : 17]> g (float[2] x) => (float[2] y) { y = Relu(x) }'
    )
    onnx.save(small, tmp_path / "a.onnx")
    body = "\n".join(f"  t{i} = Neg(t{i - 1})" for i in range(1, MODEL_LINES + 5))
    big = onnx.parser.parse_model(
        f'<ir_version: 8, opset_import: ["" : 17]> g (float[400] t0) => (float[400] t{MODEL_LINES + 4}) {{ {body} }}'
    )
    big.graph.initializer.append(numpy_helper.from_array(np.arange(400, dtype=np.float32), "w"))
    onnx.save(big, tmp_path / "b.onnx")
    (tmp_path / "c.onnx").write_bytes(b"not a model")
    md = model_md(tmp_path)
    assert md.index("`a.onnx` (1 node):") < md.index("`b.onnx`") < md.index("`c.onnx`: not shown ("), md
    assert "   y = Relu (x)" in md
    assert f"`b.onnx` ({MODEL_LINES + 4} nodes)" in md and "more lines in b.onnx)" in md
    assert max(len(line) for line in md.splitlines()) <= MODEL_LINE_CHARS, md


def test_a_folder_without_models_gives_no_section(tmp_path):
    assert model_md(tmp_path) == ""
