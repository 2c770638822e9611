"""Runtime: onnxruntime runs each form itself (``input`` cells) on the feeds the passes will get.

A form that onnxruntime cannot run is ``rejected``; the message says whether the ``common`` form
runs on the same feeds (then this form is the odd one), or, on synthesized feeds, that real ones
may be needed (an input carrying shapes, indices or sizes).

When the case states the expected outputs (a :class:`~passcheck.case_model.Reference`: onnx's
backend node tests, the spec's own examples), a form whose unoptimized run departs from them beyond
the source's tolerance is ``wrong-result``: the example is the reference, so the kernel is what
departs (and the numeric oracle does not blame a pass whose output matches the example).
"""

from __future__ import annotations

from passcheck.oracles._context import FormRun
from passcheck.oracles._contract import INPUT, BaseOracle, Cells
from passcheck.oracles.numeric import compare, mismatch
from passcheck.records import Finding, brief

NAME = "runtime"


class Runtime(BaseOracle):
    id = NAME
    kinds = frozenset({INPUT})

    def check(self, run: FormRun, cells: Cells) -> list[Finding]:
        errors = [r.error for r in run.baseline if r.error]
        if not errors:
            return departures(run)
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


def departures(run: FormRun) -> list[Finding]:
    """``wrong-result`` for the first graph output of the form's unoptimized run that departs from
    the outputs its case states (:attr:`FormRun.expected`); none when nothing is stated."""
    exp = run.expected
    if exp is None:
        return []
    for i, base in enumerate(run.baseline):
        for name, want in (exp.outputs[i] if i < len(exp.outputs) else {}).items():
            if name not in base.outputs:
                continue  # a missing output is the numeric oracle's (agreement) to judge
            c = compare(base.outputs[name], want, exp.rtol, exp.atol)
            if not c.ok:
                message = (
                    f"onnxruntime's unoptimized run departs from the expected output of {exp.source}: "
                    f"output {name!r} (run {i}): {c.message}"
                )
                return [mismatch(run, NAME, message, i, name, c, reference=exp.source)]
    return []
