"""Terminal output with rich: a grid (case × form → verdict per pass, laid out by
:mod:`passcheck.report.layout` for the terminal's width, plain lines in pipes) and one line per
finding ending with the command that reproduces it."""

from __future__ import annotations

from collections.abc import Iterable

from rich.console import Console
from rich.text import Text

from passcheck.records import CellResult
from passcheck.report.layout import STYLE, print_grid  # noqa: F401 - STYLE re-exported
from passcheck.report.summary import counts


def render(cells: Iterable[CellResult], console: Console | None = None, *, show_grid: bool = True) -> None:
    cells = list(cells)
    if console is None:
        from passcheck.cli._common import console as make_console

        console = make_console()
    if show_grid:
        print_grid(cells, console)
    for c in cells:
        for f in c.findings:
            tag = "KNOWN " if f.expected else ""
            console.print(Text(f"{tag}{f.headline()}", style="yellow" if f.expected else "red"), soft_wrap=True)
            if f.repro:
                console.print(Text(f"    reproduce: {f.repro}", style="dim"), soft_wrap=True)
    n = counts(cells)
    console.print(f"{n['cells']} cells: {n['unexpected']} unexpected findings, {n['expected']} known, "
                  f"{n['skipped']} skipped, {n['unavailable']} unavailable")
