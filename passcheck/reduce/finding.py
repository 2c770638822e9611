"""What reducing one stored finding needs: its :mod:`~passcheck.reduce.sources` source and its case's settings
(``passcheck reduce`` and ``passcheck triage`` share these)."""

from __future__ import annotations


def source_for(f, cases_from, executor):
    """(the :mod:`passcheck.reduce.sources` source for ``f``, the number of rewrite sites or 0)."""
    from passcheck.attribution.forms import form_model, mutation_base
    from passcheck.reduce.sources import Cut, Rewritten

    other = f.details.get("other_form")
    rewritten = mutation_base(f) if other in (None, "common") else None
    if rewritten is not None:
        from passcheck.mutations import forms as hforms

        source = Rewritten(*rewritten, executor)
        whole = sum(len(hforms.sites(source.base, r)) if s is None else 1 for r, s in hforms.parts(source.form))
        return source, whole
    a = form_model(f, other, cases_from) if other else None
    return Cut(a, form_model(f, f.form, cases_from), executor, f.details.get("kept_nodes") or []), 0


def case_settings(f, cases_from) -> dict:
    """The case's tolerances and parity checks (for the engine predicate); {} for a model's finding."""
    if f.case.startswith("model/"):
        return {}
    from passcheck.attribution.forms import form_model

    form_model(f, f.form, cases_from)  # loads the case modules the finding needs
    from passcheck.cases._registry import load_builtin

    case = load_builtin().get(f.case)
    return {"rtol": case.rtol, "atol": case.atol, "parity": case.parity}
