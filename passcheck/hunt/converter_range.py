"""Which bases a version-converter pass converts (round 9e, M92).

A version converter is asked to move a model's ai.onnx opset; each adapter states where it will (its
:meth:`~passcheck.passes._base.PassAdapter.precondition` and :meth:`~passcheck.passes._base.Capabilities.outside`):
onnxscript's converter reads its range off its own source (``SUPPORTED_MIN_ONNX_OPSET`` ..
``SUPPORTED_MAX_ONNX_OPSET``, 18..23 in 0.5–0.7), onnx's boundary passes need an op whose schema changes in the
direction asked. An item on a base outside that is ``unavailable`` in every cell: it judges nothing, and on a
narrowed hunt of DFT bases 577 of 605 items were such (docs/recall.md, round 8c, R76). So the scheduler draws a
converter pass's items only from bases it converts. A rewrite or neighbour keeps its base's opset import (none
rewrites ``opset_import``'s ai.onnx version), so the base's answer is its forms'.

The answer is the parent's installed tool (the pinned environments of ``--env`` hold their own versions; the
range of onnxscript's converter is the same 18..23 in every pinned environment that has one). A pass whose tool is
not installed here, or that is no converter, leaves every base drawn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import onnx


def is_converter(pass_id: str) -> bool:
    """Whether ``pass_id`` names a version converter (its adapter's ``converts_opset``), installed here."""
    adapter = _adapter(pass_id)
    return adapter is not None and bool(getattr(adapter, "converts_opset", False))


def refuses(pass_id: str, model: onnx.ModelProto) -> str | None:
    """Why converter ``pass_id`` does not convert ``model`` (its stated opset range or its precondition), or None: it
    does, or ``pass_id`` is no converter installed here. Never raises (an adapter whose check raises: None)."""
    adapter = _adapter(pass_id)
    if adapter is None or not getattr(adapter, "converts_opset", False):
        return None
    try:
        return adapter.capabilities.outside(model) or adapter.precondition(model)
    except Exception:  # noqa: BLE001 - a check that cannot read the model leaves the base drawn
        return None


def _adapter(pass_id: str):
    from passcheck.passes import get_pass

    try:
        adapter = get_pass(pass_id)
    except Exception:  # noqa: BLE001 - an unknown or external pass: no converter known here
        return None
    return None if adapter.unavailable_reason() else adapter
