"""Acceptance: a pass must not refuse or crash on a valid model; refusing one form only is the
clearest parity failure (seed 003 §3: one spelling of the same constant rejected)."""

from __future__ import annotations

from collections.abc import Sequence

from passcheck.oracles._context import FormRun
from passcheck.oracles._contract import BaseOracle, Cells
from passcheck.passes import FAILED, conversion
from passcheck.passes._base import STATED_LIMIT
from passcheck.records import Finding, brief

NAME = "acceptance"
#: Accepted forms named in a message (all of them are in the finding's ``accepted_forms``).
SHOWN = 5


def check(runs: Sequence[FormRun]) -> list[Finding]:
    accepted = [r.form for r in runs if r.outcome.ok]
    failed = sum(1 for r in runs if r.outcome.status in FAILED)
    shown = _shown(accepted)
    found = []
    for r in runs:
        if r.outcome.status not in FAILED:
            continue
        first = brief(r.outcome.error) or "no error text"
        where = "on this form only" if failed == 1 else f"on {failed} of {len(runs)} forms"
        scope = f" {where} (accepted: {shown})" if accepted else ""
        found.append(
            r.finding(
                "rejected",
                NAME,
                f"{r.pass_id} {r.outcome.status}{scope}: {first}",
                status=r.outcome.status,
                error=r.outcome.error,
                accepted_forms=accepted,
            )
        )
    # A limit the tool states is no finding by itself; stated for some forms while it accepts others
    # asked the same conversion, it is. A per-model boundary pass (onnx:convert-opset-down) asks each
    # form its own step (ConstantOfShape-20 asks 20->19, its Expand spelling 20->18): not comparable.
    limited = [
        r for r in runs if r.outcome.status == "unavailable" and (r.outcome.error or "").startswith(STATED_LIMIT)
    ]
    for r in limited:
        asked = conversion(r.pass_id, r.model)
        peers = [a.form for a in runs if a.outcome.ok and conversion(a.pass_id, a.model) == asked]
        if not peers:
            continue
        words = brief(r.outcome.error[len(STATED_LIMIT) :])
        where = "this form only" if len(limited) == 1 else f"{len(limited)} of {len(runs)} forms"
        found.append(
            r.finding(
                "rejected",
                NAME,
                f"{r.pass_id} cites a limit it documents on {where} while it accepts {_shown(peers)}: {words}",
                status="declined",
                error=r.outcome.error,
                accepted_forms=peers,
            )
        )
    return found


def _shown(forms: Sequence[str]) -> str:
    return ", ".join(forms[:SHOWN]) + (f", … ({len(forms)} in all)" if len(forms) > SHOWN else "")


class Acceptance(BaseOracle):
    """``rejected``: the pass declined or crashed on a form (see :func:`check`)."""

    id = NAME

    def judge(self, cells: Cells) -> list[Finding]:
        return check(cells.runs)


ORACLE = Acceptance()
