"""``passcheck triage``'s work: read, group, rank, and bundle each candidate within a time budget."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from passcheck.errors import PasscheckError


@dataclasses.dataclass
class Triaged:
    """What :func:`triage` did.

    Attributes:
        rows: one dict per candidate, ranked: ``n``, ``candidate`` (:class:`~passcheck.triage.candidates.Candidate`),
            ``outcome`` (:class:`~passcheck.triage.bundle.Outcome`), ``upstream`` (its known_upstream entry or
            None), ``folder`` (its folder name under ``out``), ``written`` (whether that folder exists).
        versions: the tools' versions here.
        seconds: wall time of the whole triage.
    """

    rows: list[dict[str, Any]]
    versions: dict[str, str | None]
    seconds: float


def triage(
    paths: Sequence[str | Path],
    out: str | Path,
    budget: float | None = None,
    cases_from: Sequence[str] = (),
    say: Callable[[str], None] = lambda _line: None,
) -> Triaged:
    """Triage the runs and hunts at ``paths`` into ``out`` (see :mod:`passcheck.triage`).

    Args:
        budget: seconds for the whole triage; candidates not started within it are ``not reached``
            (one started is given at least :data:`passcheck.triage.bundle.MIN_SCRIPT_SECONDS` to finish).
        cases_from: case module files or folders the runs' cases come from.
        say: called with one line per candidate as it is done.

    Raises:
        PasscheckError: a path is not a run or hunt; ``out`` is a file or a folder that is not empty.
    """
    from passcheck._versions import environment
    from passcheck.repro.bundle import VERSIONED
    from passcheck.triage import bundle, index, known, sources, spec
    from passcheck.triage.candidates import group

    start = time.monotonic()
    deadline = float("inf") if budget is None else start + budget
    loaded = sources.load(paths)
    out = Path(out)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise PasscheckError(f"--out {out}: {'not a folder' if not out.is_dir() else 'not empty'}; choose a new folder")
    out.mkdir(parents=True, exist_ok=True)
    if loaded.hunts:
        from passcheck.passes.isolation import IsolatedExecutor

        with IsolatedExecutor() as ex:
            sources.run_hunts(loaded, ex, cases_from)
    versions = {k: v for k, v in environment().items() if k in VERSIONED}
    all_from = [*cases_from, *loaded.cases_from]
    candidates = group(loaded.cells)
    rows = []
    for n, c in enumerate(candidates, 1):
        upstream = known.known(c.findings, c.tool)
        name = bundle.folder_name(n, c)
        if time.monotonic() >= deadline:
            outcome = bundle.Outcome("not reached", f"the budget of {budget:g} s ran out before it")
        else:
            extra = bundle.triage_md(n, len(candidates), c, known.phrase(upstream), spec.why_valid(c.finding, all_from))
            outcome = bundle.attempt(
                c,
                out / name,
                versions=versions,
                cases_from=all_from,
                refused=loaded.refused,
                extra_md=extra,
                deadline=deadline,
            )
            bundle.write_candidate(out / name, n, c, outcome, upstream, versions)
        rows.append(
            {
                "n": n,
                "candidate": c,
                "outcome": outcome,
                "upstream": upstream,
                "folder": name,
                "written": (out / name).is_dir(),
            }
        )
        say(
            f"{n}/{len(candidates)} {c.rank} | {c.tool} | {c.finding.id}: {outcome.status}"
            + (f" ({outcome.why})" if outcome.status != "reproduced" else "")
        )
    (out / "index.md").write_text(index.index_md(rows, [str(p) for p in paths], versions, budget), encoding="utf-8")
    return Triaged(rows, versions, time.monotonic() - start)
