"""Validity: ``onnx.checker.check_model(full_check=True)`` accepts what the pass wrote."""

from __future__ import annotations

from passcheck.oracles._context import FormRun
from passcheck.records import Finding, brief

NAME = "validity"


def checker_error(model) -> str | None:
    """The checker's message for ``model`` (full check, strict shape inference), or None."""
    import onnx.checker

    try:
        onnx.checker.check_model(model, full_check=True)
    except Exception as exc:  # noqa: BLE001 - ValidationError, InferenceError, and C++ errors
        return f"{type(exc).__name__}: {str(exc).strip().splitlines()[0] if str(exc).strip() else exc!r}"
    return None


def check(run: FormRun) -> list[Finding]:
    out = run.output
    if out is None:
        return []
    err = checker_error(out)
    what = "this form" if run.pass_id == "input" else f"the output of {run.pass_id}"
    return [run.finding("invalid-model", NAME, f"the checker rejects {what}: {brief(err)}", error=err)] if err else []
