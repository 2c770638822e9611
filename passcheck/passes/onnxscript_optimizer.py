"""The onnxscript optimizer (``onnxscript.optimizer.optimize``): constant folding, inlining,
redundancy removal."""

from __future__ import annotations

from pathlib import Path

from passcheck.passes._base import PassAdapter


class OnnxscriptOptimizerAdapter(PassAdapter):
    id = "onnxscript:optimize"
    tools = ("onnxscript", "onnx-ir")
    folds_constants = True
    optimizes = True
    doc = "onnxscript.optimizer.optimize(model) with its defaults"

    def apply(self, model, workdir: Path):
        import onnxscript.optimizer

        return onnxscript.optimizer.optimize(model)
