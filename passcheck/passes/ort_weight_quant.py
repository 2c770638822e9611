"""onnxruntime's weight-only quantizers (``onnxruntime.quantization.matmul_nbits_quantizer`` and
``matmul_bnb4_quantizer``): the constant weight of a MatMul (or the data of a Gather) stored in 4 or 8 bits, one
scale per block of ``block_size`` elements along K, the activations left in float. The computation is kept up to
the weights' rounding (:attr:`~passcheck.passes.PassAdapter.precision` ``"int4"``: the numeric oracle judges each
output at the block scales the pass wrote, :mod:`passcheck.oracles.quant_steps`).

- ``ort-quant:matmul-nbits``: ``MatMulNBitsQuantizer(model, block_size=16)`` with its default algorithm
  (``DefaultWeightOnlyQuantConfig``: 4 bits, asymmetric, QOperator format): ``MatMul(A, W)`` with an initializer
  ``W`` of rank 2 (or with leading dims of 1) becomes ``com.microsoft::MatMulNBits``. The block size is the
  smallest the MatMulNBits schema accepts (ContribOperators.md MatMulNBits: a power of 2, at least 16), so the
  library's small weights (K of 4 … 64) are quantized in one or more blocks, as a large model's are.
- ``ort-quant:matmul-nbits-symmetric``: the same, ``is_symmetric=True`` (no zero points: the schema's default
  ``2^(bits-1)``).
- ``ort-quant:matmul-nbits-8bit``: ``bits=8``.
- ``ort-quant:matmul-nbits-qdq``: ``quant_format=QuantFormat.QDQ``: a blocked ``DequantizeLinear`` (opset 21,
  uint4 weights) before the MatMul. Below ai.onnx opset 21 the quantizer sets the model's opset to 21 without
  converting it and warns "The opset of the input model is under 21 and doesn't support int4 data type. Force to
  update it to opset 21, but the generated model may not be a valid model" (``MatMulNBitsQuantizer.process``, also
  on a model with nothing to quantize): a stated limit, so the variant declares ``min_opset = 21``
  (:data:`STAMPS_OPSET`) and a model below it is ``unavailable``, not run, and drawn by no hunt.
- ``ort-quant:matmul-nbits-gather``: ``op_types_to_quantize=("MatMul", "Gather")``: a Gather of a constant
  table becomes ``com.microsoft::GatherBlockQuantized`` (quantized along axis 1, the default ``quant_axes``); the
  same opset-21 stamp and the same ``min_opset``.
- ``ort-quant:matmul-bnb4``: ``MatMulBnb4Quantizer(model, quant_type=FP4, block_size=16)``:
  ``com.microsoft::MatMulBnb4`` (a 4-bit float code per weight, one absmax per block).

HQQ (``HQQWeightOnlyQuantConfig``) imports torch, RTN / GPTQ neural_compressor: not offered (an environment
without them could only report ``crashed``). A release without the module (onnxruntime before 1.20 names it
``matmul_4bits_quantizer``, with no ``quant_format`` / ``op_types_to_quantize``) or whose ``MatMulNBitsQuantizer``
takes no argument a variant passes (``bits`` arrived in 1.24) leaves the pass ``unavailable`` with that reason
(:meth:`OrtMatMulNBitsAdapter.unavailable_reason`): the pass cannot run there, no model is tried.

Raises (from :meth:`apply`, recorded as ``crashed``): whatever the quantizer raises.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from passcheck.passes._base import PassAdapter

PREFIX = "ort-quant:"
#: id suffix → keyword arguments of ``MatMulNBitsQuantizer`` beyond ``block_size`` (``quant_format`` by member name).
NBITS: dict[str, dict[str, Any]] = {
    "matmul-nbits": {},
    "matmul-nbits-symmetric": {"is_symmetric": True},
    "matmul-nbits-8bit": {"bits": 8},
    "matmul-nbits-qdq": {"quant_format": "QDQ"},
    "matmul-nbits-gather": {"op_types_to_quantize": ("MatMul", "Gather")},
}
#: The variants whose quantizer stamps ai.onnx opset 21 on a model below it without converting it (the QDQ format, or
#: Gather among the op types), and the opset they therefore declare as their minimum (module docs).
STAMPS_OPSET = {"matmul-nbits-qdq": 21, "matmul-nbits-gather": 21}
#: The block size every variant uses (ContribOperators.md MatMulNBits / GatherBlockQuantized: a power of 2, >= 16).
BLOCK = 16


class OrtMatMulNBitsAdapter(PassAdapter):
    """``ort-quant:matmul-nbits*`` (module docs): ``MatMulNBitsQuantizer(model, block_size=16, **options)``,
    ``process()``, the quantizer's model returned."""

    tools = ("onnxruntime", "onnx")
    optimizes = True  # it replaces ops: both forms of one computation must be quantized alike
    precision = "int4"

    def __init__(self, variant: str):
        self.variant = variant
        self.options = dict(NBITS[variant])
        self.id = f"{PREFIX}{variant}"
        self.min_opset = STAMPS_OPSET.get(variant)
        extra = "".join(f", {k}={v!r}" for k, v in self.options.items())
        where = "onnxruntime.quantization.matmul_nbits_quantizer"
        self.doc = f"{where}.MatMulNBitsQuantizer(model, block_size={BLOCK}{extra})"

    def unavailable_reason(self) -> str | None:
        """Why this onnxruntime cannot run the variant, or None: onnxruntime missing, no
        ``matmul_nbits_quantizer`` module (before 1.20), or a keyword the variant passes that its
        ``MatMulNBitsQuantizer.__init__`` does not take (``bits`` before 1.24)."""
        if (why := super().unavailable_reason()) is not None:
            return why
        takes = _nbits_parameters()
        if takes is None:
            return f"this onnxruntime has no {NBITS_MODULE} (onnxruntime before 1.20 names it matmul_4bits_quantizer)"
        missing = sorted(set(self.options) - takes)
        if missing:
            return f"this onnxruntime's MatMulNBitsQuantizer takes no {', '.join(missing)}"
        return None

    def apply(self, model, workdir: Path):
        import logging

        from onnxruntime.quantization import QuantFormat
        from onnxruntime.quantization.matmul_nbits_quantizer import MatMulNBitsQuantizer

        logging.getLogger("onnxruntime.quantization").setLevel(logging.ERROR)
        options = dict(self.options)
        if "quant_format" in options:
            options["quant_format"] = getattr(QuantFormat, options["quant_format"])
        quantizer = MatMulNBitsQuantizer(_copy(model), block_size=BLOCK, **options)
        quantizer.process()
        return quantizer.model.model


class OrtMatMulBnb4Adapter(PassAdapter):
    """``ort-quant:matmul-bnb4`` (module docs): ``MatMulBnb4Quantizer(model, FP4, 16).process()``."""

    id = f"{PREFIX}matmul-bnb4"
    tools = ("onnxruntime", "onnx")
    optimizes = True
    precision = "int4"
    doc = f"onnxruntime.quantization.matmul_bnb4_quantizer.MatMulBnb4Quantizer(model, FP4, block_size={BLOCK})"

    def apply(self, model, workdir: Path):
        import logging

        from onnxruntime.quantization.matmul_bnb4_quantizer import MatMulBnb4Quantizer

        logging.getLogger("onnxruntime.quantization").setLevel(logging.ERROR)
        quantizer = MatMulBnb4Quantizer(_copy(model), MatMulBnb4Quantizer.FP4, BLOCK)
        quantizer.process()
        return quantizer.model.model


NBITS_MODULE = "onnxruntime.quantization.matmul_nbits_quantizer"


@functools.cache
def _nbits_parameters() -> frozenset[str] | None:
    """The keyword names ``MatMulNBitsQuantizer.__init__`` takes in this onnxruntime, or None without the module."""
    import importlib
    import importlib.util
    import inspect

    try:
        if importlib.util.find_spec(NBITS_MODULE) is None:
            return None
    except ModuleNotFoundError:  # onnxruntime itself (or its quantization package) missing
        return None
    quantizer = importlib.import_module(NBITS_MODULE).MatMulNBitsQuantizer
    return frozenset(inspect.signature(quantizer.__init__).parameters)


def _copy(model):
    """A copy of ``model``: both quantizers edit the ModelProto they are given in place."""
    import onnx

    out = onnx.ModelProto()
    out.CopyFrom(model)
    return out


ADAPTERS = (*(OrtMatMulNBitsAdapter(v) for v in NBITS), OrtMatMulBnb4Adapter())
