"""One judged group: every form's run under one pass (or the forms themselves), ready for the
oracles, with what its records need. The engine builds one per pass; ``--save-run`` writes it and
``passcheck report --rejudge`` judges it again (:mod:`passcheck.saved_runs`).
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from passcheck.oracles import annotations, expectations, inferred, op_counts, registry, validity
from passcheck.oracles._contract import Cells
from passcheck.records import CellResult, Finding, timed_out, with_timeout

#: The environment id of a run outside the matrix: its cells record no inferred types (no other environment to
#: compare them with, :mod:`passcheck.oracles.inferred`).
LOCAL = "local"

if TYPE_CHECKING:
    import onnx

    from passcheck.passes import PassOutcome


@dataclasses.dataclass
class Judged:
    """One group of cells ready to judge: every form under one pass (or the forms themselves),
    with what their records need. Saved as is by ``--save-run`` and judged again by
    ``passcheck report --rejudge`` (:mod:`passcheck.saved_runs`).

    Attributes:
        cells: the runs the oracles judge.
        hashes: form → sha256 of the form's model bytes.
        repro: the command reproducing these cells.
        env: the environment id.
        forms: the forms whose cells are reported (the others are judged only as parity context).
        form_repro: form → the command reproducing that form alone (a single-site mutant, say);
            a finding gets its form's, or its ``other_form``'s when on a form without one, else ``repro``.
        timeout: seconds one pass or model run had (the executor's ``--timeout``); a finding about
            that limit gets ``--timeout`` in its command, else the default limit would not show it.
    """

    cells: Cells
    hashes: dict[str, str]
    repro: str
    env: str
    forms: list[str]
    form_repro: dict[str, str] = dataclasses.field(default_factory=dict)
    timeout: float | None = None

    def repro_of(self, finding: Finding) -> str:
        """The command reproducing ``finding`` (see ``form_repro`` and ``timeout``)."""
        command = next(
            (self.form_repro[f] for f in (finding.form, finding.details.get("other_form")) if f in self.form_repro),
            self.repro,
        )
        return with_timeout(command, self.timeout) if timed_out(finding) else command

    def results(self) -> list[CellResult]:
        """Apply every registered oracle; one CellResult per reported form, in form order."""
        findings, unchecked = registry.judge(self.cells)
        out = []
        for r in self.cells.runs:
            if r.form not in self.forms:
                continue
            for f in findings[r.form]:
                f.repro = self.repro_of(f)
            out.append(
                outcome_cell(
                    r.case,
                    r.form,
                    r.pass_id,
                    r.model,
                    r.outcome,
                    self.env,
                    self.hashes[r.form],
                    findings=findings[r.form],
                    coverage={**annotations.coverage(r), **registry.coverage(r)},
                    notes={**validity.notes(r), **expectations.notes(r, self.cells.expect)},
                    unchecked=unchecked[r.form],
                    inferred=inferred.record(r) if self.env != LOCAL else {},
                )
            )
        return out


def outcome_cell(
    case: str,
    form: str,
    pass_id: str,
    model: onnx.ModelProto,
    outcome: PassOutcome,
    env: str,
    model_sha256: str,
    **judged: Any,
) -> CellResult:
    """The cell of ``form`` (``model``, whose bytes hash to ``model_sha256``) under pass ``pass_id``:
    what the pass did (status, error, time, versions, node counts, the output's op types), with
    ``judged`` (findings, coverage, notes, unchecked: the oracles' verdict, :meth:`Judged.results`;
    an outcome the oracles never judged gets :data:`~passcheck.records.INTERRUPTED` there)."""
    out = outcome.model if outcome.ok else None
    return CellResult(
        case,
        form,
        pass_id,
        outcome.status,
        env=env,
        error=outcome.error,
        seconds=outcome.seconds,
        versions=outcome.versions,
        model_sha256=model_sha256,
        nodes_before=len(model.graph.node),
        nodes_after=len(out.graph.node) if out is not None else None,
        ops_after=dict(sorted(op_counts(out).items())) if out is not None else {},
        **judged,
    )
