"""Candidate defects: findings grouped across forms, cases and environments, ranked by severity.

Grouping starts from root causes (:func:`passcheck.report.rootcause.root_causes`: a finding the
form itself explains, or the failed run of an output the checker rejects, is not a defect of its
own), then joins causes of every case that share the tool, the :class:`~passcheck.signature.Signature`
(the rewrite dropped, onnxruntime's levels as one pass) and the normalized error or message text.
A cause whose every finding is expected (a baseline match) is no candidate.

Rank (issue 31): crash > wrong result > invalid output > wrong shape or type > missed
optimization > other (:func:`passcheck.repro.plan.rank`); within a rank the candidate seen in more
cases comes first, then report order.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable

from passcheck.records import INPUT, CellResult, Finding
from passcheck.signature import Signature

#: Pass-id prefix → the tool it runs.
_TOOLS = {"ort": "onnxruntime", "onnx": "onnx", "onnxscript": "onnxscript", "cmd": "cmd"}


def tool_of(f: Finding) -> str:
    """The tool ``f`` is about: the pass's (``ort:*`` → onnxruntime, ``cmd:*`` → cmd …); for a form
    itself (pass ``input``), onnx for a validity finding and onnxruntime for the others."""
    if f.pass_id == INPUT:
        return "onnx" if f.oracle in ("validity", "conformance") else "onnxruntime"
    prefix = f.pass_id.partition(":")[0]
    return _TOOLS.get(prefix, prefix or "unknown")


@dataclasses.dataclass
class Candidate:
    """One candidate defect.

    Attributes:
        tool: see :func:`tool_of`.
        rank: one of :data:`passcheck.repro.plan.RANKS`.
        signature: the representative's signature (rewrite dropped, onnxruntime levels as ``ort:level``).
        text: the normalized error or message text the group agrees on.
        findings: every finding it explains; the representative first, then each cause's
            representative, then the rest in report order.
    """

    tool: str
    rank: str
    signature: Signature
    text: str
    findings: list[Finding]

    @property
    def finding(self) -> Finding:
        return self.findings[0]

    @property
    def cases(self) -> list[str]:
        return list(dict.fromkeys(f.case for f in self.findings))

    @property
    def forms(self) -> list[str]:
        return list(dict.fromkeys(f.form for f in self.findings))

    @property
    def passes(self) -> list[str]:
        return list(dict.fromkeys(f.pass_id for f in self.findings))

    @property
    def envs(self) -> list[str]:
        return list(dict.fromkeys(f.env for f in self.findings))

    def slug(self, limit: int = 48) -> str:
        """A folder-name part: kind, op types and the representative's form, lower case."""
        s = self.signature
        words = [s.kind, *s.ops[:3], s.error, self.finding.form if self.finding.form != "common" else ""]
        text = re.sub(r"[^a-z0-9]+", "-", "-".join(w for w in words if w).lower()).strip("-")
        return text[:limit].rstrip("-") or "finding"

    def to_json(self) -> dict:
        return {
            "tool": self.tool,
            "rank": self.rank,
            "signature": self.signature.to_json(),
            "text": self.text,
            "representative": self.finding.to_json(),
            "cases": self.cases,
            "forms": self.forms,
            "passes": self.passes,
            "envs": self.envs,
            "findings": [{"id": f.id, "env": f.env} for f in self.findings],
        }


def group(cells: Iterable[CellResult]) -> list[Candidate]:
    """The candidate defects of ``cells``, ranked (see the module docs)."""
    from passcheck.report.rootcause import root_causes, signature, signature_of
    from passcheck.repro.plan import RANKS, rank

    cells = list(cells)
    order = {id(f): i for i, f in enumerate(f for c in cells for f in c.findings)}
    joined: dict[tuple, list] = {}
    for cause in root_causes(cells):
        if cause.expected:
            continue
        rep = cause.finding
        key = (tool_of(rep), signature_of(rep), signature(rep)[-1])
        joined.setdefault(key, []).append(cause)
    out = []
    for (tool, sig, text), causes in joined.items():
        reps = [c.finding for c in causes]
        best = min(reps, key=lambda f: (RANKS.index(rank(f)), order[id(f)]))
        rest = [f for c in causes for f in c.explains if f is not best and not f.expected]
        heads = [f for f in rest if any(f is r for r in reps)]
        tail = [f for f in rest if not any(f is r for r in reps)]
        out.append(Candidate(tool, rank(best), sig, text, [best, *heads, *tail]))
    out.sort(key=lambda c: (RANKS.index(c.rank), -len(c.cases), order[id(c.finding)]))
    return out
