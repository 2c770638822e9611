"""Validity: ``onnx.checker.check_model(full_check=True)`` accepts what the pass wrote."""

from __future__ import annotations

from passcheck.oracles._context import FormRun
from passcheck.records import Finding, brief

NAME = "validity"


def checker_error(model, *, full_check: bool = True) -> str | None:
    """The checker's message for ``model`` folded into one line (at most 600 characters), or None.

    ``full_check`` adds strict shape inference (``onnx.checker.check_model(full_check=True)``).
    """
    import onnx.checker

    try:
        onnx.checker.check_model(model, full_check=full_check)
    except Exception as exc:  # noqa: BLE001 - ValidationError, InferenceError, and C++ errors
        text = " ".join(str(exc).replace('"', " ").split())[:600] or repr(exc)
        return f"{type(exc).__name__}: {text}"
    return None


def check(run: FormRun) -> list[Finding]:
    out = run.output
    if out is None:
        return []
    err = checker_error(out)
    what = "this form" if run.pass_id == "input" else f"the output of {run.pass_id}"
    return [run.finding("invalid-model", NAME, f"the checker rejects {what}: {brief(err)}", error=err)] if err else []
