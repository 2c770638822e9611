"""The generated part of docs/mutation-score.md: bench/mutation_score.py ``--report``.

The part lies between :data:`BEGIN` and :data:`END` and is replaced whole on each report; the rest of
the file (the hand-written history of the method) is kept. Without the markers the part goes right
below the file's first line (its title). It holds: the date, commit and tool versions; how many
mutants of the selective set have a result under their current key (``bench/mutation_results.py``),
how many were reused and how many judged now, wall and worker time; the runs (date, commit) the
results come from; the per-module table; every survivor with its one-line reason.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from pathlib import Path

BEGIN = "<!-- mutation-score: written by bench/mutation_score.py --report; edits between these lines are lost -->"
END = "<!-- /mutation-score -->"
#: ``no result``: mutants of the selective set without a result (under their current key; for a
#: ``--summarize`` report, without any row).
COLUMNS = ("killed", "timeout", "survived", "uncovered", "equivalent", "incompetent", "annotation", "no result")


@dataclasses.dataclass
class Figures:
    """One report's figures. ``wall`` and ``worker_seconds`` in seconds; ``runs``: results per run
    (``date commit``); ``ratio``: killed / judged, equivalent survivors excluded; ``command``: the
    command line that wrote it."""

    commit: str
    date: str
    scope: str
    total: int
    judged: int
    reused: int
    run_now: int
    remaining: int
    wall: float
    worker_seconds: float
    tools: str
    runs: Counter
    ratio: float
    #: the command line that wrote the report (shown when set)
    command: str = ""
    #: mutants whose newest row is stale (judged on other content of their module, or under another key)
    stale: int = 0


def _reason(row: tuple) -> str:
    module, line, operator, occurrence, before, after, reason, outcome = row
    if reason:
        return f"equivalent: {reason}"
    return "no test runs this line" if outcome == "no covering test" else "unjudged: its tests pass"


def render(per_module: dict[str, Counter], survivors: list[tuple], f: Figures) -> str:
    """The generated part, markers included (markdown)."""
    overall: Counter = Counter()
    for counts in per_module.values():
        overall.update(counts)
    killed = overall["killed"] + overall["timeout"]
    judged = killed + overall["survived"] + overall["uncovered"]
    lines = [
        BEGIN,
        "## Latest report",
        "",
        f"- Written {f.date} on commit `{f.commit}` ({f.scope}); tools `{f.tools}`.",
        f"- Killed: **{killed}/{judged} = {f.ratio:.1%}** of the judged mutants (equivalent survivors and "
        "annotation-only mutants excluded; a line no test runs counts as survived).",
        *([f"- Made by `{f.command}`."] if f.command else []),
        f"- Full run: {f.total - f.remaining} of {f.total} mutants of the selective set have a result"
        + (
            " judged on their module's current content (newest such row per mutant; tests and tools: `--dry "
            "--report` checks the full key)"
            if f.command
            else " under their current key"
        )
        + f"; {f.remaining} left (column `no result`), {f.stale} of them with only stale rows"
        + (
            " (`python bench/mutation_score.py --rerun bench/mutation_stale.txt` judges exactly the ones left)."
            if f.command
            else " (`python bench/mutation_score.py --stale` judges only those)."
        ),
        f"- This report: {f.judged} results, {f.reused} reused from earlier runs, {f.run_now} judged now; "
        f"{f.wall / 60:.1f} min wall now, {f.worker_seconds / 3600:.2f} h of worker time in all its results.",
        "- Results by run (date, commit): " + "; ".join(f"{run}: {n}" for run, n in sorted(f.runs.items())) + ".",
        "",
        "| module | " + " | ".join(COLUMNS) + " | killed % |",
        "|---|" + "---:|" * (len(COLUMNS) + 1),
    ]
    for module in sorted(per_module):
        c = per_module[module]
        k, n = c["killed"] + c["timeout"], c["killed"] + c["timeout"] + c["survived"] + c["uncovered"]
        pct = f"{k / n:.0%}" if n else "–"
        lines.append(f"| `{module}` | " + " | ".join(str(c[x]) for x in COLUMNS) + f" | {pct} |")
    lines.append("| total | " + " | ".join(str(overall[x]) for x in COLUMNS) + f" | {f.ratio:.0%} |")
    lines += ["", f"### Survivors ({len(survivors)})", ""]
    if survivors:
        lines += ["| where | operator | change | reason |", "|---|---|---|---|"]
        for row in survivors:
            module, line, operator, _, before, after, _, _ = row
            change = f"`{before}` → `{after}`".replace("|", "\\|")
            lines.append(f"| `{module}:{line}` | {operator.split('/')[-1]} | {change} | {_reason(row)} |")
    lines.append(END)
    return "\n".join(lines) + "\n"


def write(path: Path, per_module: dict[str, Counter], survivors: list[tuple], figures: Figures) -> None:
    """Replace the generated part of ``path`` (module docs); create the file when there is none."""
    part = render(per_module, survivors, figures)
    text = path.read_text() if path.exists() else "# Mutation score of the verdict code\n"
    if BEGIN in text and END in text:
        head, rest = text.split(BEGIN, 1)
        text = head + part + "\n" + rest.split(END, 1)[1].lstrip("\n")
    else:
        title, _, body = text.partition("\n")
        text = f"{title}\n\n{part}\n{body.lstrip(chr(10))}"
    path.write_text(text)
