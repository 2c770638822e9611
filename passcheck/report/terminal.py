"""Terminal output with rich: a grid (case × form → verdict per pass) and one line per finding
ending with the command that reproduces it."""

from __future__ import annotations

from collections.abc import Iterable

from rich.console import Console
from rich.table import Table
from rich.text import Text

from passcheck.records import CellResult
from passcheck.report.rootcause import root_causes, unexpected_phrase
from passcheck.report.summary import counts, coverage_line, grid, label, unchecked_lines

STYLE = {"ok": "green", "known": "yellow", "unchecked": "magenta", "skip": "dim", "n/a": "dim"}


def render(cells: Iterable[CellResult], console: Console | None = None, *, show_grid: bool = True) -> None:
    cells = list(cells)
    if console is None:
        from passcheck.cli._common import console as make_console

        console = make_console()
    passes, rows = grid(cells)
    if show_grid and rows:
        multi_env = len({c.env for c in cells}) > 1
        t = Table(show_lines=False, header_style="bold", pad_edge=False)
        t.add_column("case", overflow="fold")
        t.add_column("form", overflow="fold")
        if multi_env:
            t.add_column("env")
        for p in passes:
            t.add_column(p, overflow="fold")
        for (case, form, env), by_pass in rows.items():
            row = [case, form] + ([env] if multi_env else [])
            for p in passes:
                c = by_pass.get(p)
                text = label(c) if c else ""
                row.append(Text(text, style=STYLE.get(text, "bold red")))
            t.add_row(*row)
        console.print(t)
    causes = root_causes(cells)
    for rc in causes:  # one line per root cause; the cells it also explains are listed under it
        f = rc.finding
        tag = "KNOWN " if rc.expected else ""
        console.print(Text(f"{tag}{f.headline()}", style="yellow" if rc.expected else "red"), soft_wrap=True)
        if rc.others:
            console.print(Text(f"    also explains {len(rc.others)}: " + "; ".join(f"{o.form} | {o.pass_id} | {o.oracle} [{o.kind}]" for o in rc.others), style="dim"), soft_wrap=True)
        if f.repro:
            console.print(Text(f"    reproduce: {f.repro}", style="dim"), soft_wrap=True)
    for line in unchecked_lines(cells):
        console.print(Text(f"UNCHECKED {line}", style="magenta"), soft_wrap=True)
    if cov := coverage_line(cells):
        console.print(cov, soft_wrap=True)
    n = counts(cells)
    console.print(f"{n['cells']} cells: {n['unexpected']} unexpected findings ({unexpected_phrase(causes)}), "
                  f"{n['expected']} known, {n['unchecked']} unchecked, {n['skipped']} skipped, {n['unavailable']} unavailable")
