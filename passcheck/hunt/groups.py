"""A hunt's signatures grouped by root cause: one group per pass, oracle, kind and pass rule, the
rewrites that showed it listed inside.

A signature (:mod:`passcheck.hunt.signature`) holds the rewrite and the op types of the sites, so one
missed fusion reached by twelve spellings is twelve signatures. The group key drops the rewrite and
names the rule by what the pass did, read from the finding's message as the oracles write it:

- parity ``missed-optimization`` (:func:`passcheck.oracles.parity._finding`): the op types one form
  kept that the other lost (``removed OP a→b in 'X' but c→d in 'Y'``), the form that kept them, and the
  op types only one form gained (``new op types: X [...], Y [...]``; the fused op names the rule:
  ``com.microsoft::FastGelu`` is FastGeluFusion);
  a pattern cut by nodes only one form spells and the pass kept (the oracle's ``behind [...]`` clause,
  :func:`passcheck.oracles.parity._barrier`) is grouped on those op types alone: ``behind [SequenceAt] the pass
  kept`` joins every fusion a SequenceAt cut, since what there is to judge is whether the pass removes that node;
- folding ``missed-optimization`` (:mod:`passcheck.oracles.folding`): the op type left unfolded;
- otherwise the signature's op types and error class.

An ``annotation-violated`` signature first found on the item (base, form, pass) where a ``numeric`` ``wrong-result``
signature says that output's shape or element type changed (:func:`passcheck.report.rootcause.wrong_shape`) joins the
wrong result's group: one changed output, seen by two oracles (the report's root-cause rule 2 does the same within a
cell); an annotation blamed on the runtime does not.

A record with no message (a state from before messages were kept) groups on its op types. The pass in the key is
its family (:func:`passcheck.report.rootcause.pass_family`): onnxruntime's transformers optimizer under every model
type is one pass there (its types run the same fusion classes), and the group lists the model types that showed it
(:attr:`Group.label`).
"""

from __future__ import annotations

import ast
import dataclasses
import re
from collections.abc import Mapping, Sequence
from typing import Any

_KEPT = re.compile(r"(\S+) \d+→\d+ in '([^']*)' but \d+→\d+ in '([^']*)'")
_NEW = re.compile(r"new op types: (\S+) (\[[^\]]*\]|none), (\S+) (\[[^\]]*\]|none)")
_FOLD = re.compile(r"^(\S+) node '")
#: The parity oracle's barrier clause (:func:`passcheck.oracles.parity._barrier`): the kept nodes a pattern was cut by.
_BEHIND = re.compile(r"; behind \[([^\]]*)\], which only '([^']*)' spells")


def _ops(text: str) -> set[str]:
    return set() if text == "none" else set(ast.literal_eval(text))


def rule(rec: Mapping[str, Any]) -> str:
    """The text naming the pass rule behind signature record ``rec`` (a hunt state's
    ``signatures`` value), e.g. ``kept [Add, Mul, Pow, Tanh] in uncommon; gained elsewhere
    [com.microsoft::FastGelu]``; see the module docs."""
    s = rec["signature"]
    msg = rec.get("message") or (rec.get("found_on") or {}).get("message") or ""
    return rule_of(s["oracle"], s["kind"], msg, s["ops"], s.get("error", ""))


def rule_of(oracle: str, kind: str, message: str, ops: Sequence[str] = (), error: str = "") -> str:
    """:func:`rule` from a finding's oracle, kind and message (the parity and folding oracles'
    wording), else from its op types and error class."""
    if kind == "missed-optimization" and oracle == "parity":
        behind = _BEHIND.search(message)
        if behind:  # one cause per barrier: whatever pattern it cut, the question is whether the pass removes it
            return f"behind [{behind.group(1)}] the pass kept"
        kept = _KEPT.findall(message)
        new = _NEW.search(message)
        gained = sorted(_ops(new.group(2)) ^ _ops(new.group(4))) if new else []
        if kept or gained:
            names = sorted({op for op, _, _ in kept})
            # the shrunk pair's forms are 'common'/'uncommon'; an unshrunk record names the rewrite's form
            side = {"common" if k == "common" else "uncommon" for _, _, k in kept}
            text = f"kept [{', '.join(names)}] in {'/'.join(sorted(side))}" if names else "no op kept back"
            return text + (f"; gained elsewhere [{', '.join(gained)}]" if gained else "")
    if kind == "missed-optimization" and oracle == "folding":
        m = _FOLD.match(message)
        if m:
            return f"{m.group(1)} not folded"
    return f"ops {','.join(ops) or '-'}" + (f"; {error}" if error else "")


def behind(text: str) -> bool:
    """Whether a rule (:func:`rule_of`) is a barrier's (``behind [...] the pass kept``): such causes are listed after
    the others, which a fusion or fold missed with nothing the pass kept in its way."""
    return text.startswith("behind [")


@dataclasses.dataclass
class Group:
    """One root cause: its key, the signature keys in it (hunt order) and their records."""

    pass_id: str
    oracle: str
    kind: str
    rule: str
    keys: list[str]
    records: list[Mapping[str, Any]]

    @property
    def passes(self) -> list[str]:
        """The pass ids of its signatures (several for a family such as ``ort-transformers:*``), sorted."""
        return sorted({r["signature"]["pass_id"] for r in self.records})

    @property
    def label(self) -> str:
        """The pass column: the one pass id its signatures name, or the family and its members,
        ``ort-transformers:* (bert, vit)``, ``ort:level (ort:all, ort:extended)``."""
        if len(self.passes) == 1:
            return self.passes[0]
        prefix = self.pass_id.rstrip("*")
        return f"{self.pass_id} ({', '.join(p.removeprefix(prefix) for p in self.passes)})"

    @property
    def rewrites(self) -> list[str]:
        return sorted({r["signature"]["rewrite"] or "-" for r in self.records})

    @property
    def hits(self) -> int:
        return sum(r.get("hits", 0) for r in self.records)

    def smallest(self) -> str:
        """The key of the signature with the smallest saved pair (else the first)."""
        shrunk = [(k, r) for k, r in zip(self.keys, self.records) if r.get("repro") and r.get("nodes")]
        return min(shrunk, key=lambda kr: sum(kr[1]["nodes"]))[0] if shrunk else self.keys[0]


#: The annotations oracle's words naming the value whose declared type or shape does not hold.
_ANNOTATED = re.compile(r"^annotation does not hold \(binding \d+\): ([^:\s]+): ")


def _item(rec: Mapping[str, Any]) -> tuple:
    fo = rec.get("found_on") or {}
    return (fo.get("base"), fo.get("form"), fo.get("pass"))


def _changed_outputs(signatures: Mapping[str, Mapping[str, Any]]) -> dict[tuple, str]:
    """(item, output) → the key of the ``numeric`` signature saying the pass changed that output's shape or type."""
    from passcheck.report.rootcause import wrong_shape

    out: dict[tuple, str] = {}
    for k, rec in signatures.items():
        s = rec["signature"]
        v = wrong_shape(s["oracle"], s["kind"], rec.get("message") or "")
        if v is not None and rec.get("found_on"):
            out.setdefault((*_item(rec), v), k)
    return out


def _explained_by(rec: Mapping[str, Any], changed: Mapping[tuple, str]) -> str | None:
    """The key of the wrong-shape signature an ``annotation-violated`` record is the other view of, else None."""
    from passcheck.oracles.annotations import RUNTIME_DEVIATES

    msg = rec.get("message") or ""
    m = _ANNOTATED.match(msg) if rec["signature"]["kind"] == "annotation-violated" else None
    if m is None or RUNTIME_DEVIATES in msg or not rec.get("found_on"):
        return None
    return changed.get((*_item(rec), m.group(1)))


def group(signatures: Mapping[str, Mapping[str, Any]]) -> list[Group]:
    """``signatures`` (a hunt state's) by root cause, the group with the most signatures first (then hunt order),
    barrier causes (:func:`behind`) after every other."""
    from passcheck.report.rootcause import pass_family

    changed = _changed_outputs(signatures)
    out: dict[tuple, Group] = {}
    for k, rec in signatures.items():
        s = rec["signature"]
        if (by := _explained_by(rec, changed)) is not None:
            s, rec_of = signatures[by]["signature"], signatures[by]
        else:
            rec_of = rec
        key = (pass_family(s["pass_id"]), s["oracle"], s["kind"], rule(rec_of))
        g = out.setdefault(key, Group(*key, [], []))
        g.keys.append(k)
        g.records.append(rec)
    return sorted(out.values(), key=lambda g: (behind(g.rule), -len(g.keys)))
