"""The coverage map (:mod:`passcheck.coverage`) of the hunt's own bases: the forms of the hand-written and
generated cases the hunt draws from (:func:`passcheck.hunt.space.bases`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from passcheck.coverage.entry import TOOLS
from passcheck.coverage.map import CoverageMap, compute


def chosen_bases(patterns: Sequence[str] = (), generated: bool = True, all_forms: bool = False):
    """The bases of the map: the hunt's bases, by default only each case's first form (``common``:
    the other forms spell the same computation, and the hunt spells them anew).

    Raises:
        UnknownIdError: a pattern matches no case.
    """
    from passcheck.hunt.space import bases

    found = bases(patterns, generated)
    if all_forms:
        return found
    return [b for b in found if b.form == next(iter(b.case.forms))]


def library_map(
    patterns: Sequence[str] = (),
    *,
    generated: bool = True,
    all_forms: bool = False,
    tools: Sequence[str] = TOOLS,
    refresh: bool = False,
    executor=None,
    on_base: Callable[[str], None] | None = None,
    bases=None,
) -> CoverageMap:
    """The map over :func:`chosen_bases` (or ``bases``), observed in ``executor`` (an
    :class:`~passcheck.passes.isolation.IsolatedExecutor`, a new one when None) and cached per
    tool version (:mod:`passcheck.coverage.cache`; ``refresh`` observes everything again)."""
    from passcheck.coverage.cache import Cache
    from passcheck.passes.isolation import IsolatedExecutor

    chosen = list(bases) if bases is not None else chosen_bases(patterns, generated, all_forms)
    cache = Cache(refresh=refresh)
    if executor is not None:
        return compute(chosen, executor, tools, cache, on_base)
    with IsolatedExecutor() as ex:
        return compute(chosen, ex, tools, cache, on_base)
