"""A planted pass for the transformer fusion bases (cases/fusions_rotary.py): the real onnxscript
``optimize_for_ort``, then a wrong attribute on the fused op it emits. Only a base whose common form
reaches com.microsoft RotaryEmbedding (fusion-rotary/*) can show it; the numeric oracle catches it."""

from __future__ import annotations

import onnx
import onnx.helper


def rope_interleaved(model: onnx.ModelProto) -> onnx.ModelProto:
    """optimize_for_ort, then every com.microsoft RotaryEmbedding marked ``interleaved = 1``.

    interleaved rotates the channel pairs (0, 1), (2, 3), … instead of the halves (i, i + Dh/2) that
    rotate_half computes (onnxruntime ContribOperators.md RotaryEmbedding): a fusion emitting the
    wrong layout flag.
    """
    import onnx_ir as ir
    from onnxscript.rewriter.ort_fusions import optimize_for_ort

    fused, _ = optimize_for_ort(ir.serde.deserialize_model(model))
    out = ir.serde.serialize_model(fused)
    for node in out.graph.node:
        if node.domain == "com.microsoft" and node.op_type == "RotaryEmbedding":
            kept = [a for a in node.attribute if a.name != "interleaved"]
            del node.attribute[:]
            node.attribute.extend([*kept, onnx.helper.make_attribute("interleaved", 1)])
    return out
