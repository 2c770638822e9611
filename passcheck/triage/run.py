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
    *,
    reduce_seconds: float = 30.0,
    bisector: Callable[[Any, str, Path, Sequence[str]], tuple[str, dict]] | None = None,
    python: str | Path | None = None,
) -> Triaged:
    """Triage the runs and hunts at ``paths`` into ``out`` (see :mod:`passcheck.triage`).

    Args:
        budget: seconds for the whole triage; candidates not started within it are ``not reached``
            (one started is given at least :data:`passcheck.triage.bundle.MIN_SCRIPT_SECONDS` to finish).
        cases_from: case module files or folders the runs' cases come from.
        say: called with one line per candidate as it is done.
        reduce_seconds: at most this long per finding scripted is spent reducing its pair (0: not reduced).
        bisector: ``bisector(finding, package, folder, cases_from) -> (Markdown, record)`` names the first bad
            version of a reproduced candidate (``--bisect``: it builds environments); None: not bisected, said why.
            Any exception it raises is said as "not bisected: …".
        python: the interpreter each ``repro.py`` must exit 1 with (e.g. a venv holding only the tools, issue
            31); None: this one. Its onnx, onnxruntime, numpy and onnxscript must be the versions here, which
            every ``REPORT.md`` names.

    Raises:
        PasscheckError: a path is not a run or hunt; ``out`` is a file or a folder that is not empty; ``python``
            cannot be run or has other versions of those tools.
    """
    from passcheck._versions import environment
    from passcheck.hunt import documented
    from passcheck.passes.isolation import executor_for
    from passcheck.repro.bundle import VERSIONED
    from passcheck.repro.plan import interpreter_versions
    from passcheck.triage import bundle, follow, index, known, sources, spec
    from passcheck.triage.candidates import group

    start = time.monotonic()
    deadline = float("inf") if budget is None else start + budget
    loaded = sources.load(paths)
    out = Path(out)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise PasscheckError(f"--out {out}: {'not a folder' if not out.is_dir() else 'not empty'}; choose a new folder")
    versions = {k: v for k, v in environment().items() if k in VERSIONED}
    if python is not None:
        theirs = interpreter_versions(python, VERSIONED)
        differ = [f"{k} {theirs[k]} there, {versions.get(k)} here" for k in VERSIONED if theirs[k] != versions.get(k)]
        if differ:
            raise PasscheckError(f"--python {python}: {'; '.join(differ)} (REPORT.md names the versions here)")
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    with executor_for(None) as ex:  # its worker holds the tools' block too (M311); kept for the next (M530)
        if loaded.hunts:
            sources.run_hunts(loaded, ex, cases_from)
        all_from = [*cases_from, *loaded.cases_from]
        candidates = group(loaded.cells, loaded.origins)
        for n, c in enumerate(candidates, 1):
            upstream = known.known(c.findings, c.tool)
            doc = documented.of_findings(c.findings, loaded.records)  # a row of docs/found.md … already records it
            name = bundle.folder_name(n, c)
            if time.monotonic() >= deadline:
                outcome = bundle.Outcome("not reached", f"the budget of {budget:g} s ran out before it")
            else:
                phrase, valid = index.upstream_phrase(upstream, doc), spec.why_valid(c.finding, all_from)

                def extra(o, n=n, c=c, phrase=phrase, valid=valid) -> str:
                    line = follow.recheck(c.tool, o.status, o.why, versions)
                    return bundle.triage_md(n, len(candidates), c, phrase, valid, o, line)

                outcome = bundle.attempt(
                    c,
                    out / name,
                    versions=versions,
                    cases_from=all_from,
                    refused=loaded.refused,
                    extra_md=extra,
                    deadline=deadline,
                    executor=ex,
                    reduce_seconds=reduce_seconds,
                    python=python,
                )
                _follow_up(outcome, c, out / name, versions, all_from, bisector)
                bundle.write_candidate(out / name, n, c, outcome, upstream, versions, python)
            rows.append(
                {
                    "n": n,
                    "candidate": c,
                    "outcome": outcome,
                    "upstream": upstream,
                    "documented": doc,
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


def _follow_up(outcome, c, folder: Path, versions, cases_from: Sequence[str], bisector) -> None:
    """The re-check line and the first bad version (bisected when ``bisector`` is given and the candidate
    reproduces here) into ``outcome`` and, for a reproduced one, its REPORT.md."""
    from passcheck.repro.tools import package
    from passcheck.triage import follow

    outcome.recheck = follow.recheck(c.tool, outcome.status, outcome.why, versions)
    outcome.first_bad = follow.not_bisected(c.tool, outcome.status, bisector is not None)
    if outcome.status != "reproduced":
        return
    if bisector is not None and c.tool in follow.RELEASED:
        f = next((x for x in c.findings if x.id == outcome.finding), c.finding)
        modules = [str(p) for p in sorted(folder.glob("reduced_*.py"))]
        try:
            outcome.first_bad, outcome.bisect = bisector(f, package(f.pass_id), folder, [*cases_from, *modules])
        except Exception as exc:  # noqa: BLE001 - a bisection that fails is said, never a crash of triage
            outcome.first_bad = f"not bisected: {type(exc).__name__}: {exc}"
    report = folder / "REPORT.md"
    md = follow.set_section(report.read_text("utf-8"), "First bad version", outcome.first_bad)
    model = follow.model_md(folder)
    report.write_text(follow.set_section(md, "Model", model) if model else md, "utf-8")
