"""onnxruntime's dynamic quantizer (``onnxruntime.quantization.quantize``): float weights and activations stored in 8
bits, the computation kept at that precision (:attr:`~passcheck.passes.PassAdapter.precision`: the numeric
oracle judges at half a quantization step per node, :func:`passcheck.oracles.numeric.pass_tolerance`).

- ``ort-quant:quantize-dynamic``: ``quantize_dynamic(model, out)`` with its defaults, the QOperator format
  (``QuantFormat.QOperator``): the ops of ``registry.IntegerOpsRegistry`` (Conv → ConvInteger, MatMul →
  MatMulInteger, Attention, LSTM, Gather, Transpose, EmbedLayerNormalization) read int8 weights and activations
  quantized at run time by ``DynamicQuantizeLinear``.

Not offered yet: ``quantize_static`` (QDQ). Its activation scales come from calibration data; calibrated on
anything but the feeds the oracles run, a feed beyond the calibrated range saturates and the numeric oracle
cannot tell that from a wrong rewrite (adapters are not given the case's feeds).

Below ai.onnx opset 10 it converts the model to opset 11 first (``quant_utils.update_opset_version``, with a
warning): such a model is run too.
"""

from __future__ import annotations

import functools
from pathlib import Path

from passcheck.passes._base import PassAdapter

PREFIX = "ort-quant:"
#: id suffix → (function, format); the format is a ``QuantFormat`` member name.
VARIANTS = {"quantize-dynamic": ("quantize_dynamic", "QOperator")}
#: Registries of ``onnxruntime.quantization.registry`` each variant draws its op quantizers from.
REGISTRIES = {"quantize-dynamic": ("IntegerOpsRegistry",)}


class OrtQuantizeAdapter(PassAdapter):
    """``ort-quant:quantize-dynamic`` (see module docs); the model read back
    from the file the quantizer writes.

    Raises (from :meth:`apply`, recorded as ``crashed``): whatever the quantizer raises."""

    tools = ("onnxruntime", "onnx")
    optimizes = True  # it replaces ops by a registry: both forms of one computation must be quantized alike
    precision = "int8"

    def __init__(self, variant: str):
        self.variant = variant
        self.function, self.format = VARIANTS[variant]
        self.id = f"{PREFIX}{variant}"
        self.doc = f"onnxruntime.quantization.{self.function}(model, out_path), its defaults (QOperator)"

    @property
    def by_type(self) -> frozenset[str]:
        """The ops this variant's registries quantize (:func:`declared`)."""
        return frozenset(declared().get(self.variant, ()))

    def apply(self, model, workdir: Path):
        import logging

        import onnx
        from onnxruntime import quantization

        logging.getLogger().setLevel(logging.ERROR)
        src, out = Path(workdir) / "float.onnx", Path(workdir) / "quantized.onnx"
        onnx.save(model, src)  # older releases take a path only
        getattr(quantization, self.function)(str(src), str(out))
        return onnx.load(out)


@functools.cache
def declared() -> dict[str, list[str]]:
    """Variant → the op types the installed release's registries quantize (:data:`REGISTRIES`); the hunt aims
    at those ops. Empty when onnxruntime is missing."""
    try:
        from onnxruntime.quantization import registry
    except ImportError:
        return {}
    return {v: sorted({op for r in names for op in getattr(registry, r, {})}) for v, names in REGISTRIES.items()}


ADAPTERS = tuple(OrtQuantizeAdapter(v) for v in VARIANTS)
