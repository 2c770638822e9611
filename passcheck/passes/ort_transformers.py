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
(Gpt2OnnxModel) and ``vit`` (BertOnnxModel, no mask); the other types of the installed release are read
from ``MODEL_TYPES`` on first need (:func:`more_types`: those run by an offered type's class, whose options
write no op without a CPU kernel). The Stable Diffusion types (``unet``,
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

import functools
from pathlib import Path

from passcheck.errors import PasscheckError
from passcheck.passes._base import PassAdapter

PREFIX = "ort-transformers:"

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
        self.id = f"{PREFIX}{model_type}"
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

#: ``FusionOptions`` flags whose fusion writes a ``com.microsoft`` op (per the fusion's source) and that op.
FLAG_OPS = {
    "enable_nhwc_conv": "NhwcConv",
    "enable_group_norm": "GroupNorm",
    "enable_skip_group_norm": "SkipGroupNorm",
    "enable_bias_splitgelu": "BiasSplitGelu",
    "enable_bias_add": "BiasAdd",
}


@functools.cache
def more_types() -> dict[str, str | None]:
    """Each ``optimizer.MODEL_TYPES`` key beyond :data:`MODEL_TYPES` → None when it is offered, else why not.

    Offered: a type run by the optimizer class of an offered type (``MODEL_TYPES[t][0]``: its fusions are the
    ones already judged here) whose ``FusionOptions(t)`` enables no fusion writing a ``com.microsoft`` op the
    installed onnxruntime's CPU provider registers no kernel for (``get_all_opkernel_def``). A type with its own
    optimizer class is left out: its own fusions are not read here."""
    from onnxruntime.capi import _pybind_state
    from onnxruntime.transformers.fusion_options import FusionOptions
    from onnxruntime.transformers.optimizer import MODEL_TYPES as ALL

    cpu = {k.op_name for k in _pybind_state.get_all_opkernel_def() if k.provider == "CPUExecutionProvider"}
    known = {ALL[t][0] for t in MODEL_TYPES if t in ALL}
    out: dict[str, str | None] = {}
    for t, entry in ALL.items():
        if t in MODEL_TYPES:
            continue
        options = vars(FusionOptions(t))
        missing = sorted(op for flag, op in FLAG_OPS.items() if options.get(flag) and op not in cpu)
        out[t] = (
            f"its optimizer class {entry[0].__name__} is none of the offered types' (its own fusions are not read here)"
            if entry[0] not in known
            else f"its fusion options write {', '.join(missing)}, which onnxruntime's CPU provider has no kernel for"
            if missing
            else None
        )
    return out


def extra_pass_ids() -> list[str]:
    """``ort-transformers:<type>`` for each offered type of :func:`more_types`."""
    return [f"{PREFIX}{t}" for t, why in more_types().items() if why is None]


def adapter(pass_id: str) -> OrtTransformersAdapter:
    """The adapter for an ``ort-transformers:<type>`` id beyond the fixed ones.

    Raises:
        PasscheckError: not a model type of the installed onnxruntime, or one left out (the reason given).
    """
    t = pass_id.removeprefix(PREFIX)
    types = more_types()
    if t not in types:
        raise PasscheckError(f"pass {pass_id!r}: onnxruntime.transformers has no model type {t!r}")
    if types[t] is not None:
        raise PasscheckError(f"pass {pass_id!r} is left out: {types[t]}")
    return OrtTransformersAdapter(t)
