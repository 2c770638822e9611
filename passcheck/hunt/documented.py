"""Defects the project already documented (docs/found.md, docs/found-envs.md), as the hunt recognises them.

``documented.json`` (shipped beside this module) is the one machine-readable record of which documented row is
which hunt signature; the docs stay prose and cite the shrunk pair's case (``hunt_<digest>.py`` /
``hunt/<…>-<digest>``), whose digest is :attr:`passcheck.signature.Signature.case_id`'s: the first 8 hex digits
of the sha256 of the signature's key. A test holds the two together (every digest a row cites is in the file
under that row, every row the file names is in its doc).

An entry: ``doc`` (``found.md`` …), ``row`` (its ``#`` column), ``section`` (the ``##`` heading above it, ``""``
for the triage table; only where the doc numbers rows anew per section), ``title``, ``digests`` (the digests the row
cites), optionally ``keys`` (full :attr:`~passcheck.signature.Signature.key` spellings, from a hunt state kept in
the repository) and ``cases`` (``hunt/env-<digest>`` ids of ``hunt --env`` pairs, which name an item, not a
signature) and optionally ``match`` (a rule a signature and its message meet whatever the rewrite: :func:`matches`;
or a list of such rules, one per way the defect shows: a wrong shape is a ``numeric`` and an ``annotations``
finding of one row).
A hunt signature is *documented* when one of its keys (today's spelling and its ``aliases``), its
key's digest, its record's ``case`` or the digest that case ends with is an entry's, or it meets an entry's ``match``:
:func:`baseline.split
<passcheck.hunt.baseline.split>` then counts it known, and the hunt's summary says ``known (found.md row N)``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from passcheck.signature import Signature

PATH = Path(__file__).with_name("documented.json")
MARK = "documented-signatures"


@cache
def entries() -> tuple[dict[str, Any], ...]:
    """The shipped entries, in file order."""
    doc = json.loads(PATH.read_text(encoding="utf-8"))
    assert doc.get("passcheck") == MARK, PATH
    return tuple(doc["defects"])


@cache
def _index() -> dict[str, dict[str, Any]]:
    """Key or digest → the first entry naming it."""
    out: dict[str, dict[str, Any]] = {}
    for e in entries():
        for k in [*e.get("keys", ()), *e.get("digests", ()), *e.get("cases", ())]:
            out.setdefault(k, e)
    return out


def digest(key: str) -> str:
    """The 8 hex digits a signature's key is cited by (:attr:`Signature.case_id`'s suffix)."""
    return hashlib.sha256(key.encode()).hexdigest()[:8]


def which(key: str, rec: Mapping[str, Any]) -> dict[str, Any] | None:
    """The documented entry the hunt signature ``key`` (its store record ``rec``) is, or None (module docs). A pass
    that runs another whole, first, on the model it is given (:attr:`~passcheck.passes.PassAdapter.steps`: e.g.
    ``quant_pre_process`` starts with symbolic shape inference) meets that step's entries too, its signature
    spelled with the step's pass id: the same exception at the same site, or the same rule, is the step's defect."""
    found = _which(key, rec)
    for step in () if found is not None else _steps(key.split("|", 1)[0]):
        found = _which(*_as_step(key, rec, step))
        if found is not None:
            break
    return found


def pass_steps(pass_id: str) -> tuple[str, ...]:
    """The pass ids ``pass_id`` runs whole as its first step (``PassAdapter.steps``; () for an unknown id)."""
    return _steps(pass_id)


@cache
def _steps(pass_id: str) -> tuple[str, ...]:
    """The passes ``pass_id`` runs whole as its first step (none for an id no registry knows)."""
    from passcheck.errors import PasscheckError
    from passcheck.passes import get_pass

    try:
        return tuple(get_pass(pass_id).steps)
    except PasscheckError:
        return ()


def _as_step(key: str, rec: Mapping[str, Any], step: str) -> tuple[str, dict[str, Any]]:
    """``key`` and ``rec`` with the pass id ``step`` in every spelling (the case, named by the other key, left out)."""

    def swap(k: str) -> str:
        return "|".join([step, *str(k).split("|")[1:]])

    out = {k: v for k, v in rec.items() if k != "case"}
    if sig := rec.get("signature"):
        out["signature"] = {**sig, "pass_id": step, "aliases": [swap(a) for a in sig.get("aliases") or ()]}
    return swap(key), out


def _which(key: str, rec: Mapping[str, Any]) -> dict[str, Any] | None:
    """:func:`which` for the signature's own pass id."""
    index = _index()
    keys = Signature.from_json(rec["signature"]).keys if rec.get("signature") else (key,)
    names = [*keys, *(digest(k) for k in keys)]
    case = str(rec.get("case") or "")
    names += [case, case[-8:]] if len(case) > 8 and case[-9] == "-" else [case]
    found = next((index[n] for n in names if n in index), None)
    if found is None and rec.get("signature"):
        message = str(rec.get("message") or (rec.get("found_on") or {}).get("message") or "")
        found = next((e for e in entries() if any(matches(r, rec["signature"], message) for r in rules(e))), None)
    return found


def rules(entry: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """An entry's ``match`` rules: none, the one given, or each of a list."""
    rule = entry.get("match")
    return [] if rule is None else list(rule) if isinstance(rule, list) else [rule]


def matches(rule: Mapping[str, Any], signature: Mapping[str, Any], message: str) -> bool:
    """Whether a signature (:meth:`Signature.to_json`) and its finding's ``message`` meet an entry's ``match``: every
    field given holds (``pass`` a glob of the pass id, ``oracle``, ``kind``, ``ops_all`` op types the signature names
    all of, with those its ``aliases`` name: a crash's or a refusal's key names no op, its older key did; ``message``
    a regular expression searched in the message). The rewrite is not part of it, save where a row's defect *is* a
    spelling's meaning (``rewrite``, a glob one ``>``-separated step of the signature's rewrite meets: a fed
    overridable default, ``vary:default-fed``, is IR.md's "default value for that input", which rows 450 and 1277
    treat as a constant; their findings carry no words of their own): a defect the docs record is otherwise the same
    whichever spelling or neighbour reaches it, when the pass, the finding and the tool's own words agree. ``error``
    is a regular expression searched in the signature's error slot, which for a crash ends with the innermost frame
    of the tool's package (``KeyError: '…' @ onnxconverter_common:const_folding_optimizer``,
    :func:`~passcheck.signature.crash_error`): two defects of one tool whose exception words are the same (a bare
    ``IndexError: list index out of range``) are told apart by the function that raised it."""
    import fnmatch
    import re

    if "pass" in rule and not fnmatch.fnmatchcase(str(signature.get("pass_id", "")), rule["pass"]):
        return False
    if any(k in rule and rule[k] != signature.get(k) for k in ("oracle", "kind")):
        return False
    if not set(rule.get("ops_all", ())) <= _ops(signature):
        return False
    steps = str(signature.get("rewrite") or "").split(">")
    if "rewrite" in rule and not any(fnmatch.fnmatchcase(s.split("@", 1)[0], rule["rewrite"]) for s in steps):
        return False
    if "error" in rule and re.search(rule["error"], str(signature.get("error") or "")) is None:
        return False
    return "message" not in rule or re.search(rule["message"], message) is not None


def _ops(signature: Mapping[str, Any]) -> set[str]:
    """The op types a signature names, and those its older spellings (``aliases``, keys whose fourth field is the op
    types) named."""
    ops = set(signature.get("ops") or ())
    for alias in signature.get("aliases") or ():
        fields = str(alias).split("|")
        ops.update(o for o in (fields[3].split(",") if len(fields) > 3 else ()) if o)
    return ops


def label(entry: Mapping[str, Any]) -> str:
    """``found.md row 430``: where a documented entry is written; where the doc numbers rows anew per section
    (the entry's ``section``), the section too: ``found.md row 10 (triage table)``, ``found.md row 10
    (§ 2026-12-02: hunts on every installed pass)``."""
    where = f"{entry['doc']} row {entry['row']}"
    if "section" not in entry:
        return where
    section = entry["section"].split(" (written by hand")[0]
    return f"{where} ({f'§ {section}' if section else 'triage table'})"


def of_findings(
    findings: Iterable[Any], records: Mapping[str, Iterable[tuple[str, Mapping[str, Any]]]] | None = None
) -> dict[str, Any] | None:
    """The documented entry a triage candidate's findings (:class:`~passcheck.records.Finding`) stand for, or None:
    a finding on a hunt's saved pair (its case is the pair's ``hunt/<…>-<digest>`` or ``hunt/env-<id>``), or a
    hunt signature that kept no pair (its ``details["signature"]`` the key). A saved pair shows every finding of
    its two forms, so an entry the pair names stands for a finding only where :func:`_agrees` (another finding on
    the pair, e.g. a ``pass-contract input-mutated`` beside the row's ``description-dropped``, is then looked up by
    the rules, with its own pass, oracle, kind and message).

    ``records``: a hunt pair's case id → the (signature key, store record) pairs the hunts the findings come from
    saved it for; a finding on such a pair is judged by :func:`which` on those records, as the hunt's summary
    judged them (their ``match`` rules included, which a case digest alone never reaches)."""
    for f in findings:
        key = str((f.details or {}).get("signature") or "")
        if key or f.case.startswith("hunt/"):
            held = [*(records or {}).get(f.case, ()), (key, {"case": f.case})]
            for k, rec in held:
                entry = which(k, rec)
                if entry is not None and ((key and k == key) or _agrees(entry, f)):
                    return entry
            own = {"pass_id": f.pass_id, "oracle": f.oracle, "kind": f.kind}
            entry = next((e for e in entries() if any(matches(r, own, f.message) for r in rules(e))), None)
            if entry is not None:
                return entry
    return None


def _agrees(entry: Mapping[str, Any], finding: Any) -> bool:
    """Whether ``finding``'s pass, oracle and kind are those of one of ``entry``'s ``keys`` (their first three
    fields) or meet one of its rules' ``pass`` / ``oracle`` / ``kind``; an entry that names neither (digests only)
    cannot say, and agrees."""
    head = (finding.pass_id, finding.oracle, finding.kind)
    keys = [tuple(str(k).split("|")[:3]) for k in entry.get("keys", ())]
    own = {"pass_id": finding.pass_id, "oracle": finding.oracle, "kind": finding.kind}
    heads = [{k: v for k, v in r.items() if k in ("pass", "oracle", "kind")} for r in rules(entry)]
    if not keys and not heads:
        return True
    return head in keys or any(matches(r, own, "") for r in heads)
