"""Run one pair (a base and its rewritten form) under one pass and keep the findings the rewrite
is to blame for.

The rewritten form first passes the equivalence gate (checker, same interface, same outputs as
the base under ``ort:disabled``); a form it refuses is a rewrite's problem, never a finding. Then
both forms go through :func:`passcheck.engine.evaluate` (the ``input`` judgement and the pass) in
the given executor. Kept: comparative findings (parity, acceptance) on either form; a per-form
finding on the rewritten form only when the base shows no finding of the same oracle and kind
under the same pass (what both forms do is the base's, not the rewrite's). A pass failing on the
base (crashing, declining, timing out: :func:`failure`) is the base's whatever the rewritten form
does, as a run of the base alone shows it; on the rewritten form too when it fails there the same
way (status and error behaviour). On a form onnxruntime cannot run (its ``input`` finding is
``runtime`` / ``rejected``), what onnxruntime's optimizer levels then fail to fold or fuse is that
same defect (constant folding runs the kernel that fails), not a second one: those parity findings
are not kept.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from passcheck.records import Finding

if TYPE_CHECKING:
    import onnx

COMMON = "common"
#: Oracles that compare the forms: their findings are the pair's, whichever form they sit on.
COMPARATIVE = frozenset({"parity", "acceptance"})
ACCEPTANCE = "acceptance"


@dataclasses.dataclass(frozen=True)
class Setting:
    """How a pair is fed and judged: the subject id (it seeds the feeds), the bindings, a case's
    own feed function, and the numeric tolerances."""

    subject_id: str
    bindings: Sequence[Mapping[str, int]] = ({}, {})
    feeds: Callable[..., dict[str, Any]] | None = None
    rtol: float | None = None
    atol: float | None = None

    def feed_list(self, model: onnx.ModelProto) -> list[dict[str, Any]]:
        """The feeds of every binding, as :func:`passcheck.engine.evaluate` derives them.

        Raises:
            FeedError: feeds cannot be synthesized for ``model``.
        """
        from passcheck.engine import feeds_for, seed_for

        if self.feeds:
            return [self.feeds(b, seed_for(self.subject_id, i)) for i, b in enumerate(self.bindings)]
        return feeds_for(model, self.subject_id, self.bindings)


@dataclasses.dataclass
class Outcome:
    """``status``: ``done`` (the pair ran), ``refused`` (the gate refused the rewritten form: a
    rewrite's problem), ``unverified`` (the onnx checker's worker died on a form: the gate could
    not judge the pair), ``base-fails`` (the base does not run on its feeds: nothing to compare
    with); ``findings``: the ones the rewrite is to blame for."""

    status: str
    findings: list[Finding] = dataclasses.field(default_factory=list)
    reason: str = ""
    #: ``[category, reason]`` of the cells that were ``unavailable`` (see :mod:`.noise`).
    unavailable: list[list[str]] = dataclasses.field(default_factory=list)
    #: where the pass acted on the base (:class:`.guide.Acted`, from its ``common`` cell); None: not run.
    acted: Any = None
    #: a variation item's pair judgement (:func:`.vary_equiv.pair`: its ``status``, ``reason``, ``findings``
    #: count); None when the neighbour is not equivalent to its base (judged alone only).
    pair: dict | None = None
    #: a variation item's op types the pass wrote on the neighbour only (:func:`.vary_probe.wrote`).
    wrote: list[str] = dataclasses.field(default_factory=list)


def probe(
    setting: Setting,
    base: onnx.ModelProto,
    form: str,
    mutant: onnx.ModelProto,
    pass_id: str,
    executor,
    expected: Sequence[Any] | None = None,
) -> Outcome:
    """Gate ``mutant`` against ``base``, then judge both under ``pass_id`` (see module docs).

    ``executor``: an :class:`~passcheck.passes.isolation.IsolatedExecutor` (passes and model runs).
    ``expected``: ``base``'s runs on ``setting``'s feeds when already made (not made again).
    """
    from passcheck.engine import Subject, evaluate
    from passcheck.errors import PasscheckError

    refused = gate(setting, base, form, mutant, executor, expected)
    if refused is not None:
        return refused
    subject = Subject(
        id=setting.subject_id,
        forms={COMMON: base, form: mutant},
        bindings=setting.bindings,
        feeds=setting.feeds,
        rtol=setting.rtol,
        atol=setting.atol,
    )
    runs: list = []
    try:
        cells = evaluate(subject, [pass_id], executor=executor, record=lambda judged: runs.extend(judged.cells.runs))
    except PasscheckError as exc:
        return Outcome("refused", reason=str(exc))
    from passcheck.hunt.guide import from_runs
    from passcheck.hunt.noise import classify

    acted = from_runs(runs, base, COMMON, pass_id)
    return Outcome("done", blamed(cells, form), unavailable=classify(cells), acted=acted)


def gate(
    setting: Setting,
    base: onnx.ModelProto,
    form: str,
    mutant: onnx.ModelProto,
    executor,
    expected: Sequence[Any] | None = None,
) -> Outcome | None:
    """The equivalence gate of :func:`probe` alone (in ``executor``'s environment): None when
    ``mutant`` computes what ``base`` computes on ``setting``'s feeds, else the item's
    :class:`Outcome` (``unverified``, ``refused`` or ``base-fails``, with the reason)."""
    from passcheck.errors import PasscheckError, PasscheckInternalError
    from passcheck.mutations.equivalence import Unverified, verify_equivalent
    from passcheck.oracles.validity import Checker

    runner = getattr(executor, "run_model", None)
    try:
        verify_equivalent(base, mutant, setting.feed_list(base), form, runner, expected, checker=Checker(executor))
    except Unverified as exc:  # the checker's crash, never a finding
        return Outcome("unverified", reason=str(exc))
    except PasscheckInternalError as exc:  # a rewrite bug, never a finding
        return Outcome("refused", reason=str(exc))
    except PasscheckError as exc:
        return Outcome("base-fails", reason=str(exc))
    return None


def blamed(cells, form: str) -> list[Finding]:
    """The findings of ``cells`` the rewrite to ``form`` is to blame for (see module docs), each
    the representative of its root cause (:func:`passcheck.report.rootcause.root_causes`): a pass
    rejecting a form onnxruntime cannot run at all is that form's ``input`` finding, not another bug,
    and so is what onnxruntime's optimization levels leave unfolded on it."""
    from passcheck.report.rootcause import pass_family, root_causes

    explained = {id(f) for rc in root_causes(cells) for f in rc.others}
    seen = {(c.pass_id, c.form, f.oracle, f.kind) for c in cells for f in c.findings}
    unrunnable = {c.form for c in cells if c.pass_id == "input" for f in c.findings if _cannot_run(f)}
    base_failures = {(c.pass_id, k) for c in cells if c.form == COMMON for f in c.findings if (k := failure(f))}
    out = []
    for c in cells:
        for f in c.findings:
            if f.expected or id(f) in explained:
                continue
            # onnxruntime's levels, keyed or not, fold by running the kernel the form cannot run
            if f.oracle == "parity" and pass_family(c.pass_id) == "ort:level" and c.form in unrunnable:
                continue
            if (c.pass_id, failure(f)) in base_failures:  # the base failed this pass so: its own finding
                continue
            if f.oracle in COMPARATIVE or (c.form == form and (c.pass_id, COMMON, f.oracle, f.kind) not in seen):
                out.append(f)
    return out


def failure(f: Finding) -> tuple[str, str] | None:
    """How a pass failed on a form, as an acceptance finding states it: (status, the error's behaviour:
    :func:`passcheck.signature.crash_error` for a crash, else its masked first line); None for any
    other finding (a documented limit cited on one form only is a pair's finding, not a failure)."""
    from passcheck.passes._base import FAILED, STATED_LIMIT
    from passcheck.signature import crash_error, error_phrase

    status, error = (f.details or {}).get("status"), str((f.details or {}).get("error") or "")
    if f.oracle != ACCEPTANCE or status not in FAILED or error.startswith(STATED_LIMIT):
        return None
    return status, crash_error(f) or error_phrase(error)


def _cannot_run(f: Finding) -> bool:
    return (f.oracle, f.kind) == ("runtime", "rejected") and not f.expected
