"""onnxruntime's transformer optimizer (``onnxruntime.transformers.optimizer.optimize_model``): the
Python fusions written for BERT, GPT-2, ViT … (FusionAttention, FusionLayerNormalization,
FusionSkipLayerNormalization, FusionEmbedLayerNormalization, FusionGelu, FusionBiasGelu,
FusionReshape, FusionShape, …), which write ``com.microsoft`` ops.

``ort-transformers:<model_type>`` runs ``optimize_model(model, model_type, num_heads=0,
hidden_size=0, opt_level=0)``: ``opt_level=0`` is "only python fusion logic is used and
onnxruntime is disabled" (the function's docstring), and 0 heads / hidden size is "detect the
parameter from graph automatically". The model type selects the optimizer class and the
``FusionOptions`` defaults (``MODEL_TYPES`` and ``FusionOptions.__init__`` in
``onnxruntime/transformers``): ``bert`` (BertOnnxModel, mask as MaskIndexEnd), ``gpt2``
(Gpt2OnnxModel) and ``vit`` (BertOnnxModel, no mask). The Stable Diffusion types (``unet``,
``vae``, ``clip``) and ``t5`` are not offered: their defaults write NhwcConv, GroupNorm,
BiasSplitGelu, BiasAdd and RelativePositionBias, for which onnxruntime's CPU provider registers
no kernel, so their outputs cannot be run here.

With ``opt_level=0`` the fusions rewrite the ModelProto they are given, wrapped in the returned
``OnnxModel`` (``optimize_model``: ``model = input``), so the pass is in place. The result is
handed over the way the tool's own command line and examples do, ``save_model_to_file``, which
adds to that same ModelProto the ``com.microsoft`` opset import its fused nodes need (before it,
the import is missing). The fusions fold nothing; each one claims to compute what the subgraph
it replaces computes, so every oracle applies (the ``com.microsoft`` ops are judged by
:mod:`passcheck.oracles.ort_own_ops`).
"""

from __future__ import annotations

from pathlib import Path

from passcheck.passes._base import PassAdapter

#: The model types offered (keys of onnxruntime.transformers.optimizer.MODEL_TYPES).
MODEL_TYPES = ("bert", "gpt2", "vit")


class OrtTransformersAdapter(PassAdapter):
    """``ort-transformers:<model_type>``: ``optimize_model(model, model_type, opt_level=0)``, its
    heads and hidden size detected from the graph; returns its ``.model`` after ``save_model_to_file``.

    Raises (from :meth:`apply`, recorded as ``crashed``): whatever a fusion raises."""

    tools = ("onnxruntime", "onnx")
    optimizes = True

    def __init__(self, model_type: str):
        self.model_type = model_type
        self.id = f"ort-transformers:{model_type}"
        self.doc = (
            f"onnxruntime.transformers.optimizer.optimize_model(model, {model_type!r}, opt_level=0): "
            "Python fusions only, heads and hidden size detected"
        )

    def apply(self, model, workdir: Path):
        import logging

        from onnxruntime.transformers.optimizer import optimize_model

        logging.getLogger("onnxruntime.transformers").setLevel(logging.ERROR)
        optimized = optimize_model(model, self.model_type, num_heads=0, hidden_size=0, opt_level=0)
        optimized.save_model_to_file(str(Path(workdir) / "optimized.onnx"))  # adds the com.microsoft import
        return optimized.model  # the ModelProto it was given, rewritten in place (opt_level=0)


ADAPTERS = tuple(OrtTransformersAdapter(t) for t in MODEL_TYPES)
