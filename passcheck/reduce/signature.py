"""What must survive a reduction step: a finding's signature.

Signature: the form it sits on, pass, oracle, kind, the op types it names (a parity finding's
``kept_op_types``, a folding finding's ``op_type``), an annotation finding's rule, and the class of
the error a rejection or invalid output reports (``AttributeError``, ``ValidationError``, …), so a
reduction cannot slide from one crash to another.
"""

from __future__ import annotations

import re
from typing import Any

_ERROR = re.compile(r"\b([A-Z][A-Za-z]*(?:Error|Exception|Fail|Failure|Aborted))\b")


def signature(finding) -> tuple[Any, ...]:
    """``(form, pass, oracle, kind, sorted named op types, rule, error class)`` of a Finding."""
    d = finding.details or {}
    ops = set(d.get("kept_op_types") or ())
    if isinstance(d.get("op_type"), str):
        ops.add(d["op_type"])
    error = _ERROR.search(str(d.get("error") or "") if finding.kind in ("rejected", "invalid-model") else "")
    return (finding.form, finding.pass_id, finding.oracle, finding.kind, tuple(sorted(ops)), d.get("rule"),
            error.group(1) if error else None)


def shown(target, findings) -> bool:
    """Whether one of ``findings`` (Finding records, unexpected ones) has ``target``'s signature."""
    want = signature(target)
    return any(not f.expected and signature(f) == want for f in findings)
