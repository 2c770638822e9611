"""onnxscript's fusions into ONNX ops: ``onnxscript:onnx-fusions`` runs ``onnxscript.rewriter.onnx_fusions.fuse``
on the model's IR (``onnx_ir``, or the ``onnxscript.ir`` older releases bundle) and serializes it back.

The pass's own source (``rewriter/onnx_fusions/_onnx_fusions.py``) applies its fusions only when the model imports
ai.onnx opset 23 and returns ``{}`` (the model untouched) for any other opset; so a model at another opset is
``unavailable`` here, not judged ``ok`` for a pass that did nothing. At opset 23 it rewrites subgraphs into ONNX
ops of that opset (``rewriter/rules/fusion/``): ``x * 1/sqrt(mean(x^2) + eps) * scale`` into RMSNormalization-23,
the rotate-half rotary embedding into RotaryEmbedding-23, and the grouped-query attention pattern into
Attention-23. Each fusion states it keeps the model's values, so the numeric, validity and annotation oracles apply
as to any optimizing pass. Unlike ``optimize_for_ort`` it runs no optimizer before or after (no constant folding).
"""

from __future__ import annotations

from pathlib import Path

from passcheck.passes import onnxscript_ir
from passcheck.passes.onnxscript_optimizer import _OnnxscriptAdapter

ID = "onnxscript:onnx-fusions"
#: The only ai.onnx opset ``fuse`` acts on (its ``_opset_23_fuse``).
OPSET = 23


def _fuse():
    """``onnxscript.rewriter.onnx_fusions.fuse``, or None where the installed onnxscript has none."""
    try:
        from onnxscript.rewriter.onnx_fusions import fuse
    except ImportError:
        return None
    return fuse


class OnnxscriptOnnxFusionsAdapter(_OnnxscriptAdapter):
    """``onnxscript:onnx-fusions``: ``onnx_fusions.fuse(ir_model)`` in place, serialized back (module docs).

    Unavailable without ``onnxscript.rewriter.onnx_fusions`` (onnxscript before 0.3) or for a model whose ai.onnx
    opset is not 23. Raises (from :meth:`apply`, recorded as ``crashed``): whatever the fusions raise.
    """

    id = ID
    optimizes = True
    #: ``fuse`` acts on this opset only, stated as data: ``why_not`` makes any other ``unavailable``, the hunt draws
    #: no base outside it (:mod:`passcheck.hunt.pass_range`).
    min_opset = OPSET
    max_opset = OPSET
    doc = "onnxscript.rewriter.onnx_fusions.fuse(ir_model): RMSNormalization / RotaryEmbedding / Attention at opset 23"

    def unavailable_reason(self) -> str | None:
        if (why := super().unavailable_reason()) is not None:
            return why
        if _fuse() is None:
            return "this onnxscript has no onnxscript.rewriter.onnx_fusions"
        return None

    def apply(self, model, workdir: Path):
        ir = onnxscript_ir.ir_module()
        m = ir.serde.deserialize_model(model)
        _fuse()(m)
        return ir.serde.serialize_model(m)
