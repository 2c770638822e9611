"""Runtime: onnxruntime runs each form itself (``input`` cells) on the feeds the passes will get.

A form that onnxruntime cannot run is ``rejected``; the message says whether the ``common`` form
runs on the same feeds (then this form is the odd one), or, on synthesized feeds, that real ones
may be needed (an input carrying shapes, indices or sizes).
"""

from __future__ import annotations

from passcheck.oracles._context import FormRun
from passcheck.oracles._contract import INPUT, BaseOracle, Cells
from passcheck.records import Finding, brief

NAME = "runtime"


class Runtime(BaseOracle):
    id = NAME
    kinds = frozenset({INPUT})

    def check(self, run: FormRun, cells: Cells) -> list[Finding]:
        errors = [r.error for r in run.baseline if r.error]
        if not errors:
            return []
        common = cells.runs[0]
        hint = (
            ""
            if cells.feeds_given
            else " (on synthesized feeds: if an input carries shapes, indices or sizes, give real ones with --feeds)"
        )
        if run.form != common.form and not any(r.error for r in common.baseline):
            hint = f" (form {common.form!r} runs on the same feeds)"
        return [
            run.finding(
                "rejected", NAME, f"onnxruntime cannot run this form{hint}: {brief(errors[0])}", error=errors[0]
            )
        ]


ORACLE = Runtime()
