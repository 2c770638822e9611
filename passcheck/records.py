"""The data passcheck produces: findings and per-cell results, JSON round-trippable.

A *cell* is one (case, form, pass, env). Every report format renders the JSON of these records.
"""

from __future__ import annotations

import dataclasses
from typing import Any

#: Pseudo-pass id under which each form itself is judged, before any pass runs (the input cells).
INPUT = "input"

SCHEMA_VERSION = 1

#: Finding kinds (what went wrong), independent of the oracle that saw it.
KINDS = (
    "wrong-result",  # numbers differ from the baseline or the common form
    "annotation-violated",  # a shape/type annotation does not hold at run time (seed 000)
    "invalid-model",  # the checker rejects a model the pass wrote
    "validity-disagreement",  # the checker rejects a form onnxruntime runs, or accepts one broken on purpose
    "rejected",  # the pass declined or crashed on a valid model, or on one form only
    "missed-optimization",  # a fusion/fold applied to one form only, or a foldable value left
    "less-precise",  # inferred shapes less precise on one form than on the other
    "expectation-failed",  # a case's own expectation does not hold
    "input-mutated",  # the pass changed the ModelProto it was given (pass contract)
    "description-dropped",  # the pass's output lost a doc_string/metadata/denotation of the interface (pass contract)
    "spec-violation",  # a value outside the domain the operator docs state, which the checker lets through
)

#: ``unchecked``: no unexpected finding, but something the oracles must judge was not judged
#: (see :attr:`CellResult.unchecked`); never reported as ``ok``.
VERDICTS = ("ok", "findings", "expected", "unchecked", "skipped", "unavailable", "error")


def timed_out(finding: Finding) -> bool:
    """True when ``finding`` is about a time limit passcheck set: a pass killed at ``--timeout``
    (status ``timeout``) or a model run that gave no result in time. Its reproduce command must
    carry the same ``--timeout`` (:func:`with_timeout`)."""
    details = finding.details if isinstance(finding.details, dict) else {}
    error = str(details.get("error", ""))
    return (
        details.get("status") == "timeout"
        or "timed out" in finding.message
        or "timeout" in error
        or "no result after" in error
        or "no result after" in finding.message
    )


def with_timeout(command: str, seconds: float | None) -> str:
    """``command`` with ``--timeout SECONDS`` (the limit the run had) unless it is None or already given."""
    if not seconds or not command or " --timeout " in f"{command} ":
        return command
    return f"{command} --timeout {seconds:g}"


def brief(text: str | None, limit: int = 240) -> str:
    """The first line of ``text``, cut to ``limit`` characters (finding messages stay one line)."""
    line = (text or "").strip().splitlines()[0] if (text or "").strip() else ""
    return line if len(line) <= limit else line[: limit - 1] + "…"


@dataclasses.dataclass
class Finding:
    """One thing an oracle saw, named ``case | form | pass | env | oracle``.

    Attributes:
        kind: one of :data:`KINDS`.
        oracle: the oracle that produced it (validity, numeric, annotations, parity, folding,
            acceptance, expectations).
        message: one line saying what differed.
        details: structured data (tolerances, nodes, values) for machine readers.
        expected: set by a baseline match; ``reason`` then says why it is known.
        attribution: the parts of the tool held responsible (onnxruntime transformer or rule
            names such as ``ConvBNFusion``), filled on demand by ``passcheck attribute``.
    """

    kind: str
    oracle: str
    case: str
    form: str
    pass_id: str
    message: str
    details: dict[str, Any] = dataclasses.field(default_factory=dict)
    env: str = "local"
    expected: bool = False
    reason: str = ""
    repro: str = ""
    attribution: list[str] = dataclasses.field(default_factory=list)

    @property
    def id(self) -> str:
        """Stable id for baselines: ``case:form|pass|oracle|kind`` (env-independent)."""
        return f"{self.case}:{self.form}|{self.pass_id}|{self.oracle}|{self.kind}"

    def headline(self) -> str:
        return f"{self.case} | {self.form} | {self.pass_id} | {self.env} | {self.oracle}: [{self.kind}] {self.message}"

    def to_json(self) -> dict[str, Any]:
        d = dataclasses.asdict(self)
        d["id"] = self.id
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Finding:
        fields = {f.name for f in dataclasses.fields(cls)}
        return cls(**{k: v for k, v in d.items() if k in fields})


@dataclasses.dataclass
class CellResult:
    """What happened to one form under one pass in one environment.

    Attributes:
        status: the pass outcome status (see passcheck.passes.STATUSES) or ``skipped``.
        model_sha256: hash of the input model bytes the pass received.
        nodes_before / nodes_after: node counts of the main graph.
        ops_after: op-type multiset of the output (``domain::op`` for non-default domains).
        findings: everything the oracles saw for this cell.
        coverage: annotation coverage of the output's first run (annotated / checked /
            unobserved / unchecked counts, and ``reasons``: value → why it was not checked).
        unchecked: what the oracles had to judge and could not, → why (e.g. ``output 'y'`` →
            the unoptimized model does not run; ``annotation 'If_0.then_branch::t'`` → the
            reference evaluator failed). Not empty → verdict ``unchecked`` unless a finding
            already fails the cell. Parts that cannot be observed for a reason that is not
            passcheck's (a branch that never ran) are in ``coverage``, not here.
        notes: oracle id → what its verdict rests on when not the usual judge (e.g. ``validity``: a
            model onnxruntime saved holds its own contrib ops, judged by onnxruntime running it).
        unchecked_known: the reason of the baseline entry that accepts ``unchecked`` (its id is
            :attr:`unchecked_id`); set, the cell's verdict is ``expected`` instead.
        inferred: graph output → what a pass that does not rewrite the graph stated of its type, and whether
            the run confirmed it (:func:`passcheck.oracles.inferred.record`); the matrix compares it across
            environments. Empty otherwise, and then left out of :meth:`to_json`.
    """

    case: str
    form: str
    pass_id: str
    status: str
    env: str = "local"
    error: str | None = None
    seconds: float = 0.0
    versions: dict[str, str | None] = dataclasses.field(default_factory=dict)
    model_sha256: str = ""
    nodes_before: int = 0
    nodes_after: int | None = None
    ops_after: dict[str, int] = dataclasses.field(default_factory=dict)
    findings: list[Finding] = dataclasses.field(default_factory=list)
    coverage: dict[str, Any] = dataclasses.field(default_factory=dict)
    unchecked: dict[str, str] = dataclasses.field(default_factory=dict)
    unchecked_known: str = ""
    notes: dict[str, str] = dataclasses.field(default_factory=dict)
    inferred: dict[str, dict[str, Any]] = dataclasses.field(default_factory=dict)

    @property
    def key(self) -> tuple[str, str, str, str]:
        return (self.case, self.form, self.pass_id, self.env)

    @property
    def unchecked_id(self) -> str:
        """Baseline id of this cell's unchecked parts, ``case:form|pass|unchecked|unchecked``:
        a baseline entry naming it accepts them (``unchecked_known`` then holds its reason)."""
        return f"{self.case}:{self.form}|{self.pass_id}|unchecked|unchecked"

    @property
    def verdict(self) -> str:
        if self.status == "skipped":
            return "skipped"
        if any(not f.expected for f in self.findings):  # an unavailable cell may hold one (acceptance)
            return "findings"
        # a pass the user named that did not run is not checked (see require_run)
        if self.status == "unavailable" and (NOT_RUN not in self.unchecked or self.unchecked_known):
            return "unavailable"
        if self.unchecked and not self.unchecked_known:
            return "unchecked"
        if self.findings or self.unchecked:
            return "expected"
        return "ok"

    def to_json(self) -> dict[str, Any]:
        d = dataclasses.asdict(self)  # the findings too, as Finding.to_json but its id
        for fd, f in zip(d["findings"], self.findings, strict=True):
            fd["id"] = f.id
        if not d["inferred"]:
            del d["inferred"]
        d["verdict"] = self.verdict
        d["type"] = "cell"
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> CellResult:
        fields = {f.name for f in dataclasses.fields(cls)}
        kw = {k: v for k, v in d.items() if k in fields}
        kw["findings"] = [Finding.from_json(f) for f in d.get("findings", [])]
        return cls(**kw)


#: :attr:`CellResult.unchecked` key of a pass the user named that did not run on a form.
NOT_RUN = "pass not run"


#: :attr:`CellResult.unchecked` key of a pass output the oracles never judged: the run was interrupted
#: (Ctrl-C, SIGTERM) after the pass produced it. Such a cell is in the partial report, never in the
#: stream, so ``--resume`` runs it again.
INTERRUPTED = "interrupted"


def require_run(cell: CellResult) -> CellResult:
    """``cell`` with an ``unavailable`` status recorded as unchecked (key :data:`NOT_RUN`, the
    cell's reason as why): a pass the user named (``--pass``, the pytest marker, the testing
    helpers) that did not run on a form checked nothing, so the cell fails the run like any part
    not checked. Default passes a form is outside of stay ``unavailable`` (not a failure)."""
    if cell.status == "unavailable":
        cell.unchecked.setdefault(NOT_RUN, cell.error or "unavailable")
    return cell


def nothing_checked(cells) -> bool:
    """True when there are cells and every one is ``skipped`` or ``unavailable``: the run judged nothing
    (e.g. every selected case needs another onnx), which must not pass as a clean run."""
    cells = list(cells)
    return bool(cells) and all(c.verdict in ("skipped", "unavailable") for c in cells)


def exit_code(cells) -> int:
    """The CLI exit code for these cells: 1 when one has an unexpected finding or was not fully
    checked (verdict ``findings`` or ``unchecked``), or when none was checked at all
    (:func:`nothing_checked`), else 0."""
    cells = list(cells)
    return 1 if nothing_checked(cells) or any(c.verdict in ("findings", "unchecked") for c in cells) else 0
