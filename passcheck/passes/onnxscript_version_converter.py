"""onnxscript's own version converter: ``onnxscript:convert-opset-up`` runs
``onnxscript.version_converter.convert_version(model, target)`` on the ModelProto (the public call, which
converts it in place and returns None) to the model's neighbouring opset boundary up
(:func:`passcheck.passes.version_converter.opset_boundary`, as ``onnx:convert-opset-up``).

The converter states its range in its source (``_version_converter.SUPPORTED_MIN_ONNX_OPSET`` ..
``SUPPORTED_MAX_ONNX_OPSET``, read from the installed package): a model or target outside it is
``unavailable``. It converts up only (its source raises "downstream version conversion not currently
handled" for a target below a node's version), so there is no ``-down`` id. Like the onnx converter it
keeps the computation and the interface but is not an optimizer (it inlines local functions first, by
its own design), so op-type parity does not apply.
"""

from __future__ import annotations

from pathlib import Path

from passcheck.passes._base import default_opset
from passcheck.passes.onnxscript_optimizer import _OnnxscriptAdapter
from passcheck.passes.version_converter import opset_boundary

ID = "onnxscript:convert-opset-up"


def supported() -> tuple[int, int]:
    """The ai.onnx opsets the installed converter converts between (inclusive)."""
    from onnxscript.version_converter import _version_converter as vc

    return vc.SUPPORTED_MIN_ONNX_OPSET, vc.SUPPORTED_MAX_ONNX_OPSET


class OnnxscriptVersionConverterAdapter(_OnnxscriptAdapter):
    """``onnxscript:convert-opset-up``: the model's ModelProto converted in place to its next opset boundary."""

    id = ID
    doc = "onnxscript.version_converter.convert_version(model, <the neighbouring opset boundary up>), in place"

    def precondition(self, model):
        target, why = opset_boundary(model, "up")
        if target is None:
            return why
        low, high = supported()
        if not low <= (default_opset(model) or 0) <= target <= high:
            return (
                f"onnxscript's converter supports ai.onnx opsets {low}..{high}; asked {default_opset(model)}->{target}"
            )
        return None

    def apply(self, model, workdir: Path):
        import onnxscript.version_converter

        target, _ = opset_boundary(model, "up")
        onnxscript.version_converter.convert_version(model, target)
        return model
