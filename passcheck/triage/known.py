"""Known upstream reports: ``known_upstream.json`` (shipped beside this module), consulted so that a
candidate reads "known: <link>" or "new".

An entry: ``tool``, ``match`` (every field given must hold for one finding of the candidate:
``pass`` a glob of the pass id, ``oracle``, ``kind``, ``ops_any`` op types of which the finding
names at least one — ``kept_op_types`` or ``op_type`` in its details —, ``form`` globs of the form,
``message`` a regular expression searched in the message and the error), ``link``, ``title``,
``state`` (``open``, ``fixed`` …), ``fixed_in`` (``"<package> <version>"``, the first release without
it, or null), ``library`` (the built-in ``case`` and ``pass`` that exhibit it, which a test runs) and
optionally ``source`` (where passcheck met it) and ``repro`` (a command showing it with the tool alone).
"""

from __future__ import annotations

import fnmatch
import json
import re
from functools import cache
from pathlib import Path
from typing import Any

from passcheck.records import Finding
from passcheck.signature import named_ops

PATH = Path(__file__).with_name("known_upstream.json")


@cache
def entries() -> tuple[dict[str, Any], ...]:
    """The shipped entries, in file order."""
    return tuple(json.loads(PATH.read_text(encoding="utf-8"))["reports"])


def matches(entry: dict[str, Any], f: Finding, tool: str) -> bool:
    """Whether ``f`` (of ``tool``) is what ``entry`` reports (see the module docs)."""
    m = entry["match"]
    if entry["tool"] != tool:
        return False
    if "pass" in m and not fnmatch.fnmatchcase(f.pass_id, m["pass"]):
        return False
    if any(k in m and m[k] != getattr(f, k) for k in ("oracle", "kind")):
        return False
    if "ops_any" in m and not named_ops(f) & set(m["ops_any"]):
        return False
    if "form" in m and not any(fnmatch.fnmatchcase(f.form, g) for g in m["form"]):
        return False
    text = f"{f.message}\n{(f.details or {}).get('error') or ''}"
    return "message" not in m or re.search(m["message"], text) is not None


def known(findings: list[Finding], tool: str) -> dict[str, Any] | None:
    """The first entry one of ``findings`` matches, or None (the candidate is new)."""
    return next((e for e in entries() for f in findings if matches(e, f, tool)), None)


def phrase(entry: dict[str, Any] | None) -> str:
    """``known: <link> (state[, fixed in X])`` or ``new``."""
    if entry is None:
        return "new"
    fixed = f", fixed in {entry['fixed_in']}" if entry.get("fixed_in") else ""
    return f"known: {entry['link']} ({entry['state']}{fixed})"
