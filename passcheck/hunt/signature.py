"""Finding signatures in a hunt: :class:`passcheck.signature.Signature`, computed on a pair.

The one signature type lives in the data layer (:mod:`passcheck.signature`); a hunt knows the
pair (base, mutant) and the site labels its rewrite changed, so its op types include those at the
sites (:func:`passcheck.signature.site_ops`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from passcheck.signature import PASS_CONTRACT, Signature, site_ops

if TYPE_CHECKING:
    import onnx

    from passcheck.records import Finding

__all__ = ["PASS_CONTRACT", "Signature", "signature", "site_ops"]


def signature(finding: Finding, rewrite: str, models: Iterable[onnx.ModelProto], labels: Iterable[str]) -> Signature:
    """The signature of ``finding`` seen on a pair rewritten by ``rewrite`` (a rewrite kind) at ``labels``."""
    return Signature.of(finding, rewrite, models, labels)
