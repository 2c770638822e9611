"""Reports: the canonical JSON and the formats rendered from it.

Catalogue:

- :mod:`~passcheck.report.json_report` — JSON report / JSON-lines stream (canonical).
- :mod:`~passcheck.report.terminal` — rich grid and finding lines with reproduce commands.
- :mod:`~passcheck.report.junit` — JUnit XML via junitparser.
- :mod:`~passcheck.report.markdown` — Markdown for CI step summaries and docs.
- :mod:`~passcheck.report.baseline` — known findings (expected vs new vs fixed).
- :mod:`~passcheck.report.rootcause` — findings grouped by the defect that explains them.
"""

from passcheck.report import baseline, json_report, junit, markdown, rootcause, terminal
from passcheck.report.json_report import Stream, atomic_write, read_report, report_dict, write_report

__all__ = [
    "Stream",
    "atomic_write",
    "baseline",
    "json_report",
    "junit",
    "markdown",
    "read_report",
    "report_dict",
    "rootcause",
    "terminal",
    "write_report",
]
