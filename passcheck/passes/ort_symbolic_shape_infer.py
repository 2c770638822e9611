"""onnxruntime's symbolic shape inference tool
(``onnxruntime.tools.symbolic_shape_infer.SymbolicShapeInference``)."""

from __future__ import annotations

import os
from pathlib import Path

from passcheck.passes._base import PassAdapter, PassDeclined


class OrtSymbolicShapeInferAdapter(PassAdapter):
    id = "ort:symbolic-shape-infer"
    warm = ("sympy",)  # the tool's module imports it (onnxruntime itself starts threads: not warmed)
    tools = ("onnxruntime", "sympy")
    doc = "onnxruntime.tools.symbolic_shape_infer.SymbolicShapeInference.infer_shapes(model)"
    #: The tool refuses (logs "Only support models of onnx opset 7 and above." and returns None)
    #: any model whose ai.onnx opset is below this, or that imports no ai.onnx opset
    #: (:meth:`Capabilities.outside` makes such a model ``unavailable``).
    min_opset = 7

    def apply(self, model, workdir: Path):
        from onnxruntime.tools.symbolic_shape_infer import SymbolicShapeInference

        # The tool may write sym_shape_infer_temp.onnx into the current folder: keep it in workdir.
        here = os.getcwd()
        os.chdir(workdir)
        try:
            out = SymbolicShapeInference.infer_shapes(model, auto_merge=False, guess_output_rank=False)
        finally:
            os.chdir(here)
        if (
            out is None
        ):  # its documented refusal is below min_opset (see the class attribute); any other None is unexplained
            raise PassDeclined(
                "SymbolicShapeInference.infer_shapes returned None on a model within its supported opsets"
            )
        return out
