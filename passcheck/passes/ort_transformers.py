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
(Gpt2OnnxModel) and ``vit`` (BertOnnxModel, no mask); every other type of the installed release is read
from ``MODEL_TYPES`` on first need (:func:`more_types`), whatever its optimizer class (BartOnnxModel,
Sam2OnnxModel, UnetOnnxModel, MmditOnnxModel …: their own fusions run and are judged). A ``FusionOptions``
default that writes an op onnxruntime's CPU provider has no kernel for (NhwcConv, GroupNorm, SkipGroupNorm,
BiasSplitGelu, BiasAdd) is turned off when the type's class reads the flag (``unet`` and ``vae`` run with the
five off: :func:`disabled_flags`, the adapter's doc names them) and ignored when it never does (``clip``). Left
out (one-line error): ``t5``, whose T5OnnxModel constructs FusionRelativePositionBiasBlock (RelativePositionBias,
no CPU kernel) whatever its options say, and ``phi``, whose optimizer raises on every model (1.32.0:
``Phi2PreProcessor.preprocess_onnx`` iterates the method ``OnnxModel.functions``).

With ``opt_level=0`` the fusions rewrite the ModelProto they are given, wrapped in the returned
``OnnxModel`` (``optimize_model``: ``model = input``), so the pass is in place. The result is
handed over the way the tool's own command line and examples do, ``save_model_to_file``, which
adds to that same ModelProto the ``com.microsoft`` opset import its fused nodes need (before it,
the import is missing). The fusions fold nothing; each one claims to compute what the subgraph
it replaces computes, so every oracle applies (the ``com.microsoft`` ops are judged by
:mod:`passcheck.oracles.ort_own_ops`).
"""

from __future__ import annotations

import contextlib
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

    def __init__(self, model_type: str, disabled: tuple[str, ...] = ()):
        self.model_type = model_type
        self.disabled = disabled
        self.id = f"{PREFIX}{model_type}"
        off = f", FusionOptions({model_type!r}) with {', '.join(disabled)} off (no CPU kernel)" if disabled else ""
        self.doc = (
            f"onnxruntime.transformers.optimizer.optimize_model(model, {model_type!r}, opt_level=0{off}): "
            "Python fusions only, heads and hidden size detected"
        )

    def apply(self, model, workdir: Path):
        import logging

        from onnxruntime.transformers.optimizer import optimize_model

        logging.getLogger("onnxruntime.transformers").setLevel(logging.ERROR)
        optimized = optimize_model(
            model,
            self.model_type,
            num_heads=0,
            hidden_size=0,
            opt_level=0,
            optimization_options=options(self.model_type, self.disabled),
        )
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


def _cpu_ops() -> set[str]:
    from onnxruntime.capi import _pybind_state

    return {k.op_name for k in _pybind_state.get_all_opkernel_def() if k.provider == "CPUExecutionProvider"}


def _reads(cls: type, flag: str) -> bool:
    """Whether the source of ``cls`` or a class it inherits from reads ``options.<flag>``."""
    import inspect
    import re

    pattern = re.compile(rf"\boptions\.{flag}\b")
    for c in cls.__mro__:
        with contextlib.suppress(TypeError, OSError):
            if pattern.search(inspect.getsource(c)):
                return True
    return False


@functools.cache
def _read_types() -> tuple[dict[str, str | None], dict[str, tuple[str, ...]]]:
    from onnxruntime.transformers.optimizer import MODEL_TYPES as ALL

    from passcheck.passes.ort_fusion_probe import constructed

    cpu = _cpu_ops()
    # the fixed types' fusions are judged here whatever op they declare (FusionQOrdered*: QOrdered* ops, no CPU
    # kernel, matched only on QOrdered graphs); a type is held to the ops its own fusions add
    accepted = {op for t in MODEL_TYPES if t in ALL for op in constructed(t).values()}
    why: dict[str, str | None] = {}
    disabled: dict[str, tuple[str, ...]] = {}
    for t, entry in ALL.items():
        if t in MODEL_TYPES:
            continue
        cls = entry[0]
        defaults = vars(_fusion_options(t))
        kernelless = [f for f, op in FLAG_OPS.items() if defaults.get(f) and op not in cpu]
        ignored = [f for f in kernelless if not _reads(cls, f)]
        off = tuple(f for f in kernelless if f not in ignored)  # honoured by the class: disabled
        try:
            ops = constructed(t, options(t, off))
        except Exception as e:  # noqa: BLE001 - the reason it is left out
            why[t] = f"optimize_model(<one Relu>, {t!r}) raises {type(e).__name__}: {e}"
            continue
        own = sorted(f"{n} ({op})" for n, op in ops.items() if op and op not in cpu and op not in accepted)
        why[t] = (
            f"its {cls.__name__} constructs {', '.join(own)} whatever its FusionOptions say, and onnxruntime's "
            "CPU provider has no kernel for that op"
            if own
            else None
        )
        if not own:
            disabled[t] = off
    return why, disabled


def _fusion_options(model_type: str):
    from onnxruntime.transformers.fusion_options import FusionOptions

    return FusionOptions(model_type)


def options(model_type: str, disabled: tuple[str, ...] = ()):
    """``FusionOptions(model_type)`` with the ``disabled`` flags set False; None (the optimizer's own defaults)
    when none is disabled."""
    if not disabled:
        return None
    opts = _fusion_options(model_type)
    for flag in disabled:
        setattr(opts, flag, False)
    return opts


def more_types() -> dict[str, str | None]:
    """Each ``optimizer.MODEL_TYPES`` key beyond :data:`MODEL_TYPES` → None when it is offered, else why not.

    Every type is read the same way, whatever its optimizer class (``MODEL_TYPES[t][0]``): the ``FusionOptions(t)``
    flags of :data:`FLAG_OPS` that are on by default and write an op the installed onnxruntime's CPU provider
    registers no kernel for (``get_all_opkernel_def``) are turned off when the class's source reads the flag
    (``options.<flag>``: it honours it; :func:`disabled_flags`) and ignored when it never does (nothing writes
    them: ``clip``). Then the optimizer is run on a one-node model with ``Fusion.__init__`` recorded
    (:mod:`passcheck.passes.ort_fusion_probe`): left out when it raises there (every model would be the same
    crash) or constructs a fusion declaring an op with no CPU kernel that the fixed types' fusions do not
    (``t5``: FusionRelativePositionBiasBlock → RelativePositionBias, constructed unconditionally)."""
    return _read_types()[0]


more_types.cache_clear = _read_types.cache_clear  # type: ignore[attr-defined]


def disabled_flags(model_type: str) -> tuple[str, ...]:
    """The ``FusionOptions`` flags an offered type runs with turned off (see :func:`more_types`); () for the
    fixed types and types run with their defaults."""
    return _read_types()[1].get(model_type, ())


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
    return OrtTransformersAdapter(t, disabled_flags(t))
