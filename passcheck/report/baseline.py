"""Known findings: a baseline file turns them into expected ones, so CI passes on a known bug
and fails on a new one.

Format (JSON)::

    {"known": [{"id": "<finding id or glob>", "reason": "...", "link": "...", "envs": ["onnx-1.18"]}]}

Finding ids look like ``case:form|pass|oracle|kind`` (see Finding.id); ``*`` globs are allowed.
A cell whose parts could not be checked (verdict ``unchecked``) is named
``case:form|pass|unchecked|unchecked`` (see CellResult.unchecked_id): an entry with that id accepts
its unchecked parts, with the reason, as it accepts a known finding.
``envs`` (optional) limits an entry to findings of those environment ids (``passcheck matrix``
columns; ``run`` / ``check`` findings are in env ``local``); absent means every environment.
Files without ``envs`` (every baseline written before environments existed) load unchanged.
"""

from __future__ import annotations

import dataclasses
import fnmatch
import json
from collections.abc import Iterable, Sequence
from pathlib import Path

from passcheck.errors import PasscheckError
from passcheck.records import CellResult, Finding


@dataclasses.dataclass(frozen=True)
class Known:
    """One baseline entry; ``envs`` None means every environment."""

    id: str
    reason: str
    link: str = ""
    envs: tuple[str, ...] | None = None

    def matches(self, f: Finding) -> bool:
        return self.matches_id(f.id, f.env)

    def matches_id(self, item_id: str, env: str) -> bool:
        return (self.envs is None or env in self.envs) and (item_id == self.id or fnmatch.fnmatchcase(item_id, self.id))

    def matches_cell(self, cell: CellResult) -> bool:
        """A finding of ``cell``, or its unchecked parts, is what this entry names."""
        return (
            any(self.matches(f) for f in cell.findings)
            or bool(cell.unchecked)
            and self.matches_id(cell.unchecked_id, cell.env)
        )

    def covers_cell(self, cell: CellResult) -> bool:
        """Whether ``cell`` (case, form, pass) is one this entry's id can name, whatever its findings."""
        head = "|".join(self.id.split("|")[:2]) if self.id.count("|") >= 2 else self.id
        return fnmatch.fnmatchcase(f"{cell.case}:{cell.form}|{cell.pass_id}", head)


def load(path: str | Path) -> list[Known]:
    """Read a baseline file.

    Raises:
        PasscheckError: missing file, bad JSON, an entry without ``id`` / ``reason``, or an
            ``envs`` that is not a non-empty list of environment ids.
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
        envs = e.get("envs")
        if envs is not None and (
            not isinstance(envs, list) or not envs or not all(isinstance(x, str) and x for x in envs)
        ):
            raise PasscheckError(f"{p}: entry {i} ({e['id']}): 'envs' must be a non-empty list of environment ids")
        out.append(Known(e["id"], e["reason"], e.get("link", ""), tuple(envs) if envs is not None else None))
    return out


def apply(cells: Iterable[CellResult], known: list[Known]) -> list[Known]:
    """Mark findings matched by ``known`` (id and environment) as expected; return entries that
    matched nothing among the cells that ran (fixed, or not reached)."""
    used: set[int] = set()
    for cell in cells:
        for f in cell.findings:
            for i, k in enumerate(known):
                if k.matches(f):
                    f.expected, f.reason = True, _reason(k)
                    used.add(i)
                    break
        if cell.unchecked:
            for i, k in enumerate(known):
                if k.matches_id(cell.unchecked_id, cell.env):
                    cell.unchecked_known = _reason(k)
                    used.add(i)
                    break
    return [k for i, k in enumerate(known) if i not in used]


def _reason(k: Known) -> str:
    return k.reason + (f" ({k.link})" if k.link else "")


def reset(cells: Iterable[CellResult]) -> None:
    """Forget earlier baseline matches (before applying another baseline to loaded results)."""
    for c in cells:
        c.unchecked_known = ""
        for f in c.findings:
            f.expected, f.reason = False, ""


@dataclasses.dataclass(frozen=True)
class EntryStatus:
    """Where one entry still occurs, where it is fixed (its cells ran, no matching finding)
    and where it was not run, among its environments (or every environment of the run)."""

    entry: Known
    occurs: tuple[str, ...]
    fixed: tuple[str, ...]
    not_run: tuple[str, ...]
    #: whether the run could have seen the entry: one of its cells (any status) is one the entry
    #: names, in one of the entry's environments. An entry outside a subset run's selection is not news.
    in_selection: bool = True

    def to_json(self) -> dict:
        return {
            "id": self.entry.id,
            "envs": list(self.entry.envs) if self.entry.envs else None,
            "occurs": list(self.occurs),
            "fixed": list(self.fixed),
            "not_run": list(self.not_run),
            "in_selection": self.in_selection,
        }


def status(cells: Sequence[CellResult], known: Sequence[Known], environments: Sequence[str]) -> list[EntryStatus]:
    """Per entry, the environments (its ``envs``, else ``environments``) where a matching
    finding occurs, where a cell it names ran without one (fixed), and where none ran.
    A skipped or unavailable cell does not count as run; an entry no cell of ``cells`` names in
    its environments is outside the run's selection (``in_selection`` False)."""
    out = []
    for k in known:
        envs = list(k.envs) if k.envs is not None else list(environments)
        occurs, ran, selected = set(), set(), False
        for c in cells:
            if c.env not in envs or not k.covers_cell(c):
                continue
            selected = True
            if c.status in ("skipped", "unavailable"):
                continue
            ran.add(c.env)
            if k.matches_cell(c):
                occurs.add(c.env)
        out.append(
            EntryStatus(
                k,
                tuple(e for e in envs if e in occurs),
                tuple(e for e in envs if e in ran - occurs),
                tuple(e for e in envs if e not in ran),
                selected,
            )
        )
    return out


def from_cells(
    cells: Iterable[CellResult],
    reason: str = "known at baseline creation",
    environments: Sequence[str] | None = None,
    previous: Sequence[Known] = (),
) -> str:
    """A baseline file's text accepting the current state of ``cells``: every finding, and the
    unchecked parts of every cell that has some (see :func:`from_findings`)."""
    cells = list(cells)
    return from_findings(
        (f for c in cells for f in c.findings),
        reason,
        environments,
        unchecked=[c for c in cells if c.unchecked],
        previous=previous,
    )


def previous_entries(path: str | Path) -> list[Known]:
    """The entries of the baseline already at ``path`` (their reasons are kept when it is
    rewritten), or none when there is no readable baseline there."""
    try:
        return load(path) if Path(path).is_file() else []
    except PasscheckError:
        return []


def from_findings(
    findings: Iterable[Finding],
    reason: str = "known at baseline creation",
    environments: Sequence[str] | None = None,
    unchecked: Iterable[CellResult] = (),
    previous: Sequence[Known] = (),
) -> str:
    """A baseline file's text listing ``findings`` and the ``unchecked`` cells' parts (to accept
    the current state).

    With ``environments`` (a matrix's environment ids), each entry lists the ``envs`` where its
    id occurs, and has no ``envs`` (every environment) when it occurs in all of them. An id that
    an entry of ``previous`` (the file being rewritten) names exactly keeps that entry's reason
    and link; others get ``reason``.
    """
    kept = {k.id: k for k in previous}
    where: dict[str, set[str]] = {}
    for f in findings:
        where.setdefault(f.id, set()).add(f.env)
    for c in unchecked:
        where.setdefault(c.unchecked_id, set()).add(c.env)
    entries = []
    for i in sorted(where):
        e: dict = {"id": i, "reason": kept[i].reason if i in kept else reason}
        if i in kept and kept[i].link:
            e["link"] = kept[i].link
        if environments is not None and not set(environments) <= where[i]:
            e["envs"] = [x for x in environments if x in where[i]] + sorted(where[i] - set(environments))
        entries.append(e)
    return json.dumps({"known": entries}, indent=1) + "\n"
