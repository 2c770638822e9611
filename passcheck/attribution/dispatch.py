"""One finding's attribution, whatever its pass: the dispatch ``passcheck attribute``, ``passcheck repro`` and
``passcheck triage`` share (:func:`attribute`)."""

from __future__ import annotations


def covered(f) -> bool:
    """Whether :func:`attribute` covers ``f``: an ``ort:*``/``onnxscript:*`` missed optimization, a
    shape-inference ``less-precise`` finding, a crash of onnxruntime's optimizer (:func:`is_ort_failure`) or a
    wrong result of it (:func:`is_ort_wrong`)."""
    from passcheck.attribution.shapes import PASSES

    return (
        (f.pass_id.startswith(("ort:", "onnxscript:")) and f.kind == "missed-optimization")
        or (f.pass_id in PASSES and f.kind == "less-precise")
        or is_ort_failure(f)
        or is_ort_wrong(f)
    )


def _ort_level(f) -> str:
    from passcheck.passes.ort_optimizer import LEVELS

    level = f.pass_id.partition(":")[2] if f.pass_id.startswith("ort:") else ""
    return level if level in LEVELS and level != "disabled" else ""


def is_ort_failure(f) -> bool:
    """An ``ort:<level>`` pass that failed on the form (``rejected``, status ``crashed`` or ``error``)."""
    return bool(_ort_level(f)) and f.kind == "rejected" and (f.details or {}).get("status") in ("crashed", "error")


def is_ort_wrong(f) -> bool:
    """An ``ort:<level>`` output that computes other values than the unoptimized model (a numeric
    ``wrong-result`` finding)."""
    return bool(_ort_level(f)) and f.oracle == "numeric" and f.kind == "wrong-result"


def attribute(finding, executor, cases_from=(), max_sessions: int = 40) -> tuple[list[str], str]:
    """(names, note) for one finding; ``executor`` an :class:`~passcheck.passes.isolation.IsolatedExecutor`.

    ``ort:*`` missed optimizations: the transformers (see :mod:`passcheck.attribution.ort`), and so for a
    failure of onnxruntime's optimizer: the transformers whose disabling lets the session be created, then what
    they hid (:func:`passcheck.attribution.peel.peel` with them held disabled, said in the note when it fails);
    for a wrong result: the transformers whose disabling makes the outputs agree with the unoptimized run, and
    what they hid (:func:`~passcheck.attribution.peel.peel` on feeds synthesized from the input annotations);
    ``onnxscript:*`` ones: the rewrite rule or step (:mod:`passcheck.attribution.onnxscript`);
    shape-inference precision findings: the node where the typing falls behind
    (:mod:`passcheck.attribution.shapes`).

    Raises:
        PasscheckError: a finding of another kind, or its forms cannot be rebuilt.
    """
    from passcheck.attribution.forms import form_models
    from passcheck.attribution.ort import attribute_parity
    from passcheck.attribution.shapes import attribute_precision
    from passcheck.errors import PasscheckError, WorkerDied

    if is_ort_failure(finding) or is_ort_wrong(finding):
        from passcheck.attribution.forms import form_model
        from passcheck.attribution.ort import attribute_failure
        from passcheck.attribution.peel import peel, said

        model, level = form_model(finding, finding.form, cases_from), _ort_level(finding)
        if is_ort_wrong(finding):
            p = peel(model, level, executor.call, max_sessions=max_sessions)
            return (list(p.layers[0].names) if p.layers else []), said(p)
        got = attribute_failure(model, level, executor.call, max_sessions)
        if got.names:
            under = peel(model, level, executor.call, held=got.names, max_sessions=max_sessions)
            if under.layers:
                return got.names, f"{got.note}; {said(under)}"
        return got.names, got.note
    if finding.oracle != "parity" or not covered(finding):
        raise PasscheckError(
            f"finding {finding.id!r}: attribution covers ort:*/onnxscript:* missed optimizations, shape-inference "
            "precision parity findings and failures of onnxruntime's optimizer only in this version"
        )
    a, b = form_models(finding, cases_from)
    if finding.kind == "less-precise":
        got = attribute_precision(a, b, finding.pass_id, executor)
        return got.names, got.note
    if finding.pass_id.startswith("onnxscript:"):
        from passcheck.attribution.onnxscript import attribute_rules

        got = attribute_rules(a, b, finding.pass_id, executor)
        return got.names, got.note
    level = finding.pass_id.split(":", 1)[1]
    try:
        got = attribute_parity(a, b, level, finding.details.get("kept_op_types") or [], executor.call, max_sessions)
    except WorkerDied as exc:
        return [], f"onnxruntime died while bisecting: {exc}"
    return got.names, got.note
