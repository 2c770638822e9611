"""Who is in the minority when the generator's gate hears two runtimes disagree on a pair.

The gate asks two independent evaluators of every form: onnxruntime with every graph optimization
off (``ort:disabled``, the unoptimized model, each binding) and onnx's reference evaluator (binding 0).
Either can be wrong on a spelling (docs/found.md rows 270 and 272: the evaluator's Loop with ``cond``
left out runs no iteration; its SequenceInsert at position ``n`` inserts at the front). So no form is
dropped or blamed on one evaluator's word while another disagrees. The opinions counted on a form:

- each runtime's value of the form;
- the pair's construction, when the spec says its forms compute the same (:attr:`Pair.alike
  <passcheck.generate.pair.Pair.alike>`: every kind but an ``omitted`` pair whose given value the
  domain table does not state as what the omission means): a runtime whose forms differ contradicts
  the spec there;
- a third runtime (``third``: e.g. another pinned onnxruntime), when the caller has one.

:func:`referee` names the minority and whether the pair stays:

- the reference evaluator alone dissents on an uncommon form (fails on it, or computes it otherwise
  than on common) while onnxruntime computes every form alike and agrees with it on common: kept when
  the spec says the forms are alike or the third runtime agrees with onnxruntime on that form, with a
  :class:`Dissent` against the reference evaluator; else dropped, the dispute recorded as unresolved;
- onnxruntime alone computes an uncommon form otherwise, the evaluator computing all alike and
  agreeing with onnxruntime on common: dropped (the case's cells run onnxruntime), with a
  :class:`Dissent` against onnxruntime;
- the two differ on common, each computing every form alike: the third runtime decides (kept with a
  dissent against the evaluator when it sides with onnxruntime; dropped with one against onnxruntime
  when it sides with the evaluator); without one the pair is dropped and the dispute recorded as
  unresolved, never blamed on either.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import Any

REFERENCE = "reference evaluator"
ORT = "onnxruntime"
UNRESOLVED = "unresolved"


@dataclasses.dataclass(frozen=True)
class Dissent:
    """One runtime outvoted on one form (``tool``: :data:`REFERENCE` or :data:`ORT`), or a dispute no
    majority settles (``tool`` :data:`UNRESOLVED`); ``why``: the opinions counted, ``detail``: the
    values' difference."""

    tool: str
    form: str
    why: str
    detail: str

    def __str__(self) -> str:
        who = "no majority" if self.tool == UNRESOLVED else f"{self.tool} in the minority"
        return f"{who} on {self.form}: {self.why}: {self.detail}"


@dataclasses.dataclass
class Ruling:
    """``keep``: the pair stays despite the dissent; ``dissent``: the outvoted runtime per form (or the
    unresolved dispute); ``reason``: the drop reason when not kept."""

    keep: bool
    dissent: list[Dissent]
    reason: str = ""


#: ``(model, feeds) → RunResult``: a third runtime's run of a form (e.g. another pinned onnxruntime).
Third = Callable[[Any, Mapping[str, Any]], Any]


def referee(
    names: Sequence[str],
    ref: Mapping[str, Any],
    ort: Mapping[str, Sequence[Mapping[str, Any]]],
    agree: Callable[[Mapping[str, Any], Mapping[str, Any]], str | None],
    across: Callable[[Mapping[str, Any], Mapping[str, Any]], str | None],
    alike: bool,
    third: Callable[[str], Any] | None = None,
) -> Ruling | None:
    """Settle a disagreement between the two runtimes on a pair, or None when there is none to settle.

    Args:
        names: the form names, ``common`` first.
        ref: form → the reference evaluator's outputs on binding 0, or its error message (a ``str``).
        ort: form → onnxruntime's outputs per binding (every form ran).
        agree: ``(expected, got) → difference | None`` between two runs of one runtime.
        across: the same between the two runtimes (by shape and dtype only for a seeded random op).
        alike: the spec says the pair's forms compute the same (see module docs).
        third: form → a third runtime's RunResult on binding 0 (its ``error`` set when it fails), or None.

    Returns:
        A :class:`Ruling`, or None: the runtimes agree, or both compute the forms differently (the
        generator's own fault, judged by the gate), or the evaluator fails on common (no opinion to count).
    """
    common = names[0]
    if isinstance(ref[common], str):
        return None
    ort_split = {n: w for n in names[1:] if (w := _first(agree(o, g) for o, g in zip(ort[common], ort[n])))}
    ref_split = [n for n in names[1:] if isinstance(ref[n], str) or agree(ref[common], ref[n])]
    off = {}  # form → how the evaluator departs from onnxruntime there
    for n in names:
        if w := (f"fails: {ref[n]}" if isinstance(ref[n], str) else across(ref[n], ort[n][0])):
            off[n] = w
    if ort_split and ref_split:
        return None  # both see different computations: the generator built them
    if ort_split:
        if common in off:
            return None  # the two differ on common as well: no form to count on
        who = ORT if alike else UNRESOLVED
        why = "the reference evaluator computes every form alike and as onnxruntime on common"
        why += "" if alike else "; whether the forms are alike is what the pair asks"
        return Ruling(
            False,
            [Dissent(who, n, why, w) for n, w in ort_split.items()],
            "onnxruntime computes the uncommon form differently",
        )
    if not off:
        return None
    if len(off) == len(names) and not ref_split:
        return _on_common(common, ref, ort, off[common], third, across)
    return _reference_alone(names, off, ref, ort, alike, third, across)


def _first(items) -> str | None:
    return next((x for x in items if x), None)


def _reference_alone(names, off, ref, ort, alike, third, across) -> Ruling:
    """onnxruntime computes every form alike; the evaluator departs from it on the forms ``off`` and
    agrees on the others (or departs everywhere, computing the forms otherwise among themselves)."""
    out, keep = [], True
    agrees_somewhere = len(off) < len(names)
    for n, w in off.items():
        vote = _third_vote(third, n, ort[n][0], across, None if isinstance(ref[n], str) else ref[n])
        if vote == ORT or (alike and agrees_somewhere):
            why = "onnxruntime computes every form alike"
            why += ", the evaluator computes another form as onnxruntime" if agrees_somewhere else ""
            why += ", the spec says the forms compute the same" if alike else ""
            why += ", a third runtime agrees with onnxruntime" if vote == ORT else ""
            out.append(Dissent(REFERENCE, n, why, w))
            continue
        keep = False
        why = "onnxruntime computes every form alike, the evaluator not"
        why += "" if alike else "; whether the forms are alike is what the pair asks"
        why += "" if agrees_somewhere else "; the evaluator agrees with onnxruntime on no form"
        vote = "agrees with the reference evaluator" if vote == REFERENCE else vote
        why += f"; the third runtime {vote}" if vote else "; no third runtime was asked"
        out.append(Dissent(UNRESOLVED, n, why, w))
    if keep:
        return Ruling(True, out)
    uncommon = [d for d in out if d.tool == UNRESOLVED and d.form != names[0]]
    if not uncommon:
        reason = "onnxruntime differs from the reference evaluator on common"
    elif all(isinstance(ref[d.form], str) for d in uncommon):
        reason = "reference evaluator fails on the uncommon form"
    else:
        reason = "the reference evaluator computes the uncommon form differently"
    return Ruling(False, out, reason)


def _on_common(common, ref, ort, on_common, third, across) -> Ruling:
    """Both runtimes compute the forms alike but differently from each other."""
    vote = _third_vote(third, common, ort[common][0], across, ref_out=ref[common])
    if vote == ORT:
        return Ruling(True, [Dissent(REFERENCE, "every form", "a third runtime agrees with onnxruntime", on_common)])
    if vote == REFERENCE:
        return Ruling(
            False,
            [Dissent(ORT, "every form", "a third runtime agrees with the reference evaluator", on_common)],
            "onnxruntime differs from the reference evaluator and a third runtime on common",
        )
    why = f"the third runtime {vote}" if vote else "no third runtime was asked"
    return Ruling(
        False,
        [Dissent(UNRESOLVED, "every form", f"onnxruntime and the reference evaluator differ; {why}", on_common)],
        "onnxruntime differs from the reference evaluator on common",
    )


def _third_vote(third, form, ort_out, across, ref_out=None) -> str | None:
    """:data:`ORT` when the third runtime agrees with onnxruntime on ``form``; :data:`REFERENCE` when it
    agrees with ``ref_out`` (the evaluator's outputs) instead; a sentence when it fails or sides with
    neither; None when there is no third runtime."""
    if third is None:
        return None
    r = third(form)
    if r is None:
        return None
    if r.error:
        return f"fails ({r.error.strip().splitlines()[0][:200] if r.error.strip() else 'no message'})"
    if across(ort_out, r.outputs) is None:
        return ORT
    if ref_out is not None and across(ref_out, r.outputs) is None:
        return REFERENCE
    return "agrees with neither"
