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


#: The tools that need no runtime: the reference-only generated bases are observed under these only.
RUNTIME_FREE = ("onnx-shape-inference", "onnx-version-converter")


def reference_only_bases():
    """The generated bases onnxruntime has no kernel for (schemas superseded before opset 7, judged
    by the checker and the reference evaluator alone, :func:`passcheck.generate.cases`): bases for
    the tools that need no runtime, never hunt bases (no pass cell of theirs can run)."""
    from passcheck.generate import cases
    from passcheck.hunt.space import Base

    return [Base(c, next(iter(c.forms))) for c in cases(reference_only=True)]


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
    :class:`~passcheck.passes.isolation.IsolatedExecutor`, the process's pooled one when None) and cached per
    tool version (:mod:`passcheck.coverage.cache`; ``refresh`` observes everything again). With
    the whole library (no ``patterns``, no ``bases``, ``generated``), the
    :func:`reference_only_bases` too, under the :data:`RUNTIME_FREE` tools only."""
    from passcheck.coverage.cache import Cache
    from passcheck.passes.isolation import executor_for

    chosen = list(bases) if bases is not None else chosen_bases(patterns, generated, all_forms)
    free = [t for t in tools if t in RUNTIME_FREE]
    extra = reference_only_bases() if bases is None and generated and not patterns and free else []
    cache = Cache(refresh=refresh)

    def run(ex) -> CoverageMap:
        cmap = compute(chosen, ex, tools, cache, on_base)
        return cmap.joined(compute(extra, ex, free, cache, on_base)) if extra else cmap

    if executor is not None:
        return run(executor)
    with executor_for(None) as ex:  # its worker holds the tools' block too (M311); kept for the next (M530)
        return run(ex)
