"""A signature baseline: the signatures a nightly hunt already knows, so it reports only new ones.

Format (JSON, written by ``passcheck hunt --write-baseline`` and ``passcheck merge --write-baseline``)::

    {"passcheck": "hunt-signatures", "version": 1,
     "signatures": [{"key": "<Signature.key>", "signature": {...Signature.to_json()...},
                     "reason": "...", "case": "hunt/<...>"}]}

An entry is matched by the key of its ``signature`` (:class:`passcheck.signature.Signature`, the one
answer to "is this the same bug?"); ``key`` is there for people and ``grep``; an entry with only a
``key`` is matched by it. An entry an older passcheck wrote in another spelling (a crash keyed by its op
types and bare error class) is matched through the signature's ``aliases``, and rewriting the file
writes today's spelling in its place, with its reason. ``reason`` and ``case`` are free text kept across
rewrites of the file.

A pass that runs another whole as its first step (:attr:`passcheck.passes.PassAdapter.steps`: an
``ort:<level>+<key>=<value>`` pass is ``ort:<level>`` with one session config entry set) meets that step's
baseline entries too: its signature spelled with the step's pass id is known when the step's is, so a hunt of
the keyed passes against a baseline of the plain level reports only what the key adds.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from passcheck.errors import PasscheckError
from passcheck.signature import Signature

MARK = "hunt-signatures"
VERSION = 1


def load(path: str | Path) -> dict[str, dict[str, Any]]:
    """Signature key → entry of the baseline at ``path``.

    Raises:
        PasscheckError: the file is missing, not JSON, or not a signature baseline (a finding
            baseline of ``run`` / ``matrix``, ``{"known": [...]}``, is named as such).
    """
    p = Path(path)
    try:
        doc = json.loads(p.read_text(encoding="utf-8"))
    except OSError as exc:
        raise PasscheckError(f"--baseline {path}: cannot read it ({exc.strerror or exc})") from None
    except ValueError as exc:
        raise PasscheckError(f"--baseline {path}: not JSON ({exc})") from None
    if isinstance(doc, dict) and "known" in doc and "signatures" not in doc:
        raise PasscheckError(
            f"--baseline {path}: a finding baseline (run/matrix); a hunt takes a signature baseline "
            "written by 'passcheck hunt --write-baseline'"
        )
    if not isinstance(doc, dict) or doc.get("passcheck") != MARK or not isinstance(doc.get("signatures"), list):
        raise PasscheckError(
            f'--baseline {path}: not a signature baseline (expected {{"passcheck": "{MARK}", '
            "\"signatures\": [...]}}, as 'passcheck hunt --write-baseline' writes)"
        )
    out: dict[str, dict[str, Any]] = {}
    for i, e in enumerate(doc["signatures"]):
        try:
            key = Signature.from_json(e["signature"]).key if "signature" in e else str(e["key"])
        except (KeyError, TypeError) as exc:
            raise PasscheckError(f"--baseline {path}: entry {i} has no readable signature or key ({exc})") from None
        out[key] = dict(e, key=key)
    return out


def split(
    signatures: Mapping[str, Mapping[str, Any]], known: Mapping[str, Any], documented: bool = True
) -> tuple[dict, dict]:
    """``(new, known)``: a store's signatures (key → record) not in the baseline, and those in it or, with
    ``documented``, a defect the docs already record (:func:`passcheck.hunt.documented.which`: found.md /
    found-envs.md rows). The store's keys are re-derived from each record's signature, so a key written by an
    older passcheck is matched as today's :class:`Signature` spells it."""
    from passcheck.hunt.documented import which

    new: dict[str, Any] = {}
    old: dict[str, Any] = {}
    for key, rec in signatures.items():
        keys = Signature.from_json(rec["signature"]).keys if rec.get("signature") else (key,)
        seen = any(k in known for k in (*keys, *_as_steps(keys))) or (documented and which(key, rec) is not None)
        (old if seen else new)[key] = rec
    return new, old


def _as_steps(keys: tuple[str, ...]) -> list[str]:
    """``keys`` spelled with each step's pass id of their own pass (none for a pass without steps)."""
    from passcheck.hunt.documented import pass_steps

    out: list[str] = []
    for k in keys:
        head, _, rest = str(k).partition("|")
        out += [f"{step}|{rest}" for step in pass_steps(head)]
    return out


def write(
    path: str | Path,
    signatures: Mapping[str, Mapping[str, Any]],
    previous: Mapping[str, Mapping[str, Any]] | None = None,
    reason: str = "known at baseline creation",
) -> int:
    """Write ``previous`` entries (their reasons kept) and every signature of ``signatures`` (a
    store's) as a baseline at ``path`` (atomically); returns the number of entries."""
    from passcheck.report.json_report import atomic_write

    entries = {k: dict(e) for k, e in (previous or {}).items()}
    for rec in signatures.values():
        sig = Signature.from_json(rec["signature"])
        entry = {"key": sig.key, "signature": sig.to_json(), "reason": reason, "case": rec.get("case") or ""}
        for alias in sig.aliases:  # an entry an older passcheck spelled otherwise: today's spelling, its reason
            if (was := entries.pop(alias, None)) is not None:
                entry.update(reason=was.get("reason") or reason, case=was.get("case") or entry["case"])
        entries.setdefault(sig.key, entry)
    doc = {"passcheck": MARK, "version": VERSION, "signatures": sorted(entries.values(), key=lambda e: e["key"])}
    try:
        atomic_write(Path(path), json.dumps(doc, indent=1) + "\n")
    except OSError as exc:
        raise PasscheckError(f"--write-baseline {path}: cannot write it ({exc.strerror or exc})") from None
    return len(entries)
