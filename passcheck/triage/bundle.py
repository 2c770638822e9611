"""One candidate's folder ``DIR/<rank>-<tool>-<slug>/``: the pair (model files), ``repro.py`` and
``REPORT.md`` when the defect reproduces here, and ``candidate.json`` always.

The reproducer is :mod:`passcheck.repro`'s (:func:`passcheck.repro.bundle.build` and ``write``: the
script is run here and must exit 1 before anything is kept). A candidate's findings are tried in
order (the representative first) until one reproduces, at most :data:`TRIES`; those
:func:`passcheck.repro.plan.refusal` refuses are skipped. Status:

- ``reproduced``: a script exits 1 here (its ``BUG:`` line is kept);
- ``not reproduced``: every script written exited otherwise (why: the last one's exit);
- ``refused``: no finding of it can be scripted faithfully (why: the representative's reason).
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from passcheck.errors import PasscheckError
from passcheck.triage.candidates import Candidate

#: How many of a candidate's findings are scripted at most.
TRIES = 3
#: The shortest time a script is given to run here (seconds), even when the budget is nearly spent.
MIN_SCRIPT_SECONDS = 60.0
#: The longest (``passcheck repro``'s limit).
MAX_SCRIPT_SECONDS = 600.0


@dataclasses.dataclass
class Outcome:
    """What triage did with one candidate.

    Attributes:
        status: ``reproduced``, ``not reproduced``, ``refused`` or ``not reached``.
        why: the reason for any status but ``reproduced``; the script's ``BUG:`` line for it.
        finding: id of the finding scripted (or tried last), "" when none was.
        files: names of the files in the folder.
        seconds: time spent on it.
    """

    status: str
    why: str
    finding: str = ""
    files: list[str] = dataclasses.field(default_factory=list)
    seconds: float = 0.0


def folder_name(n: int, c: Candidate) -> str:
    """``<rank>-<tool>-<slug>``, the rank two digits (``01-onnxruntime-wrong-result-add``)."""
    return f"{n:02d}-{c.tool}-{c.slug()}"


def attempt(
    c: Candidate,
    folder: Path,
    *,
    versions: Mapping[str, str | None],
    cases_from: Sequence[str],
    refused: Mapping[str, str],
    extra_md: str,
    deadline: float,
) -> Outcome:
    """Script ``c`` into ``folder`` (see the module docs); ``extra_md`` is appended to ``REPORT.md``.
    Never raises for a finding it cannot script or a script that does not reproduce."""
    from passcheck.repro import bundle
    from passcheck.repro.plan import refusal

    start = time.monotonic()
    fits = [f for f in c.findings if f.id not in refused and refusal(f) is None]
    if not fits:
        f = c.finding
        return Outcome("refused", refused.get(f.id) or refusal(f) or "no finding of it can be scripted", f.id)
    last = Outcome("refused", "", fits[0].id)
    for f in fits[:TRIES]:
        try:
            text, models, md, _how = bundle.build(f, versions, cases_from)
        except PasscheckError as exc:
            last = Outcome("refused", str(exc), f.id)
            continue
        except Exception as exc:  # noqa: BLE001 - a form that no longer builds here: said, never a crash
            last = Outcome("refused", f"the forms cannot be rebuilt here: {type(exc).__name__}: {exc}", f.id)
            continue
        try:
            timeout = max(MIN_SCRIPT_SECONDS, min(MAX_SCRIPT_SECONDS, deadline - time.monotonic()))
            bug = bundle.write(folder, text, models, md.rstrip("\n") + "\n\n" + extra_md, timeout)
            return Outcome("reproduced", bug, f.id, ["repro.py", "REPORT.md", *models], time.monotonic() - start)
        except PasscheckError as exc:
            last = Outcome("not reproduced", str(exc), f.id)
    last.seconds = time.monotonic() - start
    return last


def write_candidate(
    folder: Path,
    n: int,
    c: Candidate,
    outcome: Outcome,
    upstream: dict[str, Any] | None,
    versions: Mapping[str, str | None],
) -> None:
    """``folder/candidate.json``: the candidate, its status and why, its upstream entry, the versions."""
    folder.mkdir(parents=True, exist_ok=True)
    doc = {
        "number": n,
        **c.to_json(),
        "status": outcome.status,
        "why": outcome.why,
        "scripted": outcome.finding,
        "files": outcome.files,
        "seconds": round(outcome.seconds, 1),
        "upstream": upstream,
        "versions": {k: v for k, v in versions.items() if v},
    }
    (folder / "candidate.json").write_text(json.dumps(doc, indent=1, default=str) + "\n", encoding="utf-8")


def triage_md(n: int, total: int, c: Candidate, upstream_phrase: str, valid: list[str]) -> str:
    """The sections triage adds to ``REPORT.md``: rank, upstream, where it shows, why the form is valid."""
    shown = (
        f"{len(c.findings)} finding(s) in {len(c.cases)} case(s) ({', '.join(c.cases[:6])}"
        f"{' …' if len(c.cases) > 6 else ''}); forms {', '.join(c.forms[:6])}; passes {', '.join(c.passes)}; "
        f"environments {', '.join(c.envs)}"
    )
    why = "\n".join(valid) if valid else "Nothing recorded (the form is `common`, or its case names no spec source)."
    return f"""## Triage
- candidate {n} of {total}, rank: {c.rank} ({c.tool})
- upstream: {upstream_phrase}
- seen as: {shown}
- reduced: no (the pair as the run or hunt recorded it; a hunt's pair is already shrunk)

## Why the uncommon form is valid
{why}
"""
