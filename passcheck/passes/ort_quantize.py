"""onnxruntime's quantizers (``onnxruntime.quantization.quantize``): float weights and activations stored in 8
bits, the computation kept at that precision (:attr:`~passcheck.passes.PassAdapter.precision`: the numeric
oracle judges each output at the quantization steps the pass wrote, :mod:`passcheck.oracles.quant_steps`).

- ``ort-quant:quantize-dynamic``: ``quantize_dynamic(model, out)`` with its defaults, the QOperator format
  (``QuantFormat.QOperator``): the ops of ``registry.IntegerOpsRegistry`` (Conv → ConvInteger, MatMul →
  MatMulInteger, Attention, LSTM, Gather, Transpose, EmbedLayerNormalization) read int8 weights and activations
  quantized at run time by ``DynamicQuantizeLinear``.

- ``ort-quant:quantize-static`` (QDQ format, per-tensor), ``ort-quant:quantize-static-per-channel`` (QDQ,
  ``per_channel=True``: weights of Conv / MatMul / Gemm … get one scale per output channel) and
  ``ort-quant:quantize-static-qoperator`` (``QuantFormat.QOperator``: QLinearConv, QLinearMatMul …):
  ``quantize_static(model, out, reader, …)`` with MinMax calibration. Its activation scales come from the
  calibration data, so the adapter calibrates on the case's own feeds (:attr:`OrtQuantizeAdapter.calibrates`:
  the engine hands them over, :meth:`~OrtQuantizeAdapter.calibrated`, before the pass goes to its isolation
  worker): calibrated on other data, a feed beyond the calibrated range saturates (Operators.md QuantizeLinear:
  ``saturate``), which no tolerance can tell from a wrong rewrite. Called without feeds (the coverage probe, a
  direct :meth:`run`), it calibrates on feeds synthesized from the input annotations (seed 0).

Below ai.onnx opset 10 it converts the model to opset 11 first (``quant_utils.update_opset_version``, with a
warning): such a model is run too.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from passcheck.passes._base import PassAdapter

PREFIX = "ort-quant:"
#: id suffix → (function, format); the format is a ``QuantFormat`` member name.
VARIANTS = {
    "quantize-dynamic": ("quantize_dynamic", "QOperator"),
    "quantize-static": ("quantize_static", "QDQ"),
    "quantize-static-per-channel": ("quantize_static", "QDQ"),
    "quantize-static-qoperator": ("quantize_static", "QOperator"),
}
#: Keyword arguments beyond the defaults, per variant.
OPTIONS: dict[str, dict[str, Any]] = {"quantize-static-per-channel": {"per_channel": True}}
#: Registries of ``onnxruntime.quantization.registry`` each variant draws its op quantizers from
#: (``quantize_static`` takes QLinearOpsRegistry in the QOperator format, QDQRegistry in the QDQ format).
REGISTRIES = {
    "quantize-dynamic": ("IntegerOpsRegistry",),
    "quantize-static": ("QDQRegistry",),
    "quantize-static-per-channel": ("QDQRegistry",),
    "quantize-static-qoperator": ("QLinearOpsRegistry",),
}


class OrtQuantizeAdapter(PassAdapter):
    """``ort-quant:quantize-dynamic`` / ``-static*`` (see module docs); the model read back
    from the file the quantizer writes.

    Attributes:
        calibrates: the variant computes activation scales from calibration data (``quantize_static``).
        steps: ``onnx:infer-shapes``: ``quantize_static`` and ``quantize_dynamic`` load the model through
            ``quant_utils.load_model_with_shape_infer`` (``onnx.shape_inference.infer_shapes_path``, default options)
            before quantizing, so what onnx's inference drops (row 711's dim denotations) the quantizer drops too.
        feeds: the calibration data, one dict per run (graph input name → array), as the engine's
            :func:`~passcheck.engine.feeds_for` gives them; empty until :meth:`calibrated`.

    Raises (from :meth:`apply`, recorded as ``crashed``): whatever the quantizer raises."""

    feeds: tuple[Mapping[str, Any], ...] = ()

    tools = ("onnxruntime", "onnx")
    optimizes = True  # it replaces ops by a registry: both forms of one computation must be quantized alike
    precision = "int8"

    def __init__(self, variant: str):
        self.variant = variant
        self.function, self.format = VARIANTS[variant]
        self.options = OPTIONS.get(variant, {})
        self.calibrates = self.function == "quantize_static"
        self.steps = ("onnx:infer-shapes",)  # its own source infers first: see the class docstring
        self.id = f"{PREFIX}{variant}"
        extra = "".join(f", {k}={v!r}" for k, v in self.options.items())
        reader = ", reader (the case's feeds)" if self.calibrates else ""
        self.doc = f"onnxruntime.quantization.{self.function}(model, out_path{reader}{extra}), {self.format} format"

    def calibrated(self, feeds: Sequence[Mapping[str, Any]]) -> OrtQuantizeAdapter:
        """A copy of this adapter that calibrates on ``feeds`` (the runs the oracles make); this adapter itself
        when it does not calibrate. The copy is pickled with its feeds into the isolation worker."""
        if not self.calibrates:
            return self
        given = copy.copy(self)  # a subclass stays itself (a wrapped quantizer, a user's)
        given.feeds = tuple(dict(f) for f in feeds)
        return given

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
        if not self.calibrates:
            getattr(quantization, self.function)(str(src), str(out), **self.options)
        else:
            reader = _reader(quantization.CalibrationDataReader, model, self.feeds)
            fmt = getattr(quantization.QuantFormat, self.format)
            quantization.quantize_static(str(src), str(out), reader, quant_format=fmt, **self.options)
        return onnx.load(out)


def _reader(base: type, model, feeds: Sequence[Mapping[str, Any]]):
    """A ``CalibrationDataReader`` over ``feeds`` restricted to ``model``'s runtime inputs (a graph input that
    is also an initializer is not fed); without feeds, one run synthesized from the input annotations."""
    from passcheck.runtime import synthesize
    from passcheck.runtime.feeds import runtime_inputs

    names = {vi.name for vi in runtime_inputs(model)}
    runs = [{k: v for k, v in f.items() if k in names} for f in feeds] or [synthesize(model, {}, 0)]

    class Reader(base):
        def __init__(self):
            self._it = iter(runs)

        def get_next(self):
            return next(self._it, None)

        def rewind(self):  # newer calibrators rewind between passes over the data
            self._it = iter(runs)

    return Reader()


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
