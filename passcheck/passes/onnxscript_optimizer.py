"""onnxscript's graph passes: the optimizer (``onnxscript.optimizer.optimize``: constant folding,
inlining, redundancy removal), the pattern rewriter with its default rules
(``onnxscript.rewriter.rewrite``) and the onnxruntime fusions
(``onnxscript.rewriter.ort_fusions.optimize_for_ort``, which writes ``com.microsoft`` ops)."""

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


class OnnxscriptRewriteAdapter(PassAdapter):
    """``onnxscript:rewrite``: the default pattern rewrite rules (no-op removal, Min/Max → Clip,
    Pad into Conv, BatchNormalization into Conv/Gemm, collapsed Slices, …), then unused nodes,
    functions and opsets removed. No constant folding."""

    id = "onnxscript:rewrite"
    tools = ("onnxscript", "onnx-ir")
    optimizes = True
    doc = "onnxscript.rewriter.rewrite(model) with its default rules"

    def apply(self, model, workdir: Path):
        import onnxscript.rewriter

        return onnxscript.rewriter.rewrite(model)


class OnnxscriptOrtFusionAdapter(PassAdapter):
    """``onnxscript:optimize-for-ort``: onnxscript's onnxruntime fusions (Gemm → MatMul+Add, then
    GELU, (Skip)LayerNorm/RMSNorm, rotary embedding, attention, … as ``com.microsoft`` ops),
    with the onnxscript optimizer before and after (so it folds constants)."""

    id = "onnxscript:optimize-for-ort"
    tools = ("onnxscript", "onnx-ir")
    folds_constants = True
    optimizes = True
    doc = "onnxscript.rewriter.ort_fusions.optimize_for_ort(model): ORT fusions as com.microsoft ops"

    def apply(self, model, workdir: Path):
        import onnx_ir as ir
        from onnxscript.rewriter.ort_fusions import optimize_for_ort

        optimized, _counts = optimize_for_ort(ir.serde.deserialize_model(model))
        return ir.serde.serialize_model(optimized)
