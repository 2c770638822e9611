"""The generated ``anonymous`` forms (:func:`passcheck.generate.spellings.shapes`): graph input dims with neither
dim_value nor dim_param, and output dims onnx inference cannot know declared unknown too, not under inference's
placeholder names ``unk__N`` (a declared name is a symbol: onnx_ir reads it as one and tells it apart from an unknown
dim, so a pass's shape-equality check never met two unknowns there; docs/recall.md R61). Judged with the onnx
checker and onnxruntime runs."""

from __future__ import annotations

import numpy as np
import onnx
import onnx.defs
import onnxruntime as ort

from passcheck.generate import model, recipe
from passcheck.oracles.parity import GENERATED_DIM


def _slice(shapes: str) -> onnx.ModelProto:
    schema = onnx.defs.get_schema("Slice", 13)
    return model.to_model(recipe.build_node(schema, 13), shapes)


def _dims(v: onnx.ValueInfoProto) -> list:
    return [d.dim_value if d.HasField("dim_value") else (d.dim_param or None) for d in v.type.tensor_type.shape.dim]


def test_the_anonymous_form_declares_unknown_output_dims_without_a_placeholder_name():
    m = _slice("anonymous")
    onnx.checker.check_model(m, full_check=True)
    out = _dims(m.graph.output[0])
    assert all(d is None for d in _dims(m.graph.input[0])), _dims(m.graph.input[0])
    assert out and not any(isinstance(d, str) and GENERATED_DIM.fullmatch(d) for d in out), out
    assert None in out, out  # the dims inference cannot know stay unknown, the rank stays
    static = _slice("static")
    x = np.arange(np.prod(_dims(static.graph.input[0])), dtype=np.float32).reshape(_dims(static.graph.input[0]))
    feeds = {i.name: x for i in m.graph.input}
    a, b = (ort.InferenceSession(k.SerializeToString(), providers=["CPUExecutionProvider"]) for k in (static, m))
    assert np.array_equal(a.run(None, feeds)[0], b.run(None, feeds)[0])


def test_a_symbol_the_inputs_declare_is_kept_in_the_outputs():
    m = _slice("symbolic")
    given = {d for d in _dims(m.graph.input[0]) if isinstance(d, str)}
    out = _dims(m.graph.output[0])
    assert given & set(out), (given, out)
    assert not any(isinstance(d, str) and GENERATED_DIM.fullmatch(d) for d in out), out
