"""onnx shape inference (``onnx.shape_inference.infer_shapes``) in four modes: plain, strict (type checks and
errors raised), with data propagation, and strict with data propagation (the propagators' own errors raised: the
mode that shows a propagator failing rather than only the precision it loses)."""

from __future__ import annotations

from pathlib import Path

from passcheck.passes._base import PassAdapter, PassDeclined

VARIANTS = {
    "infer-shapes": dict(check_type=False, strict_mode=False, data_prop=False),
    "infer-shapes-strict": dict(check_type=True, strict_mode=True, data_prop=False),
    "infer-shapes-data-prop": dict(check_type=False, strict_mode=False, data_prop=True),
    "infer-shapes-data-prop-strict": dict(check_type=True, strict_mode=True, data_prop=True),
}


class OnnxShapeInferenceAdapter(PassAdapter):
    tools = ("onnx",)

    def __init__(self, variant: str):
        self.variant = variant
        self.id = f"onnx:{variant}"
        flags = ", ".join(f"{k}={v}" for k, v in VARIANTS[variant].items())
        self.doc = f"onnx.shape_inference.infer_shapes({flags})"

    def apply(self, model, workdir: Path):
        import onnx.shape_inference

        try:
            return onnx.shape_inference.infer_shapes(model, **VARIANTS[self.variant])
        except (onnx.shape_inference.InferenceError, onnx.checker.ValidationError) as exc:
            raise PassDeclined(f"{type(exc).__name__}: {exc}") from exc
