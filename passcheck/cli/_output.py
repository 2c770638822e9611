"""Finishing a run: baseline, renderers, exit code (shared by run, check and friends)."""

from __future__ import annotations

import sys
from pathlib import Path

from passcheck.cli._common import console as console_

from passcheck.api import Report


def finish(args, report: Report, *, title: str = "passcheck report") -> int:
    """Apply ``--baseline``, write every requested format, print the terminal report."""
    from passcheck.report import baseline, junit, markdown, terminal, write_report

    if getattr(args, "baseline", None):
        report.apply_baseline(args.baseline)
    console = console_()
    terminal.render(report.cells, console, show_grid=not getattr(args, "quiet", False))
    for k in report.unmatched_known:
        console.print(f"baseline entry matched nothing (fixed, or not run): {k.id} — {k.reason}")
    if getattr(args, "json", None):
        write_report(args.json, report.cells, report.environments)
    if getattr(args, "junit", None):
        junit.write_junit(args.junit, report.cells)
    if getattr(args, "markdown", None):
        from passcheck.report.json_report import atomic_write

        atomic_write(args.markdown, markdown.render(report.cells, report.environments, title=title))
    if getattr(args, "write_baseline", None):
        from passcheck.report.json_report import atomic_write

        atomic_write(args.write_baseline, baseline.from_findings(report.findings))
    sys.stdout.flush()
    return report.exit_code


def out_path(text: str | None) -> Path | None:
    return Path(text) if text else None
