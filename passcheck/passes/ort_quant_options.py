"""onnxruntime's quantizers with one ``extra_options`` key set: the quantizer stages a default run never reaches.

``ort-quant:quantize-dynamic`` / ``-static`` / ``-static-qoperator`` (:mod:`passcheck.passes.ort_quantize`) call
the quantizers with their defaults. ``extra_options`` (the docstrings of ``quantize_static`` and
``DynamicQuantConfig`` in ``onnxruntime/quantization/quantize.py``, onnxruntime 1.32.0) switches stages on or off;
:data:`EXTRAS` holds the keys whose value keeps what a quantizer is for, each on the variants whose docstring
offers it:

- every variant: ``WeightSymmetric=False``, ``ForceQuantizeNoInputCheck`` ("force such operator always quantize
  input"), ``MatMulConstBOnly`` (static: default False; dynamic: default True, so ``=False`` there);
- static (both formats): ``ActivationSymmetric``, ``ActivationRestrictedAsymmetric``, ``CalibTensorRangeSymmetric``
  (the ranges symmetrized: wider, never narrower than the calibrated one);
- the QDQ format: ``AddQDQPairToWeight``, ``DedicatedQDQPair``, ``QuantizeBias=False``, ``UseQDQContribOps``
  (``com.microsoft`` QuantizeLinear / DequantizeLinear), ``QDQKeepRemovableActivations``,
  ``QDQDisableWeightAdjustForInt32Bias``;
- dynamic: ``EnableSubgraph`` ("subgraph will be quantized. Dynamic mode currently is supported").

Each changes the computation on purpose as its plain pass does, so each keeps the plain pass's oracle treatment:
``precision = "int8"`` and the quantization steps it wrote (:mod:`passcheck.oracles.quant_steps`), the static ones
calibrated on the case's own feeds. Left out: ``CalibMovingAverage`` (the averaged range may be narrower than the
calibration data: a feed then saturates, which no step bound tells from a wrong rewrite), ``SmoothQuant`` (rescales
weights against calibration statistics, an extra install), ``MinimumRealRange``, ``TensorQuantOverrides``,
``OpTypesToExcludeOutputQuantization``, ``QDQOpTypePerChannelSupportToAxis`` (per-tensor or per-op settings a user
writes for a model), ``CalibStridedMinMax`` / ``CalibMaxIntermediateOutputs`` (memory: "the same result"), and
``extra.Sigmoid.nnapi`` (an NNAPI-only output range).

A pass id is the plain id, ``+``, the key and its value: ``ort-quant:quantize-static+DedicatedQDQPair`` (True named
bare), ``ort-quant:quantize-dynamic+MatMulConstBOnly=False``. Each declares the plain quantizer its step;
``report.rootcause.pass_family`` groups every key under its plain pass.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from passcheck.passes.ort_quantize import OPTIONS, PREFIX, OrtQuantizeAdapter
from passcheck.passes.tool_options import keyed_id

_ALL = ("quantize-dynamic", "quantize-static", "quantize-static-qoperator")
_STATIC = ("quantize-static", "quantize-static-qoperator")
_QDQ = ("quantize-static",)


@dataclasses.dataclass(frozen=True)
class Extra:
    """One ``extra_options`` key set away from its default, on one quantizer variant.

    Attributes:
        variant: the plain pass's variant (:data:`passcheck.passes.ort_quantize.VARIANTS`).
        key / value: the ``extra_options`` key and its value.
        reason: what the quantizer's docstring says it does.
    """

    variant: str
    key: str
    value: Any
    reason: str

    @property
    def pass_id(self) -> str:
        return keyed_id(f"{PREFIX}{self.variant}", self.key, self.value)


_KEYS: tuple[tuple[str, Any, tuple[str, ...], str], ...] = (
    ("WeightSymmetric", False, _ALL, "asymmetric weight ranges"),
    ("ForceQuantizeNoInputCheck", True, _ALL, "latent ops (MaxPool, Transpose …) quantized whatever their input"),
    ("MatMulConstBOnly", True, _STATIC, "only MatMul with a constant B quantized"),
    ("MatMulConstBOnly", False, ("quantize-dynamic",), "every MatMul quantized, not only those with a constant B"),
    ("ActivationSymmetric", True, _STATIC, "symmetric activation ranges"),
    ("ActivationRestrictedAsymmetric", True, _STATIC, "uint8 activations: zero point snapped, scale recomputed"),
    ("CalibTensorRangeSymmetric", True, _STATIC, "each calibrated range made symmetric around 0"),
    ("AddQDQPairToWeight", True, _QDQ, "weights kept float with a QuantizeLinear / DequantizeLinear pair"),
    ("DedicatedQDQPair", True, _QDQ, "one QDQ pair per reader instead of a shared one"),
    ("QuantizeBias", False, _QDQ, "biases kept float"),
    ("UseQDQContribOps", True, _QDQ, "com.microsoft QuantizeLinear / DequantizeLinear"),
    ("QDQKeepRemovableActivations", True, _QDQ, "Relu / Clip kept in the QDQ model"),
    ("QDQDisableWeightAdjustForInt32Bias", True, _QDQ, "no weight-scale adjustment for a too-small bias scale"),
    ("EnableSubgraph", True, ("quantize-dynamic",), "If / Loop / Scan bodies quantized too"),
)

EXTRAS: tuple[Extra, ...] = tuple(Extra(v, k, val, why) for k, val, variants, why in _KEYS for v in variants)


class OrtQuantOptionAdapter(OrtQuantizeAdapter):
    """The plain quantizer with one :class:`Extra` in ``extra_options``; see the module docs. Its capabilities,
    calibration and registries are the plain variant's; its steps are the plain pass and the plain pass's own.

    Raises (from :meth:`apply`, recorded as ``crashed``): whatever the quantizer raises."""

    def __init__(self, extra: Extra):
        super().__init__(extra.variant)
        self.option = extra
        self.options = {**OPTIONS.get(extra.variant, {}), "extra_options": {extra.key: extra.value}}
        self.id = extra.pass_id
        self.steps = (f"{PREFIX}{extra.variant}", *self.steps)  # the plain quantizer, then what it runs first
        self.doc = f"{self.doc}, extra_options={{{extra.key!r}: {extra.value!r}}}: {extra.reason}"


ADAPTERS: tuple[OrtQuantOptionAdapter, ...] = tuple(OrtQuantOptionAdapter(e) for e in EXTRAS)


def extra_of(pass_id: str) -> Extra | None:
    """The :class:`Extra` an option pass id sets, or None for any other id."""
    return next((e for e in EXTRAS if e.pass_id == pass_id), None)
