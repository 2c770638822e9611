"""Rebuild the forms a stored finding compared, from what the report records.

A finding of a registered case (``passcheck run``) names the case and form: the case builds
them again (case modules given to that run with ``--cases-from`` are loaded again). A finding of ``passcheck check
MODEL [--mutations]`` or ``passcheck compare A B``
records that command in its ``repro`` field: the model is read again and the rewrite re-applied.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence

from passcheck.errors import PasscheckError
from passcheck.records import Finding


def find(
    cells, finding_id: str | None, *, pass_prefix: str = "", kinds=("missed-optimization", "less-precise")
) -> Finding:
    """The finding ``finding_id`` of a report's cells, or its only unexpected parity finding of
    a ``pass_prefix`` pass and one of ``kinds`` when no id is given.

    Parity findings of one form against several others (``check --mutations``: ``common`` against each
    rewrite that got the fusion) share an id; ``ID@OTHER_FORM`` names one of them (:func:`choices`).

    Raises:
        PasscheckError: no such finding, an id that several such findings share, or several
            and no id given (the choices listed).
    """
    findings = [f for c in cells for f in c.findings]
    if finding_id:
        hit = [f for f in findings if f.id == finding_id] or [
            f for f in findings if finding_id == f"{f.id}@{_other(f)}" and _other(f)
        ]
        if len({_other(f) for f in hit}) > 1:
            raise PasscheckError(
                f"{len(hit)} findings share the id {finding_id!r}, each against another form; "
                "choose one with --finding: " + ", ".join(choices(hit)[:12])
            )
        if hit:
            return hit[0]
        raise PasscheckError(
            f"no finding {finding_id!r} in the report; its ids: " + (", ".join(choices(findings)[:12]) or "none")
        )
    fit = [
        f
        for f in findings
        if f.pass_id.startswith(pass_prefix) and f.oracle == "parity" and not f.expected and f.kind in kinds
    ]
    if len(fit) != 1:
        where = f" of {pass_prefix}* passes" if pass_prefix else ""
        raise PasscheckError(
            f"{len(fit)} unexpected {'/'.join(kinds)} parity findings{where} in the report; "
            "choose one with --finding ID: " + ", ".join(choices(fit or findings)[:12])
        )
    return fit[0]


def _other(f: Finding) -> str | None:
    return f.details.get("other_form") if isinstance(f.details, dict) else None


def choices(findings: Sequence[Finding]) -> list[str]:
    """What ``--finding`` takes for each of ``findings`` (:func:`choice`), sorted, once each."""
    return sorted({choice(f, findings) for f in findings})


def choice(f: Finding, findings: Sequence[Finding]) -> str:
    """What ``--finding`` takes for ``f`` among ``findings``: its id, or ``ID@OTHER_FORM`` where findings of
    that id compare their form against different forms."""
    shared = len({_other(g) for g in findings if g.id == f.id}) > 1
    return f"{f.id}@{_other(f)}" if shared else f.id


def form_models(finding: Finding, cases_from: Sequence[str] = ()) -> tuple[onnx.ModelProto, onnx.ModelProto]:  # noqa: F821
    """(the form the pass optimized, the form the finding is on) — ``other_form`` first.

    Raises:
        PasscheckError: the finding names no other form, or its forms cannot be rebuilt here
            (an unknown case, a model file that moved).
    """
    other = finding.details.get("other_form")
    if not other:
        raise PasscheckError(f"finding {finding.id!r} compares no two forms (only {finding.oracle} parity findings do)")
    return _form(finding, other, cases_from), _form(finding, finding.form, cases_from)


def form_model(finding: Finding, form: str, cases_from: Sequence[str] = ()) -> onnx.ModelProto:  # noqa: F821
    """The form ``form`` of the case or model ``finding`` comes from (errors as :func:`form_models`)."""
    return _form(finding, form, cases_from)


def mutation_base(finding: Finding) -> tuple[onnx.ModelProto, str] | None:  # noqa: F821
    """(the model ``check --mutations`` rewrote, the rewrite spelling) when ``finding`` sits on a
    rewritten form of a ``passcheck check`` run; else None.

    Raises:
        ModelLoadError: the model file recorded in the finding cannot be read.
    """
    words = shlex.split(finding.repro or "")
    if (
        not finding.case.startswith("model/")
        or words[:2] != ["passcheck", "check"]
        or len(words) < 3
        or finding.form == "common"
    ):
        return None
    from passcheck.modelio import load_model

    return load_model(words[2]), finding.form


def _recorded_cases_from(command: str) -> list[str]:
    """The ``--cases-from`` paths of the ``passcheck run`` command a finding records."""
    words = shlex.split(command or "")
    return (
        [words[i + 1] for i, w in enumerate(words[:-1]) if w == "--cases-from"]
        if words[:2] == ["passcheck", "run"]
        else []
    )


def _form(finding: Finding, form: str, cases_from: Sequence[str]):
    if not finding.case.startswith("model/"):
        from passcheck.cases._registry import load_builtin, load_path

        for p in [*cases_from, *_recorded_cases_from(finding.repro)]:
            load_path(p)
        registry = load_builtin()
        if finding.case not in registry:
            raise PasscheckError(
                f"case {finding.case!r} is not registered here (give the file that defines it with --cases-from)"
            )
        return registry.get(finding.case).build(form)
    words = shlex.split(finding.repro or "")
    if len(words) < 3 or words[:2] not in (["passcheck", "check"], ["passcheck", "compare"]):
        raise PasscheckError(
            f"finding {finding.id!r} does not record the command that produced it; cannot rebuild its forms"
        )
    from passcheck.modelio import load_model

    if words[1] == "compare":
        from passcheck.modelio import form_names

        a, b = words[2], words[3]
        names = dict(zip(form_names(a, b), (a, b)))
        if form not in names:
            raise PasscheckError(f"form {form!r} is neither of {list(names)}")
        return load_model(names[form])
    model = load_model(words[2])
    if form == "common":
        return model
    from passcheck.mutations.registry import mutants

    made = mutants(model, [form])
    if form not in made:
        raise PasscheckError(f"rewrite {form!r} no longer applies to {words[2]}")
    return made[form][0]
