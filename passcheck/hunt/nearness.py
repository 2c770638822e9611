"""How near a spelling comes to what a catalogue entry acts on: the order in which the guided hunt
tries an entry's spellings (:mod:`.scheduler`).

A rule, fusion, fold, inference function or adapter is a condition on the nodes it matches: their
op type, attributes and inputs (the op's schema). A spelling that edits one of those nodes inside
what the schema governs (an attribute written out, an optional input spelled ``""``, an operand
order) changes what the entry's matcher reads; one that edits the node otherwise (its name, doc
string, a function around it) or a value it reads or writes changes less; a spelling elsewhere in
the model (metadata, another node) least. So an entry's spellings are tried nearest first:

- ``2``: the form's rewrite changed a node of one of the entry's op types (a changed label names
  it: the node name or ``#index:OpType``);
- ``1``: it changed a value such a node reads or writes;
- ``0``: anything else, or the entry names no op type (an onnxruntime transformer or rule).

and, at the same nearness, spellings of the schema's areas of the spelling catalogue
(:data:`SCHEMA_AREAS`, :mod:`passcheck.mutations.catalogue`) first.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from typing import TYPE_CHECKING

from passcheck.mutations import forms as hforms
from passcheck.signature import site_ops

if TYPE_CHECKING:
    import onnx

#: Catalogue areas whose freedoms are the op schema's own (what a pattern matcher reads of a node).
SCHEMA_AREAS = frozenset({"attributes", "operator schemas", "optional and variadic slots", "data types", "algebra"})
_OP_NAMED = ("inference", "data-propagation", "adapter", "handler", "fold", "function")
_LAST_NAME = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)(?:@\d+|:\d+->\d+)?$")
_REPLACED = re.compile(r"replaced (\w+) node")


def entry_ops(entry, effects: Iterable[str]) -> frozenset[str]:
    """The op types ``entry`` (a :class:`passcheck.coverage.entry.Entry`) acts on: from its name
    (``Add@14``, ``Add:13->14``, ``ai.onnx::Cast``, a symbolic-shape handler's op) or, for a rewrite
    rule, from the effects observed (``try_rewrite replaced Cast node …``); empty when unknown."""
    ops = {m.group(1) for e in effects if (m := _REPLACED.search(e))}
    if entry.kind in _OP_NAMED and (m := _LAST_NAME.search(entry.name)):
        ops.add(m.group(1))
    return frozenset(ops)


@cache
def _areas() -> dict[str, str]:
    from passcheck.mutations.catalogue import freedoms

    out: dict[str, str] = {}
    for f in freedoms():
        for r in f.rewrites:
            out.setdefault(r, f.area)
    return out


def schema_spelling(form: str) -> bool:
    """Whether a rewrite of ``form`` produces a freedom of the op schema's areas (:data:`SCHEMA_AREAS`)."""
    return any(_areas().get(r) in SCHEMA_AREAS for r, _ in hforms.parts(form))


def nearness(model: onnx.ModelProto, labels: Iterable[str], ops: frozenset[str]) -> int:
    """2, 1 or 0 (see module docs) for a form of ``model`` whose rewrite changed ``labels``."""
    if not ops:
        return 0
    labels = set(labels)
    for i, n in enumerate(model.graph.node):
        if n.op_type in ops and (n.name in labels or f"#{i}:{n.op_type}" in labels):
            return 2
    return 1 if site_ops([model], labels) & ops else 0
