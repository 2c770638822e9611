"""The gate for generated pairs: every form passes the checker, runs under ``ort:disabled`` (in an
isolated worker: a crash costs one run) and the reference evaluator, and all forms agree.

A pair that fails is dropped with a reason whose *category* says whose reason it is:

- ``tool``: onnxruntime has no kernel, crashes, rejects or mis-computes a spelling the reference
  evaluator accepts; the checker or the reference evaluator rejects a form; the checker rejects the
  common form inside the op's own function body for a node its schema types
  (:func:`passcheck.generate.body_refusal.refused_body`, verified on the body alone), or onnxruntime
  refuses it at load inside the body it expanded (``expanded_refusal``). These are facts
  about the tools (often findings), not passcheck bugs.
- ``passcheck``: the forms disagree under the reference evaluator too (the generator built two
  different computations), passcheck's reference runner fails (it called the installed evaluator
  wrongly, :data:`~passcheck.runtime.reference.RUNNER_FAULT`), a form's own annotations (graph
  inputs, outputs) do not hold on the feeds or on its runs (the input cells' annotations oracle
  would flag it), a form breaks a shape rule its operator docs state that no tool enforces
  (:mod:`passcheck.oracles.text_shapes`: ConcatFromSequence's elements), or a form failed to build; and, set
  by the generator after this gate (:func:`passcheck.generate.self_check.relabel`), a common form the checker
  refuses that breaks a rule its own schema states (a width tie, a body typed against ``V``).
- ``n/a``: the common form itself is not runnable on the recipe's feeds (a spelling that does not
  apply to this op, e.g. a zero-size dim the op refuses).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping, Sequence
from typing import Any

import onnx

from passcheck.generate.body_refusal import expanded_refusal, refused_body
from passcheck.generate.dissent import REFERENCE, UNRESOLVED, Dissent, referee
from passcheck.oracles import shape_annotations
from passcheck.oracles.numeric import compare
from passcheck.oracles.validity import CheckerDied, checker_error
from passcheck.runtime import isolated_tools
from passcheck.runtime.plan import AnnotationPlan, plan_of
from passcheck.runtime.reference import RUNNER_FAULT


@dataclasses.dataclass
class Verdict:
    ok: bool
    category: str = ""
    reason: str = ""
    detail: str = ""
    #: runtimes outvoted on a form, or disputes no majority settled (:mod:`passcheck.generate.dissent`):
    #: data about the tools, kept with the pair (``ok``) or with the drop
    dissent: list[Dissent] = dataclasses.field(default_factory=list)


def tolerance(elem: int) -> tuple[float | None, float | None]:
    """(rtol, atol) for comparing outputs of element type ``elem`` (None: the numeric oracle's default)."""
    return {onnx.TensorProto.FLOAT16: (1e-2, 1e-2), onnx.TensorProto.BFLOAT16: (5e-2, 5e-2)}.get(elem, (None, None))


def _first_line(text: str) -> str:
    return (text or "").strip().splitlines()[0][:300] if text else ""


def _ort_reason(error: str) -> tuple[str, str]:
    if "NOT_IMPLEMENTED" in error or "Could not find an implementation" in error:
        return "tool", "onnxruntime CPU has no kernel"
    if any(w in error for w in ("crashed", "by signal", "SIG", "killed its process", "gave no result", "exited")):
        return "tool", "onnxruntime crashed"
    if "opset" in error.lower() and ("support" in error.lower() or "not" in error.lower()):
        return "tool", "onnxruntime does not support the opset"
    return "tool", "onnxruntime rejects"


def _own_annotations_break(
    model: onnx.ModelProto, plan: AnnotationPlan, values: Mapping[str, Any], k: int
) -> str | None:
    """The first way ``model``'s own annotations (graph inputs, outputs, value_info; symbols shared
    across them; ``plan``: its :class:`AnnotationPlan`) do not hold on ``values`` (feeds, plus a
    run's outputs once it ran), or None."""
    report = shape_annotations.check(model, values, plan=plan)
    return f"{report.violations[0].message} (binding {k})" if report.violations else None


def _text_rule_break(model: onnx.ModelProto) -> str | None:
    """The first shape rule the operator docs state in prose and neither the checker nor inference enforces
    (:mod:`passcheck.oracles.text_shapes`) that ``model`` breaks at the shapes it states and onnx inference gives it
    (the checker accepted it; inference that raises here decides nothing), or None."""
    from passcheck.oracles.text_shapes import breaks

    try:
        done = isolated_tools.infer_shapes(model)
    except Exception:  # noqa: BLE001 - inference's own errors are the checker's and the runs' word, not this rule's
        done = model
    return next(iter(breaks(done)), None)


def _agree(a: Mapping[str, Any], b: Mapping[str, Any], rtol, atol) -> str | None:
    for name, expected in a.items():
        if name not in b:
            return f"output {name!r} missing"
        c = compare(b[name], expected, rtol, atol)
        if not c.ok:
            return f"output {name!r}: {c.message}"
    return None


def _agree_in_kind(a: Mapping[str, Any], b: Mapping[str, Any]) -> str | None:
    """Whether ``b`` has ``a``'s outputs with the same shapes and dtypes (values aside)."""
    import numpy as np

    for name, expected in a.items():
        if name not in b:
            return f"output {name!r} missing"
        x, y = np.asarray(b[name]), np.asarray(expected)
        if (x.shape, x.dtype) != (y.shape, y.dtype):
            return f"output {name!r}: {x.dtype}{list(x.shape)} vs expected {y.dtype}{list(y.shape)}"
    return None


def _unannotatable(model: onnx.ModelProto, feeds: Mapping[str, Any], run_model) -> str | None:
    """Why the output of ``model`` (inference gave it no shape) cannot be annotated for the tools'
    reasons: the reference evaluator, which would give its rank, fails while onnxruntime runs the
    form or has no kernel for it (so the recipe's inputs are not what fails). None otherwise."""
    rr = isolated_tools.run_reference(model, dict(feeds))
    if not rr.error or rr.error.startswith(RUNNER_FAULT):
        return None
    r = run_model(model, dict(feeds))
    if r.error and _ort_reason(r.error)[1] != "onnxruntime CPU has no kernel":
        return None
    return _first_line(rr.error)


def _reference_only(forms: Mapping[str, onnx.ModelProto], feeds, plans, rtol, atol) -> Verdict:
    """The gate without onnxruntime: every form runs on the reference evaluator, the forms agree
    and their own annotations hold on the runs (the checker already passed them)."""
    names = list(forms)
    ref = {}
    for name in names:
        rr = isolated_tools.run_reference(forms[name], dict(feeds[0]))
        if rr.error:
            cat = "passcheck" if rr.error.startswith(RUNNER_FAULT) else "tool"
            why = "reference evaluator fails (onnxruntime has no kernel)"
            return Verdict(False, cat, why, f"{name}: {_first_line(rr.error)}")
        ref[name] = rr.outputs
        if why := _own_annotations_break(forms[name], plans[name], {**feeds[0], **rr.outputs}, 0):
            return Verdict(False, "passcheck", "a form's own annotations do not hold on its run", f"{name}: {why}")
    for name in names[1:]:
        if why := _agree(ref[names[0]], ref[name], rtol, atol):
            return Verdict(
                False,
                "passcheck",
                "forms differ under the reference evaluator (onnxruntime has no kernel)",
                f"{name}: {why}",
            )
    return Verdict(True, "reference-only")


def _asked(verify, *args):
    """``verify(*args)``; None when the worker running it died (no verdict: the caller keeps its old word)."""
    from passcheck.errors import WorkerDied

    try:
        return verify(*args)
    except WorkerDied:
        return None


def gate(
    forms: Mapping[str, onnx.ModelProto],
    feeds: Sequence[Mapping[str, Any]],
    run_model,
    rtol=None,
    atol=None,
    checker=checker_error,
    seeded: bool = False,
    reference_only: bool = False,
    alike: bool = True,
    third=None,
    bodies=refused_body,
    expanded=expanded_refusal,
) -> Verdict:
    """Judge one generated pair.

    Args:
        forms: form name → model; the first is ``common``.
        feeds: one feed dict per binding (synthesized from ``common``).
        run_model: ``(model, feeds) → RunResult`` (e.g. IsolatedExecutor.run_model).
        checker: ``model → message | None`` (e.g. a :class:`~passcheck.oracles.validity.Checker`
            of the same executor; default: the full checker in this process).
        seeded: a random op with a seed (the table's ``seeded``): onnxruntime and the reference
            evaluator draw different numbers, so across runtimes only shapes and dtypes must agree.
        reference_only: the forms stamp an opset older than onnxruntime's support (before 7):
            when onnxruntime has no kernel for the common form, the pair is judged by the checker
            and the reference evaluator alone and, if it passes, returned as
            ``Verdict(True, "reference-only")`` (a base for the tools that need no runtime:
            shape inference, the version converter; never a case, whose cells need onnxruntime).
        alike: the spec says the forms compute the same (:attr:`~passcheck.generate.pair.Pair.alike`).
        third: ``(model, feeds) → RunResult`` of a third runtime (e.g. another pinned onnxruntime),
            asked only where onnxruntime and the reference evaluator disagree; None: not asked.
        bodies, expanded: :func:`~passcheck.generate.body_refusal.refused_body` and
            :func:`~passcheck.generate.body_refusal.expanded_refusal` as the caller runs them (the generator: in
            its isolation worker, where onnx's inference of a body that crashes costs that verification); a
            worker that dies leaves the refusal the form's (``n/a``), as before the verification.

    Where the two runtimes disagree, :func:`passcheck.generate.dissent.referee` decides by majority:
    a pair kept over the reference evaluator's dissent carries it in ``Verdict.dissent``; a dispute
    no majority settles drops the pair with the dispute there, never blaming a form.
    """
    names = list(forms)
    plans = {name: plan_of(m) for name, m in forms.items()}
    for name in names:
        if isinstance(err := checker(forms[name]), CheckerDied):
            return Verdict(
                False,
                "tool",
                "the checker crashes" + ("" if name == names[0] else " on the uncommon form"),
                f"{name}: {err}",
            )
        shapeless = err and name == names[0] and "'shape' of 'type' is required" in err
        if shapeless and (why := _unannotatable(forms[name], feeds[0], run_model)):
            return Verdict(
                False, "tool", "reference evaluator fails (and inference gives the output no shape)", f"{name}: {why}"
            )
        if err and name == names[0] and (body := _asked(bodies, forms[name])):
            # verified before blaming the form: the op's own function body refuses a node its schema types
            return Verdict(
                False, "tool", f"checker: {body[0]}", f"{name}: {_first_line(err)} (the body alone: {body[1]})"
            )
        if err:
            return Verdict(
                False,
                "n/a" if name == names[0] else "tool",
                "checker rejects common" if name == names[0] else "checker rejects the uncommon form",
                f"{name}: {_first_line(err)}",
            )
        for k, f in enumerate(feeds):
            if why := _own_annotations_break(forms[name], plans[name], f, k):
                return Verdict(False, "passcheck", "graph input annotations do not hold on the feeds", f"{name}: {why}")
        if why := _text_rule_break(forms[name]):
            return Verdict(False, "passcheck", "a form breaks a shape rule its operator docs state", f"{name}: {why}")
    ort: dict[str, list[dict]] = {}
    for name in names:
        ort[name] = []
        for f in feeds:
            r = run_model(forms[name], dict(f))
            no_kernel = r.error and _ort_reason(r.error)[1] == "onnxruntime CPU has no kernel"
            if no_kernel and reference_only and name == names[0]:
                return _reference_only(forms, feeds, plans, rtol, atol)
            if r.error:
                cat, why = _ort_reason(r.error)
                if (
                    name == names[0]
                    and why == "onnxruntime rejects"
                    and (body := _asked(expanded, forms[name], r.error))
                ):
                    # onnxruntime expanded the op's body (no kernel for the types), which refuses them alone too
                    return Verdict(False, "tool", f"onnxruntime: {body[0]}", f"{name}: {_first_line(r.error)}")
                if name == names[0] and why == "onnxruntime rejects":
                    return Verdict(
                        False, "n/a", "onnxruntime rejects common on the recipe's feeds", _first_line(r.error)
                    )
                return Verdict(
                    False,
                    cat,
                    why + ("" if name == names[0] else " on the uncommon form"),
                    f"{name}: {_first_line(r.error)}",
                )
            ort[name].append(r.outputs)
    ref: dict[str, Any] = {}  # form → outputs, or the evaluator's error message
    for name in names:
        rr = isolated_tools.run_reference(forms[name], dict(feeds[0]))
        if rr.error and rr.error.startswith(RUNNER_FAULT):  # passcheck's own runner, not the evaluator
            return Verdict(False, "passcheck", "passcheck's reference runner fails", f"{name}: {_first_line(rr.error)}")
        if rr.error and name == names[0]:
            return Verdict(False, "tool", "reference evaluator fails", f"{name}: {_first_line(rr.error)}")
        ref[name] = _first_line(rr.error) if rr.error else rr.outputs
    across = _agree_in_kind if seeded else functools.partial(_agree, rtol=rtol, atol=atol)
    # a seeded op's runtimes draw different numbers: no majority of values to count
    ruling = (
        None
        if seeded
        else referee(
            names,
            ref,
            ort,
            functools.partial(_agree, rtol=rtol, atol=atol),
            across,
            alike,
            third=None if third is None else (lambda name: third(forms[name], dict(feeds[0]))),
        )
    )
    if ruling is not None and not ruling.keep:
        return Verdict(False, "tool", ruling.reason, "; ".join(map(str, ruling.dissent)), ruling.dissent)
    outvoted = {d.form for d in ruling.dissent if d.tool == REFERENCE} if ruling else set()
    if "every form" in outvoted:
        outvoted = set(names)
    if ruling is None:  # the runtimes agree, or both split the forms, or the evaluator gave no view (seeded)
        for name in names[1:]:
            if isinstance(ref[name], str):
                return Verdict(False, "tool", "reference evaluator fails on the uncommon form", f"{name}: {ref[name]}")
        for name in names[1:]:
            if why := _agree(ref[names[0]], ref[name], rtol, atol):
                return Verdict(False, "passcheck", "forms differ under both runtimes", f"{name}: {why}")
        if why := across(ref[names[0]], ort[names[0]][0]):
            return Verdict(False, "tool", "onnxruntime differs from the reference evaluator on common", why)
    for name in names[1:]:
        for k, out in enumerate(ort[name]):
            if why := _agree(ort[names[0]][k], out, rtol, atol):
                return Verdict(False, "tool", "onnxruntime computes the uncommon form differently", f"{name}: {why}")
    for name in names:  # what the input cells' annotations oracle checks, on both runtimes
        trusted = [(0, ref[name])] if name not in outvoted else []  # an outvoted run is no evidence
        for k, outs in [*trusted, *enumerate(ort[name])]:
            if why := _own_annotations_break(forms[name], plans[name], {**feeds[k], **outs}, k):
                if name in outvoted and _holds_on(forms[name], plans[name], feeds[0], ref[name]):
                    # the annotations (written from onnx shape inference) side with the outvoted evaluator
                    return Verdict(
                        False,
                        "tool",
                        "onnxruntime's run breaks annotations the outvoted reference evaluator's run keeps",
                        f"{name}: {why}",
                        [Dissent(UNRESOLVED, name, "the form's annotations hold on the evaluator's run only", why)],
                    )
                return Verdict(False, "passcheck", "a form's own annotations do not hold on its run", f"{name}: {why}")
    return Verdict(True, dissent=ruling.dissent if ruling else [])


def _holds_on(model: onnx.ModelProto, plan: AnnotationPlan, feeds: Mapping[str, Any], outputs: Any) -> bool:
    """Whether ``model``'s own annotations hold on the reference evaluator's ``outputs`` (not an error)."""
    return not isinstance(outputs, str) and _own_annotations_break(model, plan, {**feeds, **outputs}, 0) is None


#: Drop reasons after which the common form ran on onnxruntime (the gate got past its runs of common).
_ORT_RAN_COMMON = ("reference evaluator fails", "differs from the reference evaluator", "computes the uncommon form")


def runtime_free(common: onnx.ModelProto, feeds: Sequence[Mapping[str, Any]], v: Verdict) -> str | None:
    """Whether the common form of a pair :func:`gate` dropped for a tool's reason still makes a base
    for the tools that need no runtime (shape inference, the version converter), and why; None if not.

    It does when the checker accepted it (the drop came after the checker) and one runtime ran it:
    onnxruntime (the drop came after its runs of common: the reference evaluator failed, or the two
    disagree) or else the reference evaluator, run here on the first binding's feeds. Such a base is
    never a case (its cells would need both runtimes to agree).
    """
    if v.ok or v.category != "tool" or "checker" in v.reason or "no shape" in v.reason:
        return None
    if "(onnxruntime has no kernel)" in v.reason:
        return None  # neither runtime runs it
    if v.reason.endswith("on the uncommon form") or any(r in v.reason for r in _ORT_RAN_COMMON):
        return f"onnxruntime runs it; dropped as a case: {v.reason}"
    rr = isolated_tools.run_reference(common, dict(feeds[0]))
    if rr.error:
        return None
    return f"the reference evaluator runs it; dropped as a case: {v.reason}"
