"""Candidate defects: findings grouped across forms, cases and environments, ranked by severity.

Grouping starts from root causes (:func:`passcheck.report.rootcause.root_causes`: a finding the
form itself explains, or the failed run of an output the checker rejects, is not a defect of its
own), then joins causes of every case that share the tool, the :class:`~passcheck.signature.Signature`
(the rewrite dropped, onnxruntime's levels as one pass) and the grouping text (:func:`grouping_text`: the
normalized error or message with what differs between occurrences of one defect masked: values, shapes,
onnxruntime's level-specific additions). A cause whose every finding is expected (a baseline match) is no candidate.

Rank (issue 31): crash > wrong result > invalid output > wrong shape or type > missed
optimization > other (:func:`passcheck.repro.plan.rank`); within a rank the candidate seen in more
cases comes first, then report order.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Mapping

from passcheck.records import INPUT, CellResult, Finding
from passcheck.signature import Signature

#: Pass-id prefix → the tool it runs.
_TOOLS = {"ort": "onnxruntime", "onnx": "onnx", "onnxscript": "onnxscript", "cmd": "cmd"}


def tool_of(f: Finding) -> str:
    """The tool ``f`` is about: the pass's (``ort:*`` → onnxruntime, ``cmd:*`` → cmd …); for a form
    itself (pass ``input``), onnx for a validity finding and onnxruntime for the others; onnxruntime for an
    annotation onnx's reference evaluator computes as annotated (``details["blame"] == "runtime"``,
    :func:`passcheck.oracles.annotations.reference_holds`: the run deviates, not the pass); onnx for a form's
    annotation onnx's shape inference wrote (``details["annotated_by"] == "onnx"``, verified by re-running it,
    :mod:`passcheck.oracles.inference_wrote`)."""
    if isinstance(f.details, dict) and f.details.get("blame") == "runtime":
        return "onnxruntime"
    if isinstance(f.details, dict) and f.details.get("annotated_by") == "onnx":
        return "onnx"
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

    @property
    def seen(self) -> str:
        """``N findings, M cases``: N distinct (id, environment) pairs, with the occurrences in parentheses when
        an id repeats (one per binding, per axis of an annotation …)."""
        distinct = len({(f.id, f.env) for f in self.findings})
        more = f" ({len(self.findings)} occurrences)" if len(self.findings) != distinct else ""
        return f"{distinct} findings{more}, {len(self.cases)} cases"

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


#: A bracketed list of masked items in normalized text (a shape, a value list; not ``[ShapeInferenceError]``).
_LIST = re.compile(r"\[(?:\s*(?:<n>|<name>|<names>|<list>|\?|,)\s*)*\]")
#: Nodes onnxruntime inserts at some levels only (InsertCastTransformer's precision casts): incidental producers.
_INSERTED = re.compile(r"^Cast Inserted")


def grouping_text(f: Finding, origins: Mapping[str, str] | None = None) -> str:
    """The text candidates group on, equal for one defect however its occurrences differ in detail:

    - a folding ``missed-optimization``: the op left and what it reads (constants, or constants and input
      shapes); the values it yields are masked (``[4]``, ``4``, ``[3 4]``, ``0.5`` are one defect);
    - a parity finding: the op types kept and their producers, a cast onnxruntime inserts at ``all`` read as
      no producer, and the op types one form gained that the other did not (ops both gained, as ``all``'s
      layout transforms, are masked);
    - a value mismatch (a ``wrong-result`` with compared values, ``details["worst"]``,
      :func:`passcheck.oracles.numeric.mismatch`): its text names nothing of the cause (every wrong rewrite
      of every case reads "output <name>: <n> of <n> elements outside …"), so its case is part of the text:
      the forms, levels and environments of one case join, other cases' mismatches do not; a hunt's pairs count
      as the base case they were found on (``origins``: :attr:`passcheck.triage.sources.Loaded.origins`), so the
      pairs a hunt shrank from one base for several signatures of one wrong output join;
    - otherwise the root-cause text (:func:`passcheck.report.rootcause.signature`: names and numbers masked)
      with each bracketed list (a shape, a value list) masked as ``<list>``.
    """
    from passcheck.report.rootcause import signature

    d = f.details if isinstance(f.details, dict) else {}
    if f.oracle == "folding" and f.kind == "missed-optimization" and d.get("op_type"):
        reads = "constants" if d.get("inputs") == "constants" else "constants and input shapes"
        return f"{d['op_type']} reading only {reads} not folded"
    if f.oracle == "parity" and "kept_nodes" in d:
        after = {f"{k.get('op')} after {_producer(k.get('after') or '')}" for k in d.get("kept_nodes") or []}
        new = d.get("new_op_types") or {}
        mine, theirs = set(new.get(f.form, [])), set(new.get(d.get("other_form", ""), []))
        return (
            f"kept {sorted(d.get('kept_op_types') or [])} ({', '.join(sorted(after))}); "
            f"gained only here {sorted(mine - theirs)}, only in the other form {sorted(theirs - mine)}"
        )
    text, masked = signature(f)[-1], ""
    while masked != text:
        masked, text = text, _LIST.sub("<list>", text)
    case = (origins or {}).get(f.case, f.case)
    return f"{text} on case {case}" if f.kind == "wrong-result" and "worst" in d else text


def _producer(after: str) -> str:
    """The op type of a kept node's producer (``after``: ``"OP NAME"``); "" for none or an inserted cast."""
    return "" if _INSERTED.match(after) else after.split(" ")[0]


def group(cells: Iterable[CellResult], origins: Mapping[str, str] | None = None) -> list[Candidate]:
    """The candidate defects of ``cells``, ranked (see the module docs); ``origins``: see :func:`grouping_text`."""
    from passcheck.report.rootcause import root_causes, signature_of
    from passcheck.repro.plan import RANKS, rank

    cells = list(cells)
    order = {id(f): i for i, f in enumerate(f for c in cells for f in c.findings)}
    joined: dict[tuple, list] = {}
    for cause in root_causes(cells):
        if cause.expected:
            continue
        rep = cause.finding
        key = (tool_of(rep), signature_of(rep), grouping_text(rep, origins))
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
