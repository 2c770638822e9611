"""Fewest rewrite sites: a ``check --mutations`` form applied everywhere (``ID``) narrowed by delta
debugging over its sites to a 1-minimal set (``ID@s1+ID@s2…``) whose pair still shows the finding.

Parts are narrowed from the last, so the sites of a part are those of the model the earlier parts
wrote (spelling and building: :mod:`passcheck.hunt.forms`).
"""

from __future__ import annotations

from collections.abc import Callable

from passcheck.hunt import forms as hforms
from passcheck.reduce.ddmin import ddmin


def fewest_sites(base, form: str, holds: Callable[[str], bool], deadline: float) -> tuple[str, bool]:
    """(the narrowest spelling of ``form`` found on ``base``, whether every part finished).

    ``holds(form)`` says whether the whole base rewritten as ``form`` shows the finding; ``form``
    itself is assumed to. A part with one site or without per-site application is left as is.
    """
    parts = list(hforms.parts(form))
    finished = True
    for i in reversed(range(len(parts))):
        rid, label = parts[i]
        if label is not None or not hforms.has_sites(rid):
            continue
        before = hforms.build(base, hforms.spell(parts[:i])) if i else (base, [])
        labels = hforms.sites(before[0], rid) if before is not None else []
        if len(labels) < 2:
            continue
        head, tail = parts[:i], parts[i + 1:]

        def spelled(chosen, head=head, tail=tail, rid=rid) -> str:
            return hforms.spell([*head, *((rid, s) for s in chosen), *tail])

        keep, done = ddmin(labels, lambda chosen: holds(spelled(chosen)), deadline)
        finished = finished and done
        parts = [*head, *((rid, s) for s in keep), *tail]
    return hforms.spell(parts), finished
