"""onnxruntime's pre-quantization step, ``onnxruntime.quantization.shape_inference.quant_pre_process``: an
onnxruntime session at its basic level writes the optimized model (constant folding, redundant-node
elimination), then onnx shape inference and onnxruntime's symbolic shape inference annotate it; the result is
written to a file. Its docstring: "Shape inference and model optimization, in preparation for quantization" —
the computation and the interface are kept, so every oracle applies.

``ort-quant:pre-process`` runs it with its defaults; ``ort-quant:pre-process-no-symbolic`` with
``skip_symbolic_shape=True`` (the flag its docstring offers for models symbolic inference does not suit).
"""

from __future__ import annotations

from pathlib import Path

from passcheck.passes._base import PassAdapter

#: id suffix → the keyword arguments given to quant_pre_process.
VARIANTS = {"pre-process": {}, "pre-process-no-symbolic": {"skip_symbolic_shape": True}}


class OrtQuantPreProcessAdapter(PassAdapter):
    """``ort-quant:<variant>``: ``quant_pre_process(model, path, **flags)``, the model read back from ``path``."""

    tools = ("onnxruntime", "onnx")
    optimizes = True
    folds_constants = True

    def __init__(self, variant: str):
        self.flags = VARIANTS[variant]
        # quant_pre_process's first step, on the model as given: SymbolicShapeInference.infer_shapes with the
        # defaults ort:symbolic-shape-infer uses (onnxruntime/quantization/shape_inference.py), unless skipped.
        self.steps = () if self.flags.get("skip_symbolic_shape") else ("ort:symbolic-shape-infer",)
        self.id = f"ort-quant:{variant}"
        args = "".join(f", {k}={v!r}" for k, v in self.flags.items())
        self.doc = f"onnxruntime.quantization.shape_inference.quant_pre_process(model, out_path{args})"

    def apply(self, model, workdir: Path):
        import os

        import onnx
        from onnxruntime.quantization.shape_inference import quant_pre_process

        out = Path(workdir) / "preprocessed.onnx"
        here = os.getcwd()
        os.chdir(workdir)  # its symbolic shape inference writes sym_shape_infer_temp.onnx into the current folder
        try:
            quant_pre_process(model, out, **self.flags)
        finally:
            os.chdir(here)
        return onnx.load(out)


ADAPTERS = tuple(OrtQuantPreProcessAdapter(v) for v in VARIANTS)
