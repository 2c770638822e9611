"""onnxruntime's symbolic shape inference tool
(``onnxruntime.tools.symbolic_shape_infer.SymbolicShapeInference``)."""

from __future__ import annotations

from pathlib import Path

from passcheck.passes._base import PassAdapter, PassDeclined


class OrtSymbolicShapeInferAdapter(PassAdapter):
    id = "ort:symbolic-shape-infer"
    tools = ("onnxruntime", "sympy")
    doc = "onnxruntime.tools.symbolic_shape_infer.SymbolicShapeInference.infer_shapes(model)"

    def apply(self, model, workdir: Path):
        from onnxruntime.tools.symbolic_shape_infer import SymbolicShapeInference

        out = SymbolicShapeInference.infer_shapes(model, auto_merge=False, guess_output_rank=False)
        if out is None:  # the tool's own way of refusing: not every shape could be inferred
            raise PassDeclined("SymbolicShapeInference.infer_shapes returned None (could not infer every shape)")
        return out
