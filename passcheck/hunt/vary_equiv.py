"""Equivalent neighbours judged as pairs: a neighbour (:mod:`.variation`) that computes what its base computes, by
the operator schema, is also judged with its base as a pair (:func:`.probe.probe`: base ``common``, the neighbour
the form named by its variation form id), so the comparative oracles (parity: the same fusions and folds, the same
inferred precision; acceptance: accepted on both) apply to it as to a rewrite.

Equivalent kinds (:func:`equivalent`, each with its spec source):

- ``int-negate`` of an axes-like or index-like constant, ``int-sentinel``, ``int-permute``
  (:func:`.vary_int.is_equivalent`: the input descriptions' ranges, Slice's clamping, an order the schema does not
  read);
- ``shape-leading-one`` where no reader's output rank is below the constant's new rank: every reader broadcasts
  the constant (:func:`.variation._broadcasts`), and broadcasting prepends 1s to the lower-rank operand
  (Broadcasting.md, multidirectional and unidirectional alike), so ``[1, …]`` is what the reader would use for
  ``[…]``; where the new rank exceeds the output's the output gains a dim (not equivalent).

Not equivalent, each by its family's definition: ``value-*`` (other values), ``shape-scalar`` /
``shape-one-element`` (another value for every element but the first), ``shape-outrank`` (the output gains a dim),
``attr-*`` (another value of the attribute's domain), ``elem-*`` (another element type), ``opt-fill`` (a value
other than the omitted input's default), ``expose`` / ``fanout`` (another graph interface, and a value a fusion
may no longer remove), ``cast-narrow`` / ``transpose-pair`` / ``transpose-regroup`` (pairs that are no identity),
``reshape-rank`` (the reader sees another rank),
``bind-*`` / ``feed-*`` (the model itself under other run conditions: no second form). The spellings the rewrite
space already makes (``negative-axes``, ``slice-bounds-negative``, ``squeeze-axes-reversed``,
``parameter-leading-ones``, ``explicit-defaults``, ``optional-input-default-explicit``: ``passcheck list
--rewrites``) are judged as pairs there.

A constant that is also a graph output is never equivalent (its own value is compared). The claim is checked,
not trusted: the pair goes through :func:`.probe.probe`'s equivalence gate (checker, same
interface, same outputs under ``ort:disabled``); a neighbour the gate refuses is judged alone only, the pair's
status saying why, never a finding.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.hunt.probe import COMPARATIVE, Setting, probe
from passcheck.hunt.variation import equivalent  # noqa: F401 - decided there (variation keeps annotations by it)

if TYPE_CHECKING:
    import onnx

    from passcheck.records import Finding

#: ``details`` key marking a finding of the pair judgement, and its value.
JUDGED, PAIR = "judged", "pair"


def pair(
    setting: Setting, base: onnx.ModelProto, form: str, neighbour: onnx.ModelProto, pass_id: str, executor
) -> tuple[dict, list[Finding]]:
    """Judge ``base`` (``common``) and its equivalent ``neighbour`` (form ``form``) as a pair under ``pass_id``
    (:func:`.probe.probe`: the gate, then both forms); (the pair's record: ``status`` and ``reason`` as
    :class:`.probe.Outcome` gives them, ``findings`` their count; the comparative findings, each marked
    ``details[JUDGED] == PAIR``). Per-form findings are left to the neighbour's judgement alone."""
    out = probe(setting, base, form, neighbour, pass_id, executor)
    found = [f for f in out.findings if f.oracle in COMPARATIVE]
    for f in found:
        f.details = {**(f.details or {}), JUDGED: PAIR}
    rec = {"status": out.status, "findings": len(found)}
    if out.reason:
        rec["reason"] = out.reason
    return rec, found


def is_pair_finding(finding: Finding) -> bool:
    """Whether ``finding`` came from :func:`pair` (the two-form case reproduces it, not the neighbour alone)."""
    return (finding.details or {}).get(JUDGED) == PAIR
