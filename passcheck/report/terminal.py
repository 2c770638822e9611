"""Terminal output with rich: a grid (case × form → verdict per pass, laid out by
:mod:`passcheck.report.layout` for the terminal's width, plain lines in pipes) and one line per
finding ending with the command that reproduces it."""

from __future__ import annotations

from collections.abc import Iterable

from rich.console import Console
from rich.text import Text

from passcheck.records import CellResult, nothing_checked
from passcheck.report.layout import STYLE, print_grid  # noqa: F401 - STYLE re-exported
from passcheck.report.rootcause import root_causes, unexpected_phrase
from passcheck.report.summary import (
    NOTHING_CHECKED,
    counts,
    coverage_line,
    empty_outputs_line,
    form_against,
    skipped_lines,
    spec_rules_line,
    unavailable_lines,
    unchecked_lines,
    unchecked_phrase,
)


class _PipeConsole(Console):
    """A reader that stopped reading (``| head``) raises BrokenPipeError, as a plain write does: rich's
    default exits 1 on the spot, before the caller has written its files or returned its verdict."""

    def on_broken_pipe(self) -> None:
        import sys

        self.quiet = True
        drop_closed_pipe(sys.stderr if self.stderr else sys.stdout)
        raise BrokenPipeError(32, "Broken pipe")


def drop_closed_pipe(stream) -> None:
    """Point ``stream``'s file descriptor at /dev/null once its reader is gone, so the interpreter's last
    flush does not fail again (the recipe of Python's signal documentation, "Note on SIGPIPE")."""
    import os

    try:
        fd = stream.fileno()
    except (OSError, ValueError):  # no descriptor (a captured stream): nothing will flush to a pipe
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fd)
    os.close(devnull)


def make_console(stderr: bool = False):
    """A rich Console on stdout (or stderr): the terminal's width on a terminal, 200 columns in logs and pipes.
    A closed pipe raises BrokenPipeError (see :class:`_PipeConsole`)."""
    import sys

    return _PipeConsole(
        soft_wrap=True, stderr=stderr, width=None if (sys.stderr if stderr else sys.stdout).isatty() else 200
    )


def render(cells: Iterable[CellResult], console: Console | None = None, *, show_grid: bool = True) -> None:
    cells = list(cells)
    if console is None:
        console = make_console()
    if show_grid:
        print_grid(cells, console)
    causes = root_causes(cells)
    for rc in causes:  # one line per root cause; the cells it also explains are listed under it
        f = rc.finding
        tag = "KNOWN " if rc.expected else ""
        console.print(Text(f"{tag}{f.headline()}", style="yellow" if rc.expected else "red"), soft_wrap=True)
        if rc.others:
            console.print(
                Text(
                    f"    also explains {len(rc.others)}: "
                    + "; ".join(f"{form_against(o)} | {o.pass_id} | {o.oracle} [{o.kind}]" for o in rc.others),
                    style="dim",
                ),
                soft_wrap=True,
            )
        if f.attribution:
            console.print(Text(f"    attributed to: {', '.join(f.attribution)}", style="dim"), soft_wrap=True)
        if f.repro:
            console.print(Text(f"    reproduce: {f.repro}", style="dim"), soft_wrap=True)
    for line in unchecked_lines(cells):
        console.print(Text(f"UNCHECKED {line}", style="magenta"), soft_wrap=True)
    for line in unavailable_lines(cells):
        console.print(Text(f"N/A {line}", style="dim"), soft_wrap=True)
    for line in skipped_lines(cells):
        console.print(Text(f"SKIPPED {line}", style="dim"), soft_wrap=True)
    for cov in (coverage_line(cells), spec_rules_line(cells), empty_outputs_line(cells)):
        if cov:
            console.print(cov, soft_wrap=True)
    n = counts(cells)
    console.print(
        f"{n['cells']} cells: {n['unexpected']} unexpected findings ({unexpected_phrase(causes)}), "
        f"{n['expected']} known, {unchecked_phrase(n)}, {n['skipped']} skipped, {n['unavailable']} unavailable"
    )
    if nothing_checked(cells):
        console.print(Text(NOTHING_CHECKED, style="magenta"), soft_wrap=True)
