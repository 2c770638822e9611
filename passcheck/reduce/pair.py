"""Reduce a finding's pair of forms, keeping its signature: sites, nodes, shapes, initializer values.

1. Sites (``check --mutations`` findings only, :class:`~passcheck.reduce.sources.Rewritten`):
   the rewrite's sites narrowed by delta debugging (:mod:`passcheck.reduce.sites`) on the whole model.
2. Nodes: first the seeds the source proposes (the rewrite's sites, or each kept node the finding
   lists, with their neighbours: the usual shape of a missed fusion), then ddmin over every node.
3. Shapes: every static axis of one size (graph inputs and initializers) cut to 1, largest size
   first, where the finding survives (:mod:`passcheck.reduce.shapes`).
4. Initializer values: zeros or ones where the finding survives (:mod:`passcheck.reduce.initializers`).

Every candidate is judged by a predicate ``holds(a, b)`` (:mod:`passcheck.reduce.predicates`).
Bounded by a deadline: the smallest pair found so far is returned.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Sequence
from typing import Any

from passcheck.errors import PasscheckError
from passcheck.reduce.ddmin import ddmin


@dataclasses.dataclass
class Reduced:
    """The smallest pair found: forms ``a`` (None for a one-form finding) / ``b``, the rewrite
    spelling kept (``form``, None when the pair is not a rewrite), the node keys kept, the axis
    sizes cut to 1 (``shrunk``), the initializers replaced (name → ``zeros`` / ``ones``), whether
    every step finished, the candidates tested, and onnx's tool calls on candidates that killed the isolation
    worker (``tool_deaths``) or were not made for that (``tool_skips``; :mod:`passcheck.runtime.isolated_tools`)."""

    a: Any
    b: Any
    form: str | None
    keep: list[str]
    shrunk: list[int]
    simplified: dict[str, str]
    finished: bool
    tests: int
    tool_deaths: list[str] = dataclasses.field(default_factory=list)
    tool_skips: list[str] = dataclasses.field(default_factory=list)


class PairReducer:
    """Runs the steps (module docs) over ``source`` (a :mod:`passcheck.reduce.sources` source)
    with ``holds(a, b) -> bool`` (kept as ``predicate``); ``executor`` (an IsolatedExecutor)
    runs shape inference for the shapes step (None: in this process)."""

    def __init__(self, source, holds: Callable[[Any, Any], bool], executor=None):
        self.source, self.predicate, self.ex, self.tests = source, holds, executor, 0

    @property
    def keys(self) -> list[str]:
        return self.source.keys

    def holds(self, keep: Sequence[str], edit=None) -> bool:
        self.tests += 1
        a, b = self.source.make(keep, edit)
        return b is not None and self.predicate(a, b)

    def reduce(
        self,
        deadline: float,
        start: Sequence[str] | None = None,
        form: str | None = None,
        on_smaller: Callable[[list[str], str | None], None] | None = None,
    ) -> Reduced:
        """The smallest pair found before ``deadline`` (``time.monotonic()``), from ``start``
        (node keys that hold, e.g. resumed; default every node) and ``form`` (a narrowed rewrite
        spelling, resumed). ``on_smaller(keep, form)`` is called with each smaller candidate
        found (fewer sites or nodes).

        The rewrites' and the edits' onnx tools on each candidate run in ``executor``'s worker (a block of
        :func:`passcheck.runtime.isolated_tools.within`, M311): a candidate that kills one is not a candidate, and
        the result lists those deaths.

        Raises:
            PasscheckError: the whole pair (or ``start``) does not show the finding here.
        """
        from passcheck.runtime import isolated_tools

        with isolated_tools.within(self.ex) as scope:
            before = (len(scope.deaths), len(scope.skipped)) if scope is not None else (0, 0)
            red = self._reduce(deadline, start, form, on_smaller)
            if scope is not None:
                red.tool_deaths, red.tool_skips = scope.deaths[before[0] :], scope.skipped[before[1] :]
        return red

    def _reduce(self, deadline, start, form, on_smaller) -> Reduced:
        """:meth:`reduce`'s steps (module docs)."""
        from passcheck.reduce.sites import fewest_sites

        src = self.source
        current = list(start) if start else list(src.keys)
        if form is not None:
            src = self.source = src.at(form)
        if not self.holds(current):
            raise PasscheckError(
                "the pair does not show the finding here (same signature, forms valid and equal): nothing to reduce"
            )
        finished = True
        if hasattr(src, "at"):  # a rewrite: its sites first (a resumed spelling goes on narrowing)

            def at_sites(spelling: str) -> bool:
                self.tests += 1
                a, b = src.at(spelling).make(current)
                return b is not None and self.predicate(a, b)

            narrowed, finished = fewest_sites(
                src.base,
                src.form,
                at_sites,
                deadline,
                (lambda spelling: on_smaller(current, spelling)) if on_smaller else None,
            )
            src = self.source = src.at(narrowed)
        note = (lambda keep: on_smaller(keep, getattr(src, "form", None))) if on_smaller else None
        for seed in src.seeds():
            if time.monotonic() > deadline:
                break
            if len(seed) < len(current) and set(seed) <= set(current) and self.holds(seed):
                current = seed
                if note:
                    note(current)
                break
        keep, done = ddmin(current, self.holds, deadline, note)
        sizes, shapes = self._shrink(keep, deadline)
        simplified, edit = self._simplify(keep, shapes, deadline)
        a, b = src.make(keep, edit)
        return Reduced(a, b, getattr(src, "form", None), keep, sizes, simplified, finished and done, self.tests)

    def _shrunk(self, size: int):
        """The edit cutting every axis of ``size`` to 1 (None where shape inference fails or crashes)."""
        from passcheck.reduce.shapes import shrunk

        def edit(model):
            try:
                return self.ex.call(shrunk, model, size) if self.ex is not None else shrunk(model, size)
            except Exception:  # noqa: BLE001 - the worker died or numpy cannot hold a tensor: not a candidate
                return None

        return edit

    def _shrink(self, keep: list[str], deadline: float) -> tuple[list[int], Callable | None]:
        """(sizes cut to 1, the edit doing it) for the kept nodes (module docs, step 3)."""
        from passcheck.reduce.shapes import sizes

        a, b = self.source.make(keep)
        kept: list[int] = []
        for size in sizes(a if a is not None else b):
            if time.monotonic() > deadline:
                break
            if self.holds(keep, _chain([*map(self._shrunk, kept), self._shrunk(size)])):
                kept.append(size)
        return kept, (_chain([self._shrunk(s) for s in kept]) if kept else None)

    def _simplify(self, keep: list[str], shapes, deadline: float) -> tuple[dict[str, str], Callable | None]:
        """(initializer → fill, the edit doing it and ``shapes`` first) (module docs, step 4)."""
        from passcheck.reduce.initializers import candidates, simplify
        from passcheck.reduce.sources import with_values

        def with_fills(values):
            return _chain([shapes, lambda m: with_values(m, values)])

        a, b = self.source.make(keep, shapes)
        if b is None:
            return {}, shapes
        arrays = candidates(a if a is not None else b)
        values = simplify(arrays, lambda v: self.holds(keep, with_fills(v)), deadline)
        return {k: ("zeros" if not v.any() else "ones") for k, v in values.items()}, (
            with_fills(values) if values else shapes
        )


def _chain(edits):
    """One edit applying ``edits`` (None entries skipped) in order; None out of any is None."""

    def edit(model):
        for e in edits:
            if e is not None and model is not None:
                model = e(model)
        return model

    return edit
