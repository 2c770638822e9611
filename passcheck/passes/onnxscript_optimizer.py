"""onnxscript's graph passes: the optimizer (``onnxscript.optimizer.optimize``: constant folding,
inlining, redundancy removal), the pattern rewriter with its default rules
(``onnxscript.rewriter.rewrite``) and the onnxruntime fusions
(``onnxscript.rewriter.ort_fusions.optimize_for_ort``, which writes ``com.microsoft`` ops).
Each runs on the IR the installed onnxscript uses (``onnx_ir``, or the ``onnxscript.ir`` older
releases bundle: :mod:`passcheck.passes.onnxscript_ir`)."""

from __future__ import annotations

from pathlib import Path

from passcheck.passes import onnxscript_ir
from passcheck.passes._base import PassAdapter


class _OnnxscriptAdapter(PassAdapter):
    """An onnxscript pass: available with onnxscript and either IR (onnx-ir's version is None
    where the bundled one is used)."""

    tools = ("onnxscript", "onnx-ir")
    warm = ("onnxscript",)

    def unavailable_reason(self) -> str | None:
        return onnxscript_ir.missing_reason()


class OnnxscriptOptimizerAdapter(_OnnxscriptAdapter):
    id = "onnxscript:optimize"
    folds_constants = True
    optimizes = True
    doc = "onnxscript.optimizer.optimize(model) with its defaults"

    def apply(self, model, workdir: Path):
        import onnxscript.optimizer

        return onnxscript.optimizer.optimize(model)


class OnnxscriptRewriteAdapter(_OnnxscriptAdapter):
    """``onnxscript:rewrite``: the default pattern rewrite rules (no-op removal, Min/Max → Clip,
    Pad into Conv, BatchNormalization into Conv/Gemm, collapsed Slices, …), then unused nodes,
    functions and opsets removed. No constant folding."""

    id = "onnxscript:rewrite"
    optimizes = True
    doc = "onnxscript.rewriter.rewrite(model) with its default rules"

    def apply(self, model, workdir: Path):
        import onnxscript.rewriter

        return onnxscript.rewriter.rewrite(model)


class OnnxscriptOrtFusionAdapter(_OnnxscriptAdapter):
    """``onnxscript:optimize-for-ort``: onnxscript's onnxruntime fusions (Gemm → MatMul+Add, then
    GELU, (Skip)LayerNorm/RMSNorm, rotary embedding, attention, … as ``com.microsoft`` ops),
    with the onnxscript optimizer before and after (so it folds constants)."""

    id = "onnxscript:optimize-for-ort"
    folds_constants = True
    optimizes = True
    doc = "onnxscript.rewriter.ort_fusions.optimize_for_ort(model): ORT fusions as com.microsoft ops"

    def apply(self, model, workdir: Path):
        from onnxscript.rewriter.ort_fusions import optimize_for_ort

        ir = onnxscript_ir.ir_module()
        m = ir.serde.deserialize_model(model)
        return ir.serde.serialize_model(onnxscript_ir.fused_model(optimize_for_ort(m), m))
