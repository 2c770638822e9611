"""Fewest rewrite sites: a ``check --mutations`` form applied everywhere (``ID``), or at several
sites (``ID@s1+ID@s2…``, e.g. resumed), narrowed by delta debugging over its sites to a
1-minimal set whose pair still shows the finding.

A run of consecutive parts of one rewrite is one group of sites. Groups are narrowed from the
last, so the sites of a group are those of the model the earlier groups wrote (spelling and
building: :mod:`passcheck.mutations.forms`).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

from passcheck.mutations import forms as hforms
from passcheck.reduce.ddmin import ddmin


def fewest_sites(
    base, form: str, holds: Callable[[str], bool], deadline: float, on_smaller: Callable[[str], None] | None = None
) -> tuple[str, bool]:
    """(the narrowest spelling of ``form`` found on ``base``, whether every group finished).

    ``holds(form)`` says whether the whole base rewritten as ``form`` shows the finding; ``form``
    itself is assumed to. ``on_smaller`` gets each narrower spelling found. A group with one
    site, or of a rewrite without per-site application, is left as is.
    """
    groups = [(rid, [s for _r, s in parts]) for rid, parts in itertools.groupby(hforms.parts(form), key=lambda p: p[0])]
    finished = True
    for i in reversed(range(len(groups))):
        rid, labels = groups[i]
        if not hforms.has_sites(rid):
            continue
        if None in labels:  # every site
            before = hforms.build(base, _spell(groups[:i])) if i else (base, [])
            labels = hforms.sites(before[0], rid) if before is not None else []
        if len(labels) < 2:
            continue
        head, tail = groups[:i], groups[i + 1 :]

        def spelled(chosen, head=head, tail=tail, rid=rid) -> str:
            return _spell([*head, (rid, list(chosen)), *tail])

        keep, done = ddmin(
            labels,
            lambda chosen: holds(spelled(chosen)),
            deadline,
            (lambda chosen: on_smaller(spelled(chosen))) if on_smaller else None,
        )
        finished = finished and done
        groups = [*head, (rid, keep), *tail]
    return _spell(groups), finished


def _spell(groups) -> str:
    return hforms.spell([(rid, s) for rid, labels in groups for s in labels])
