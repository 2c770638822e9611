"""Known findings: a baseline file turns them into expected ones, so CI passes on a known bug
and fails on a new one.

Format (JSON): ``{"known": [{"id": "<finding id or glob>", "reason": "...", "link": "..."}]}``.
Finding ids look like ``case:form|pass|oracle|kind`` (see Finding.id); ``*`` globs are allowed.
"""

from __future__ import annotations

import dataclasses
import fnmatch
import json
from collections.abc import Iterable
from pathlib import Path

from passcheck.errors import PasscheckError
from passcheck.records import CellResult, Finding


@dataclasses.dataclass(frozen=True)
class Known:
    id: str
    reason: str
    link: str = ""


def load(path: str | Path) -> list[Known]:
    """Read a baseline file.

    Raises:
        PasscheckError: missing file, bad JSON, or an entry without ``id`` / ``reason``.
    """
    p = Path(path)
    try:
        doc = json.loads(p.read_text(encoding="utf-8"))
    except OSError as exc:
        raise PasscheckError(f"{p}: cannot read baseline: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise PasscheckError(f"{p}: baseline is not a text (JSON) file") from None
    except json.JSONDecodeError as exc:
        raise PasscheckError(f"{p}: baseline is not valid JSON (line {exc.lineno}: {exc.msg})") from None
    entries = doc.get("known") if isinstance(doc, dict) else None
    if not isinstance(entries, list):
        raise PasscheckError(f'{p}: baseline must be {{"known": [{{"id": ..., "reason": ...}}]}}')
    out = []
    for i, e in enumerate(entries):
        if not isinstance(e, dict) or not e.get("id") or not e.get("reason"):
            raise PasscheckError(f"{p}: entry {i} needs an 'id' and a 'reason'")
        out.append(Known(e["id"], e["reason"], e.get("link", "")))
    return out


def apply(cells: Iterable[CellResult], known: list[Known]) -> list[Known]:
    """Mark findings matched by ``known`` as expected; return entries that matched nothing
    among the cells that ran (fixed, or not reached)."""
    used: set[int] = set()
    for cell in cells:
        for f in cell.findings:
            for i, k in enumerate(known):
                if f.id == k.id or fnmatch.fnmatchcase(f.id, k.id):
                    f.expected, f.reason = True, k.reason + (f" ({k.link})" if k.link else "")
                    used.add(i)
                    break
    return [k for i, k in enumerate(known) if i not in used]


def from_findings(findings: Iterable[Finding], reason: str = "known at baseline creation") -> str:
    """A baseline file's text listing ``findings`` (to accept the current state)."""
    ids = sorted({f.id for f in findings})
    return json.dumps({"known": [{"id": i, "reason": reason} for i in ids]}, indent=1) + "\n"
