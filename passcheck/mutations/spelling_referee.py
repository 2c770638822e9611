"""Which spelling's onnxruntime run is odd when two spellings of one computation run to different values.

A rewrite writes the same computation another way by a spec identity (a function op and its body, ``CastLike`` and
``Cast`` to the target's type, the rewrites of :mod:`passcheck.mutations`). When onnxruntime, unoptimized, computes the
original and the mutant differently, either the rewrite is wrong or onnxruntime is wrong on one spelling: a fault the
pass-vs-input oracles cannot see, since a form and its pass output share it (docs/recall.md round 15c, row 963).

onnx's reference evaluator is the third opinion, asked on both spellings (same feeds): :func:`odd_run` names the
spelling whose onnxruntime run is the only one of the four runs that disagrees — the evaluator computes the two
spellings alike and as onnxruntime computes the other. Nothing is blamed on fewer opinions: when the evaluator
fails on a spelling, or departs from both onnxruntime runs, the dispute is :data:`UNSETTLED`; when it computes the
spellings as onnxruntime does, each its own way, both runtimes see two computations: the rewrite is wrong (None).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

ORIGINAL = "original"
MUTANT = "mutant"
UNSETTLED = "unsettled"

#: ``(expected outputs, got outputs) → difference | None`` between two runs (outputs by graph output name).
Differ = Callable[[Mapping[str, Any], Mapping[str, Any]], "str | None"]


@dataclasses.dataclass(frozen=True)
class Ruling:
    """``odd``: :data:`ORIGINAL` or :data:`MUTANT` (that spelling's onnxruntime run is outvoted 3 to 1) or
    :data:`UNSETTLED` (no majority); ``why``: the opinions counted, one line."""

    odd: str
    why: str


def odd_run(
    ort_a: Mapping[str, Any],
    ort_b: Mapping[str, Any],
    ref_a: Mapping[str, Any] | str,
    ref_b: Mapping[str, Any] | str,
    differ: Differ,
) -> Ruling | None:
    """Settle onnxruntime's two differing runs of spellings ``a`` (original) and ``b`` (mutant) of one computation.

    Args:
        ort_a, ort_b: onnxruntime's outputs (unoptimized) of each spelling on the same feeds; they differ.
        ref_a, ref_b: the reference evaluator's outputs of each on those feeds, or its error message (``str``).
        differ: the comparison of two runs (:func:`passcheck.oracles.numeric.compare` per output).

    Returns:
        A :class:`Ruling` naming the odd onnxruntime run, or an :data:`UNSETTLED` one; None when the evaluator
        computes each spelling as onnxruntime does and the two differ (the spellings are two computations: the
        rewrite's fault).
    """
    if isinstance(ref_a, str) or isinstance(ref_b, str):
        which = "original" if isinstance(ref_a, str) else "mutant"
        err = ref_a if isinstance(ref_a, str) else ref_b
        return Ruling(UNSETTLED, f"the reference evaluator fails on the {which} ({_line(err)}): no third opinion")
    if differ(ref_a, ref_b) is None:
        if differ(ref_b, ort_b) is None:
            return Ruling(
                ORIGINAL, "the reference evaluator computes both spellings alike and as onnxruntime computes the mutant"
            )
        if differ(ref_a, ort_a) is None:
            return Ruling(
                MUTANT, "the reference evaluator computes both spellings alike and as onnxruntime computes the original"
            )
        return Ruling(UNSETTLED, "the reference evaluator computes both spellings alike, as neither onnxruntime run")
    if differ(ref_a, ort_a) is None and differ(ref_b, ort_b) is None:
        return None
    return Ruling(UNSETTLED, "the reference evaluator computes the spellings differently, not as onnxruntime does")


def _line(text: str) -> str:
    lines = text.strip().splitlines()
    return lines[-1][:200] if lines else "no message"


__all__ = ["MUTANT", "ORIGINAL", "UNSETTLED", "Ruling", "odd_run"]
