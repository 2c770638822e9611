"""onnxruntime's pre-processing for its QNN execution provider,
``onnxruntime.quantization.execution_providers.qnn.preprocess.qnn_preprocess_model``: onnx shape inference and an
onnxruntime session at its basic level write the model (``tools.onnx_model_utils.optimize_model``), then the
fusions of ``quantization/fusions`` run on it: the Erf form of Gelu into ``Gelu`` (``FusionGelu``), a ReduceL2
sequence into ``LpNormalization`` (qnn's ``FusionLpNormalization``), a Reshape / Transpose sequence into
``SpaceToDepth`` (``FusionSpaceToDepth``) and, with ``fuse_layernorm=True`` at ai.onnx opset 17 and up, a
ReduceMean sequence into ``LayerNormalization`` (``FusionLayerNormalization``); every unnamed node but a Constant is
named. Its docstring: a "pre-processed" model "in preparation for quantization" — the computation and the interface
are kept, so every oracle applies.

- ``ort-quant:qnn-preprocess``: ``qnn_preprocess_model(model, out, fuse_layernorm=True)``.
- ``ort-quant:qnn-preprocess-exclude-inputs``: also ``exclude_initializer_from_input=True``
  (``tools.remove_initializer_from_input``: a graph input that an initializer of the same name backs is no longer
  an input; IR.md: such an input is one a caller may feed, so the interface changes by request — the pass contract
  compares inputs the model had without an initializer only).

It writes nothing when none of its steps changed the model (it returns False): the adapter then returns the model
it was given (``unchanged``).

Raises (from :meth:`apply`, recorded as ``crashed``): whatever ``qnn_preprocess_model`` raises; an ImportError
where the release has no ``execution_providers.qnn`` package (onnxruntime before 1.17).
"""

from __future__ import annotations

from pathlib import Path

from passcheck.passes._base import PassAdapter

#: id suffix → keyword arguments of ``qnn_preprocess_model``.
VARIANTS = {
    "qnn-preprocess": {"fuse_layernorm": True},
    "qnn-preprocess-exclude-inputs": {"fuse_layernorm": True, "exclude_initializer_from_input": True},
}


class OrtQnnPreprocessAdapter(PassAdapter):
    """``ort-quant:qnn-preprocess*`` (module docs); the model read back from the file it writes."""

    tools = ("onnxruntime", "onnx")
    optimizes = True
    folds_constants = True  # its first step is an onnxruntime session at the basic level

    def __init__(self, variant: str):
        self.flags = VARIANTS[variant]
        self.id = f"ort-quant:{variant}"
        args = "".join(f", {k}={v!r}" for k, v in self.flags.items())
        self.doc = f"onnxruntime.quantization.execution_providers.qnn.qnn_preprocess_model(model, out_path{args})"

    def apply(self, model, workdir: Path):
        import logging

        import onnx
        from onnxruntime.quantization.execution_providers.qnn.preprocess import qnn_preprocess_model

        logging.getLogger().setLevel(logging.ERROR)  # it warns (logging's root) for every node it names
        out = Path(workdir) / "qnn_preprocessed.onnx"
        if not qnn_preprocess_model(model, out, **self.flags):
            return model
        return onnx.load(out)


ADAPTERS = tuple(OrtQnnPreprocessAdapter(v) for v in VARIANTS)
