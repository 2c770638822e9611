"""What must survive a reduction step: a finding's :class:`~passcheck.signature.Signature`.

The one signature (pass, oracle, kind, the op types it names, rewrite, the error class of a
crash; for a pass that raised, its masked phrase and tool frame: a reduction cannot slide from one
crash to another), on the same form, with the same
annotation rule (a shape finding must not turn into a rank finding while the model shrinks).
"""

from __future__ import annotations

from typing import Any

from passcheck.signature import Signature


def signature(finding) -> tuple[Any, ...]:
    """``(form, Signature, rule)`` of a Finding: what a smaller pair must still show."""
    return (finding.form, Signature.of(finding), (finding.details or {}).get("rule"))


def shown(target, findings) -> bool:
    """Whether one of ``findings`` (Finding records, unexpected ones) has ``target``'s signature."""
    want = signature(target)
    return any(not f.expected and signature(f) == want for f in findings)
