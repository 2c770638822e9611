"""Why the uncommon form of a finding is valid: the spec source a report cites.

A rewritten form (``ID``, ``ID@SITE``, ``A+B``) is valid by the spelling catalogue's row of each
rewrite (:mod:`passcheck.mutations.catalogue`: its summary and the spec section it rests on); a
hand-written form of a registered case by the case's own words (the form's doc and the
``Uncommon:`` paragraph of the case doc, which cites its spec section).
"""

from __future__ import annotations

from collections.abc import Sequence

from passcheck.records import Finding


def why_valid(f: Finding, cases_from: Sequence[str] = ()) -> list[str]:
    """Lines (Markdown) saying why ``f``'s form is valid, each with its spec source; empty for
    ``common`` and when nothing records it."""
    if not f.form or f.form == "common":
        return []
    lines = _catalogue(f.form)
    return lines or _case_words(f, cases_from)


def _catalogue(form: str) -> list[str]:
    from passcheck.mutations.catalogue import freedoms
    from passcheck.signature import rewrite_kind

    kinds = [k for k in rewrite_kind(form).split("+") if k]
    rows = freedoms()
    out = []
    for k in kinds:
        row = next((r for r in rows if k in r.rewrites), None)
        if row is not None:
            out.append(f"- `{k}`: {row.summary} (spec: {row.source}; spelling catalogue, freedom `{row.id}`)")
    return out


def _case_words(f: Finding, cases_from: Sequence[str]) -> list[str]:
    from passcheck.cases._registry import load_builtin, load_path

    try:
        for p in cases_from:
            load_path(p)
        registry = load_builtin()
        if f.case not in registry:
            return []
        case = registry.get(f.case)
    except Exception:  # noqa: BLE001 - a case module that no longer loads: nothing recorded
        return []
    form = case.forms.get(f.form)
    out = [f"- form `{f.form}`: {form.doc}"] if form is not None and form.doc else []
    doc = case.doc or ""
    if "Uncommon:" in doc:
        para = doc.split("Uncommon:", 1)[1].split("\n\n", 1)[0]
        out.append("- the case: Uncommon: " + " ".join(para.split()))
    return out
