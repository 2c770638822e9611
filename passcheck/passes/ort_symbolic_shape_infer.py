"""onnxruntime's symbolic shape inference tool
(``onnxruntime.tools.symbolic_shape_infer.SymbolicShapeInference``)."""

from __future__ import annotations

import os
from pathlib import Path

from passcheck.passes._base import PassAdapter, PassDeclined, default_opset


class OrtSymbolicShapeInferAdapter(PassAdapter):
    id = "ort:symbolic-shape-infer"
    tools = ("onnxruntime", "sympy")
    doc = "onnxruntime.tools.symbolic_shape_infer.SymbolicShapeInference.infer_shapes(model)"
    #: The tool refuses (logs "Only support models of onnx opset 7 and above." and returns None)
    #: any model whose ai.onnx opset is below this, or that imports no ai.onnx opset.
    min_opset = 7

    def precondition(self, model):
        opset = default_opset(model)
        if opset is None or opset < self.min_opset:
            found = "no ai.onnx opset" if opset is None else f"ai.onnx opset {opset}"
            return f"the tool supports ai.onnx opset {self.min_opset} and above; this model imports {found}"
        return None

    def apply(self, model, workdir: Path):
        from onnxruntime.tools.symbolic_shape_infer import SymbolicShapeInference

        # The tool may write sym_shape_infer_temp.onnx into the current folder: keep it in workdir.
        here = os.getcwd()
        os.chdir(workdir)
        try:
            out = SymbolicShapeInference.infer_shapes(model, auto_merge=False, guess_output_rank=False)
        finally:
            os.chdir(here)
        if out is None:  # its documented refusal is below min_opset (see precondition); any other None is unexplained
            raise PassDeclined("SymbolicShapeInference.infer_shapes returned None on a model within its supported opsets")
        return out
