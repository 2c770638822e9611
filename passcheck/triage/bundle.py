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
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from passcheck.errors import PasscheckError
from passcheck.records import Finding
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
        reduced: what reduction did (:class:`passcheck.triage.follow.Reduction`'s line), "" when not tried.
        nodes: (nodes before, after) when the scripted pair is a reduced one.
        attribution: names held responsible (empty when none); ``attribution_note`` says how or why not.
        recheck: the line on the version installed here (:func:`passcheck.triage.follow.recheck`).
        first_bad: REPORT.md's "First bad version" text; ``bisect`` the bisection's record, when one ran.
    """

    status: str
    why: str
    finding: str = ""
    files: list[str] = dataclasses.field(default_factory=list)
    seconds: float = 0.0
    reduced: str = ""
    nodes: tuple[int, int] | None = None
    attribution: list[str] = dataclasses.field(default_factory=list)
    attribution_note: str = ""
    recheck: str = ""
    first_bad: str = ""
    bisect: dict | None = None


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
    extra_md: Callable[[Outcome], str],
    deadline: float,
    executor=None,
    reduce_seconds: float = 0.0,
    python: str | Path | None = None,
) -> Outcome:
    """Script ``c`` into ``folder`` (see the module docs); ``extra_md(outcome)`` is appended to ``REPORT.md``.
    With ``executor`` (an IsolatedExecutor) each finding tried is first reduced (at most ``reduce_seconds``, its
    reduced pair scripted first, the recorded one when that does not reproduce) and attributed
    (:mod:`passcheck.triage.follow`). Never raises for a finding it cannot script or a script that does not
    reproduce. ``python``: the interpreter the script must exit 1 with (default: this one)."""
    from passcheck.repro import bundle
    from passcheck.repro.plan import refusal
    from passcheck.triage import follow

    start = time.monotonic()
    fits = [f for f in c.findings if f.id not in refused and refusal(f) is None]
    if not fits:
        f = c.finding
        return Outcome("refused", refused.get(f.id) or refusal(f) or "no finding of it can be scripted", f.id)
    last = Outcome("refused", "", fits[0].id)
    for f in fits[:TRIES]:
        tries: list[tuple[Finding, list[str], follow.Reduction | None]] = [(f, list(cases_from), None)]
        names, note = [], "not attributed: no attribution was run"
        if executor is not None:
            red = (
                follow.reduce(f, folder, cases_from, executor, min(reduce_seconds, deadline - time.monotonic()))
                if reduce_seconds > 0
                else follow.Reduction(f, None, "no (not asked: --reduce-seconds 0)")
            )
            if red.module:
                tries.insert(0, (red.finding, [*cases_from, red.module], red))
            names, note = follow.attribute(f, executor, cases_from)
            said = red.said
        else:
            said = "no (not tried)"
        for g, g_from, red in tries:
            done = Outcome("refused", "", f.id, reduced=said, attribution=names, attribution_note=note)
            if red is not None:
                done.nodes = red.nodes
            elif (first := tries[0][2]) is not None:
                done.reduced = f"{said}; that pair's script was refused or did not exit 1 here: the recorded pair is"
                Path(first.module).unlink(missing_ok=True)  # not part of the bundle
            try:
                text, models, md, _how = bundle.build(dataclasses.replace(g, attribution=names), versions, g_from)
            except PasscheckError as exc:
                last = dataclasses.replace(done, why=str(exc))
                continue
            except Exception as exc:  # noqa: BLE001 - a form that no longer builds here: said, never a crash
                last = dataclasses.replace(done, why=f"the forms cannot be rebuilt here: {type(exc).__name__}: {exc}")
                continue
            try:
                timeout = max(MIN_SCRIPT_SECONDS, min(MAX_SCRIPT_SECONDS, deadline - time.monotonic()))
                done.status, done.files = "reproduced", ["repro.py", "REPORT.md", *models]
                if red is not None:
                    done.files.append(Path(red.module).name)
                md = follow.set_section(md, "Attribution", follow.attribution_md(names, note))
                md = md.rstrip("\n") + "\n\n" + extra_md(done)
                done.why = bundle.write(folder, text, models, md, timeout, python)
                done.seconds = time.monotonic() - start
                return done
            except PasscheckError as exc:
                last = dataclasses.replace(done, status="not reproduced", why=str(exc), files=[])
    last.seconds = time.monotonic() - start
    return last


def write_candidate(
    folder: Path,
    n: int,
    c: Candidate,
    outcome: Outcome,
    upstream: dict[str, Any] | None,
    versions: Mapping[str, str | None],
    python: str | Path | None = None,
) -> None:
    """``folder/candidate.json``: the candidate, its status and why, its upstream entry, the versions, and
    ``verified_with`` (the interpreter the script ran with) when ``python`` was given."""
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
        "reduced": {"said": outcome.reduced, "nodes": list(outcome.nodes) if outcome.nodes else None},
        "attribution": {"names": outcome.attribution, "note": outcome.attribution_note},
        "recheck": outcome.recheck,
        "first_bad_version": {"said": outcome.first_bad, "bisect": outcome.bisect},
        **({"verified_with": str(python)} if python is not None else {}),
    }
    (folder / "candidate.json").write_text(json.dumps(doc, indent=1, default=str) + "\n", encoding="utf-8")


def triage_md(
    n: int, total: int, c: Candidate, upstream_phrase: str, valid: list[str], outcome: Outcome, recheck: str
) -> str:
    """The sections triage adds to ``REPORT.md``: rank, upstream, where it shows, the reduction, the re-check on
    the version installed here, why the form is valid."""
    shown = (
        f"{c.seen.replace(' cases', ' case(s)')} ({', '.join(c.cases[:6])}"
        f"{' …' if len(c.cases) > 6 else ''}); forms {', '.join(c.forms[:6])}; passes {', '.join(c.passes)}; "
        f"environments {', '.join(c.envs)}"
    )
    why = "\n".join(valid) if valid else "Nothing recorded (the form is `common`, or its case names no spec source)."
    return f"""## Triage
- candidate {n} of {total}, rank: {c.rank} ({c.tool})
- upstream: {upstream_phrase}
- seen as: {shown}
- reduced: {outcome.reduced or "no (not tried)"}
- re-checked: {recheck}

## Why the uncommon form is valid
{why}
"""
