"""onnxruntime's transformers optimizer with one of its own options set: the stages a default run never reaches.

``ort-transformers:<type>`` (:mod:`passcheck.passes.ort_transformers`) calls ``optimize_model(model, type,
opt_level=0)`` with the ``FusionOptions(type)`` defaults. ``optimize_model``'s docstring and
``onnxruntime/transformers/fusion_options.py`` (onnxruntime 1.32.0) document options that switch a fusion on or
off or change what one writes; a stage reached only through an option is code no default run exercises (the
reasoning of :mod:`passcheck.passes.tool_options` for onnxsim / onnxslim). :data:`FLAGS` holds them, each read where
the optimizer class reads it (``BertOnnxModel.optimize``, ``onnx_model_bert.py``; ``UnetOnnxModel.optimize``):

- on ``bert`` (``BertOnnxModel``, which ``gpt2``, ``vit`` and most types share): each fusion switched off
  (``enable_gelu``, ``enable_layer_norm``, ``enable_attention``, ``enable_skip_layer_norm``,
  ``enable_embed_layer_norm``, ``enable_bias_skip_layer_norm``, ``enable_bias_gelu``, ``enable_rotary_embeddings``,
  ``enable_qordered_matmul``, ``enable_shape_inference`` = False: the later fusions then meet the unfused
  pattern), ``use_multi_head_attention`` (FusionAttention writes MultiHeadAttention), ``enable_gemm_fast_gelu``
  (``FusionGemmFastGelu``: MatMul + FastGelu → GemmFastGelu), ``attention_mask_format=2`` (the raw 2-D mask,
  ``AttentionMaskFormat.AttentionMask``: bert's default ``MaskIndexEnd`` "requires right side padding", the raw
  mask keeps the computation for every mask) and ``enable_gelu_approximation`` (``FusionGeluApproximation``:
  Gelu / BiasGelu → FastGelu, the tanh form: an approximation by design, judged at ``float16`` precision as
  ``ort:*+optimization.enable_gelu_approximation=1`` is, :mod:`passcheck.passes.ort_config`);
- on ``unet`` (run with its kernel-less flags off, :func:`~passcheck.passes.ort_transformers.disabled_flags`):
  ``enable_packed_qkv`` / ``enable_packed_kv`` = False (its MultiHeadAttention fusion reads them);
- ``opt_level`` 1 / 2 / 99 and ``only_onnxruntime`` (``optimize_model``: onnxruntime's own optimizer first, at
  that level, then the Python fusions, or onnxruntime alone). ``optimize_by_onnxruntime`` imports ``torch``
  before anything else (onnxruntime 1.32.0, found.md row 1453), so these passes name ``torch`` among their
  tools and are ``unavailable`` where it is not installed.

Left out: ``enable_nhwc_conv``, ``enable_group_norm``, ``enable_skip_group_norm``, ``enable_bias_splitgelu`` and
``enable_bias_add`` set True (each writes an op onnxruntime's CPU provider has no kernel for, ``FLAG_OPS``; bert's
class never reads them), ``group_norm_channels_last`` (read only by the GroupNorm fusion ``unet`` runs without),
``disable_multi_head_attention_bias`` (read only by ``BartOnnxModel`` and ``ConformerOnnxModel``, whose
attention fusions write MultiHeadAttention; inert under ``bert``'s class),
``attention_mask_format`` 0 / 1 / 3 away from bert (mask index assumes right padding, "experiment only", NoMask
drops the mask: each changes the computation for some masks on purpose) and ``attention_op_type``.

A pass id is the plain id, ``+``, the option and its value: ``ort-transformers:bert+enable_gelu=False``,
``ort-transformers:bert+use_multi_head_attention`` (a flag set True named bare),
``ort-transformers:bert+opt_level=1``. Each declares the plain pass its step (and, with ``opt_level``, the
onnxruntime level that runs first), so a defect documented for the default run that shows the same way is that
row's (:func:`passcheck.hunt.documented.which`); ``report.rootcause.pass_family`` groups them under
``ort-transformers:*`` with every model type.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from passcheck.passes.ort_transformers import PREFIX, OrtTransformersAdapter
from passcheck.passes.tool_options import keyed_id

#: ``opt_level`` → the ``ort:<level>`` pass onnxruntime's part runs as (``optimize_by_onnxruntime``).
ORT_LEVEL = {1: "ort:basic", 2: "ort:extended", 99: "ort:all"}


@dataclasses.dataclass(frozen=True)
class Flag:
    """One option of ``optimize_model`` or one ``FusionOptions`` attribute, set away from its default.

    Attributes:
        model_type: the plain pass's model type (``bert``, ``unet``).
        name / value: the ``FusionOptions`` attribute (or ``optimize_model`` keyword, :attr:`keyword`) and its value.
        reason: what onnxruntime's own source says it does.
        precision: the bound the source states the option changes values by, in the numeric oracle's terms
            (:attr:`~passcheck.passes.Capabilities.precision`), or None: the result stays exact.
        keyword: an ``optimize_model`` keyword (``opt_level``, ``only_onnxruntime``), not a ``FusionOptions`` flag.
    """

    model_type: str
    name: str
    value: Any
    reason: str
    precision: str | None = None
    keyword: bool = False

    @property
    def pass_id(self) -> str:
        return keyed_id(f"{PREFIX}{self.model_type}", self.name, self.value)

    @property
    def level(self) -> int:
        """The ``opt_level`` the pass calls with (0 unless this flag sets it; ``only_onnxruntime`` at 99)."""
        if self.name == "opt_level":
            return int(self.value)
        return 99 if self.name == "only_onnxruntime" else 0


_OFF = (
    ("enable_gelu", "no Gelu fusion (FusionGelu / FastGelu / QuickGelu)"),
    ("enable_layer_norm", "no LayerNormalization / SimplifiedLayerNormalization fusion"),
    ("enable_attention", "no Attention fusion"),
    ("enable_skip_layer_norm", "no SkipLayerNormalization fusion"),
    ("enable_embed_layer_norm", "no EmbedLayerNormalization fusion"),
    ("enable_bias_skip_layer_norm", "SkipLayerNormalization keeps its bias Add"),
    ("enable_bias_gelu", "Gelu / FastGelu keep their bias Add"),
    ("enable_rotary_embeddings", "no RotaryEmbedding fusion"),
    ("enable_qordered_matmul", "no QOrderedMatMul fusion"),
    ("enable_shape_inference", "the fusions run without symbolic shape inference"),
)

FLAGS: tuple[Flag, ...] = (
    *(Flag("bert", name, False, reason) for name, reason in _OFF),
    Flag("bert", "use_multi_head_attention", True, "FusionAttention writes MultiHeadAttention, not Attention"),
    Flag("bert", "enable_gemm_fast_gelu", True, "FusionGemmFastGelu: MatMul + FastGelu -> GemmFastGelu"),
    Flag("bert", "attention_mask_format", 2, "the raw 2-D attention mask (AttentionMaskFormat.AttentionMask)"),
    # fusion_options.py: "enable Gelu/BiasGelu to FastGelu conversion", the tanh form, at most 4.8e-4 from erf's
    # Gelu: the bound ort_config gives onnxruntime's own GeluApproximation
    Flag("bert", "enable_gelu_approximation", True, "Gelu / BiasGelu -> FastGelu (tanh form)", precision="float16"),
    Flag("unet", "enable_packed_qkv", False, "MultiHeadAttention fusion without packed Q/K/V"),
    Flag("unet", "enable_packed_kv", False, "MultiHeadAttention fusion without packed K/V"),
    *(
        Flag(
            "bert", "opt_level", lv, f"onnxruntime's optimizer at {ORT_LEVEL[lv]} first, then the fusions", keyword=True
        )
        for lv in ORT_LEVEL
    ),
    Flag("bert", "only_onnxruntime", True, "onnxruntime's optimizer at opt_level 99 alone, no fusion", keyword=True),
)


class OrtTransformersOptionAdapter(OrtTransformersAdapter):
    """``ort-transformers:<type>`` with one :class:`Flag` set; see the module docs.

    The plain pass's capabilities (it optimizes; onnxruntime's part, with ``opt_level``, folds constants), but
    ``precision`` (:attr:`Flag.precision`); its steps are the plain pass (and onnxruntime's level first).

    Raises (from :meth:`apply`, recorded as ``crashed``): whatever the optimizer raises."""

    def __init__(self, flag: Flag):
        super().__init__(flag.model_type)
        self.flag = flag
        self.id = flag.pass_id
        self.precision = flag.precision  # type: ignore[misc]
        plain = f"{PREFIX}{flag.model_type}"
        if flag.level:
            # optimize_by_onnxruntime: `from torch import version` before anything else (row 1453)
            self.tools = (*self.tools, "torch")
            self.folds_constants = True  # type: ignore[misc]
        # with opt_level, onnxruntime's level runs first on the given model; only_onnxruntime runs it alone
        levels = (ORT_LEVEL[flag.level],) if flag.level else ()
        self.steps = levels if flag.name == "only_onnxruntime" else (*levels, plain)
        self.doc = f"{plain} with {flag.name}={flag.value!r}: {flag.reason}"

    def apply(self, model, workdir: Path):
        import logging

        from onnxruntime.transformers.fusion_options import FusionOptions
        from onnxruntime.transformers.optimizer import optimize_model

        from passcheck.passes import ort_transformers

        logging.getLogger("onnxruntime.transformers").setLevel(logging.ERROR)
        t = self.flag.model_type
        # the plain pass's options: a type beyond the fixed ones runs with its kernel-less flags off
        off = () if t in ort_transformers.MODEL_TYPES else ort_transformers.disabled_flags(t)
        opts = ort_transformers.options(t, off) or FusionOptions(t)
        kwargs: dict[str, Any] = {"opt_level": self.flag.level}
        if self.flag.keyword:
            kwargs["only_onnxruntime"] = self.flag.name == "only_onnxruntime"
        else:
            setattr(opts, self.flag.name, self.flag.value)
        optimized = optimize_model(model, t, num_heads=0, hidden_size=0, optimization_options=opts, **kwargs)
        optimized.save_model_to_file(str(Path(workdir) / "optimized.onnx"))  # adds the com.microsoft import
        return optimized.model


ADAPTERS: tuple[OrtTransformersOptionAdapter, ...] = tuple(OrtTransformersOptionAdapter(f) for f in FLAGS)


def flag_of(pass_id: str) -> Flag | None:
    """The :class:`Flag` an option pass id sets, or None for any other id."""
    return next((f for f in FLAGS if f.pass_id == pass_id), None)
