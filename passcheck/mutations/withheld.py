"""Pairs with the forms' declarations withheld on both sides: what a pass infers is then its own.

A model may declare a main-graph output's dims or its rank only (IR.md §Static tensor shapes: a dim with
neither field is unknown; §Graphs: a main-graph output must give a rank). A shape-inferring pass keeps a
declared dim where it would infer an unknown one (onnx's ``infer_shapes`` merges what it infers into what
the graph states), so two spellings of one computation whose outputs both declare their dims leave the
pass's output annotations equal whatever the pass infers for each: the parity oracle's precision check
compares nothing of the pass's own. A rewrite marked ``withholds`` (:class:`~passcheck.mutations._base.Rewrite`:
``anonymous-output-dims``) removes such declarations; in a form with other rewrites it is applied to
*both* sides, first: the pair is ``(W(base), R(W(base)))`` for the form ``W+R``, the two spellings differ
by ``R`` alone and each states its outputs rank-only, so an annotation less precise on one side is what
the pass inferred there (the parity oracle still blames it only when the other side's more precise
annotation holds at run time). A form of withholding rewrites alone is the usual pair
``(base, W(base))``: the rank-only spelling judged against the declared one.

Form ids are those of :mod:`passcheck.mutations.forms` (``W+R`` is spelled left to right, as applied).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from passcheck.mutations import forms as hforms
from passcheck.mutations.registry import REWRITES

if TYPE_CHECKING:
    import onnx


def withholding(rewrite_id: str) -> bool:
    """Whether the rewrite ``rewrite_id`` only withholds declarations (its ``withholds`` flag)."""
    return bool(getattr(REWRITES[rewrite_id], "withholds", False))


def pair(model: onnx.ModelProto, form: str) -> tuple[onnx.ModelProto, onnx.ModelProto, list[str]] | None:
    """``(common, uncommon, labels)`` of the pair ``form`` makes of ``model``: for a form with both a
    withholding part and others, ``common`` is ``model`` with the withholding parts applied (``model`` itself
    when they apply nowhere: it declares nothing they withhold) and ``uncommon`` is ``common`` with the other
    parts applied; else ``(model, build(model, form))``. ``labels``: the sites the form's parts changed.
    None when a part applies nowhere (:func:`passcheck.mutations.forms.build`). ``model`` is never modified.

    Raises:
        ValueError: ``form`` names no rewrite (:func:`passcheck.mutations.forms.parts`).
        RewriteError: a rewrite raised.
    """
    parts = hforms.parts(form)
    held = [p for p in parts if withholding(p[0])]
    others = [p for p in parts if not withholding(p[0])]
    if not held or not others:
        built = hforms.build(model, form)
        return None if built is None else (model, built[0], built[1])
    withheld = hforms.build(model, hforms.spell(held))
    common, labels = (model, []) if withheld is None else withheld
    built = hforms.build(common, hforms.spell(others))
    return None if built is None else (common, built[0], [*labels, *built[1]])


def forms(base_forms: Sequence[str]) -> list[str]:
    """The withheld forms of a base whose forms are ``base_forms``: ``W+R`` for each withholding rewrite
    ``W`` and each other rewrite ``R`` that applies there all at once (each a form of ``base_forms``), in
    their order; none when no withholding rewrite applies (the base declares nothing it withholds). A rewrite
    that hides shapes on purpose (``hides_shapes``: its side would say less by construction) gets none."""
    whole = [f for f in base_forms if len(hforms.parts(f)) == 1 and hforms.parts(f)[0][1] is None]
    held = [f for f in whole if withholding(f)]
    return [f"{w}+{r}" for w in held for r in whole if not withholding(r) and not REWRITES[r].hides_shapes]
