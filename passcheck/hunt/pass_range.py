"""Which bases a pass takes, by what its adapter states up front (round 9e, M92; round 11h, M142).

An adapter declares the ai.onnx opsets its tool takes as data (:attr:`~passcheck.passes._base.PassAdapter.min_opset`
/ ``max_opset``, read by :meth:`~passcheck.passes._base.Capabilities.outside`): ``onnxscript:onnx-fusions`` takes
opset 23 only (its source's ``_opset_23_fuse``), ``ort:symbolic-shape-infer`` 7 and above. A version converter states
where it converts in its :meth:`~passcheck.passes._base.PassAdapter.precondition` too: onnxscript's converter reads its
range off its own source (``SUPPORTED_MIN_ONNX_OPSET`` .. ``SUPPORTED_MAX_ONNX_OPSET``, 18..23 in 0.5–0.7), onnx's
boundary passes need an op whose schema changes in the direction asked. A form outside that is ``unavailable`` in
every cell of the pass (``PassAdapter.why_not``): it judges nothing. On a narrowed hunt of DFT bases 577 of 605
converter items were such (docs/recall.md, round 8c, R76); on the library, 53 of 91 ``onnxscript:onnx-fusions`` items
(round 11c). So the scheduler draws a pass's items only from bases it takes (``Scheduler.draws``).

Both answers read the model's opset import (and, for a converter's precondition, its op types), which a neighbour
keeps; a rewrite that moves the ai.onnx stamp (``opset-stamp-up`` / ``-down``, ``attribute-inputs``,
``axes-inputs``, IR.md "Operator Sets") can move a form across the range, and such a form of a base outside it is
not drawn (a base inside it still draws its forms that move out: their cells of the pass stay ``unavailable``,
recorded ``unchecked`` with the reason). Other preconditions (``external-data``'s raw-data initializers) read
what rewrites change and are not asked here.

The answer is the parent's installed tool (the pinned environments of ``--env`` hold their own versions; the
declared ranges are class data, the same in each). A pass whose tool is not installed here, or that states no
range, leaves every base drawn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import onnx


def declares(pass_id: str) -> bool:
    """Whether ``pass_id``'s adapter, installed here, states which bases it takes: an opset bound
    (``min_opset`` / ``max_opset``) or a version converter's precondition (``converts_opset``)."""
    adapter = _adapter(pass_id)
    return adapter is not None and (_converts(adapter) or _bounded(adapter))


def is_converter(pass_id: str) -> bool:
    """Whether ``pass_id`` names a version converter (its adapter's ``converts_opset``), installed here."""
    adapter = _adapter(pass_id)
    return adapter is not None and _converts(adapter)


def refuses(pass_id: str, model: onnx.ModelProto) -> str | None:
    """Why ``pass_id`` does not take ``model`` by what it states up front (its declared opset range; for a converter,
    its precondition too), or None: it takes it, or ``pass_id`` states nothing / is not installed here. Never raises
    (an adapter whose check raises: None)."""
    adapter = _adapter(pass_id)
    if adapter is None:
        return None
    try:
        why = adapter.capabilities.outside(model)
        if why is None and _converts(adapter):
            why = adapter.precondition(model)
    except Exception:  # noqa: BLE001 - a check that cannot read the model leaves the base drawn
        return None
    return why


def _converts(adapter) -> bool:
    return bool(getattr(adapter, "converts_opset", False))


def _bounded(adapter) -> bool:
    caps = adapter.capabilities
    return caps.min_opset is not None or caps.max_opset is not None


def _adapter(pass_id: str):
    from passcheck.passes import get_pass

    try:
        adapter = get_pass(pass_id)
    except Exception:  # noqa: BLE001 - an unknown or external pass: no range known here
        return None
    return None if adapter.unavailable_reason() else adapter
