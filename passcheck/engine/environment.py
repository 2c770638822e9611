"""What this environment can take of a subject, before and while the engine runs it: forms beyond
the installed onnx (IR version, opset) or onnxruntime's stated opsets are set aside
(:func:`_within_environment`), as are forms the installed onnxruntime has no kernel for while the
first form runs, and every form when none runs for an element type onnxruntime does not register
(:func:`_runnable_here`); each of their cells is reported ``unavailable`` with the
reason, never a finding. :func:`_precondition` asks a pass adapter whether it applies to a model
(``PassAdapter.why_not``); an adapter whose question raises is a ``crashed`` outcome.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from passcheck._versions import beyond_installed_onnx
from passcheck.engine.subject import Subject
from passcheck.modelio import model_hash
from passcheck.passes import PassAdapter, PassOutcome
from passcheck.records import CellResult
from passcheck.runtime.limits import beyond_onnxruntime, no_kernel_reason

if TYPE_CHECKING:
    import onnx


def _within_environment(
    subject: Subject,
    pass_ids: Sequence[str],
    env: str,
    emit: Callable[[CellResult], None],
    skip_cells: Callable[[str, str], bool] | None,
) -> Subject | None:
    """``subject`` without the forms this environment cannot take: a newer IR version or opset
    than the installed onnx defines (:func:`~passcheck._versions.beyond_installed_onnx`), or an
    opset above onnxruntime's stated support (:func:`~passcheck.runtime.limits.beyond_onnxruntime`);
    each cell of such a form is emitted ``unavailable`` with the reason. None when no form is left."""
    beyond = {f: r for f, m in subject.forms.items() if (r := beyond_installed_onnx(m) or beyond_onnxruntime(m))}
    if not beyond:
        return subject
    for pass_id in pass_ids:
        for form, reason in beyond.items():
            if not (skip_cells and skip_cells(pass_id, form)):
                emit(
                    CellResult(
                        subject.id,
                        form,
                        pass_id,
                        "unavailable",
                        env=env,
                        error=reason,
                        model_sha256=model_hash(subject.forms[form]),
                    )
                )
    rest = {f: m for f, m in subject.forms.items() if f not in beyond}
    return dataclasses.replace(subject, forms=rest) if rest else None


#: onnxruntime's refusal of an element type it registers no MLDataType for, when the session is created
#: (``DataTypeImpl::TypeFromProto``, onnxruntime ``core/framework/data_types.cc``; e.g. ``tensor(uint4)`` in
#: onnxruntime 1.18, which the onnx 1.16 beside it defines).
_NO_TYPE = re.compile(r"MLDataType for: (\S+) is not currently registered or supported")


def unregistered_type(errors: list[str | None]) -> str | None:
    """Why every run of a form failed for an element type the installed onnxruntime does not register
    (:data:`_NO_TYPE`), or None when any run succeeded or failed for another reason. Unlike a missing
    kernel for one op, the runtime cannot hold the form's values at all: a fact about its version."""
    found = [_NO_TYPE.search(e or "") for e in errors]
    if not found or not all(found):
        return None
    from passcheck._versions import tool_version

    return (
        f"onnxruntime {tool_version('onnxruntime')} here does not register the element type {found[0].group(1)} "
        "(an environment fact, not a finding)"
    )


def _runnable_here(
    subject: Subject,
    baselines: dict[str, list],
    pass_ids: Sequence[str],
    env: str,
    emit: Callable[[CellResult], None],
    skip_cells: Callable[[str, str], bool] | None,
) -> tuple[Subject, dict]:
    """``subject`` without the forms the installed onnxruntime has no kernel for while the first
    form runs (:func:`~passcheck.runtime.limits.no_kernel_reason`, e.g. a float64 spelling of an op
    onnxruntime registers for float only); each of their cells is emitted ``unavailable`` with the
    reason. The first form is kept while it runs, or fails for another reason: a model that does not run
    at all for want of a kernel is judged as before (issue 30). When every form fails for an element type
    onnxruntime does not register (:func:`unregistered_type`), every form is set aside and the returned
    subject has none."""
    first = next(iter(subject.forms))
    if any(r.error for r in baselines[first]):
        facts = {f: unregistered_type([r.error for r in runs]) for f, runs in baselines.items()}
        lacking = facts if all(facts.values()) else {}
    else:
        lacking = {
            f: why for f, runs in baselines.items() if f != first and (why := no_kernel_reason([r.error for r in runs]))
        }
    if not lacking:
        return subject, baselines
    for pass_id in pass_ids:
        for form, reason in lacking.items():
            if not (skip_cells and skip_cells(pass_id, form)):
                emit(
                    CellResult(
                        subject.id,
                        form,
                        pass_id,
                        "unavailable",
                        env=env,
                        error=reason,
                        model_sha256=model_hash(subject.forms[form]),
                    )
                )
    rest = {f: m for f, m in subject.forms.items() if f not in lacking}
    return dataclasses.replace(subject, forms=rest), {f: baselines[f] for f in rest}


def _precondition(adapter: PassAdapter, model: onnx.ModelProto) -> str | PassOutcome | None:
    """The adapter's reason not to run on ``model``, or a ``crashed`` outcome if asking raised
    (a user adapter's bug is a finding, not a passcheck crash)."""
    try:
        return adapter.why_not(model)
    except Exception as exc:  # noqa: BLE001
        return PassOutcome(
            adapter.id,
            "crashed",
            error=f"{adapter.id} precondition raised {type(exc).__name__}: {exc}",
            versions=adapter.versions(),
        )
