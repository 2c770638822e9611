"""The canonical report: JSON. Every other format renders these records.

Two shapes: a *stream* (JSON lines, one record per line, flushed as results arrive, so a killed
run loses nothing) and a *report* (one JSON document, written atomically).
"""

from __future__ import annotations

import dataclasses
import json
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from passcheck.errors import PasscheckError
from passcheck.records import SCHEMA_VERSION, CellResult
from passcheck.report import rootcause
from passcheck.report.summary import unavailable_reasons


def atomic_write(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file and a rename (never half-written);
    ``"-"`` means standard output. A path that exists and is not a regular file (``/dev/null``, a
    FIFO, ``/dev/stdout``) is written in place: a rename would replace the device or pipe by a file."""
    if str(path) == "-":
        import sys

        sys.stdout.write(text)
        sys.stdout.flush()
        return
    p = Path(path)
    if p.exists() and not p.is_file() and not p.is_dir():
        with open(p, "w", encoding="utf-8") as f:
            f.write(text)
        return
    p.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", dir=p.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes 0600; a report is an ordinary file
        os.replace(tmp, p)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def report_dict(cells: Iterable[CellResult], environments: dict[str, dict[str, Any]], **meta: Any) -> dict[str, Any]:
    cells = list(cells)
    verdicts: dict[str, int] = {}
    for c in cells:
        verdicts[c.verdict] = verdicts.get(c.verdict, 0) + 1
    return {
        "schema_version": SCHEMA_VERSION,
        "environments": environments,
        "summary": {
            "cells": len(cells),
            "verdicts": verdicts,
            "findings": sum(len(c.findings) for c in cells),
            "unexpected": sum(1 for c in cells for f in c.findings if not f.expected),
            **rootcause.count(cells),
            "unavailable": unavailable_reasons(cells),
        },
        **meta,
        "root_causes": [rc.to_json() for rc in rootcause.root_causes(cells)],
        "results": [c.to_json() for c in cells],
    }


def write_report(
    path: str | Path, cells: Iterable[CellResult], environments: dict[str, dict[str, Any]], **meta: Any
) -> None:
    atomic_write(path, json.dumps(report_dict(cells, environments, **meta), indent=1, default=str) + "\n")


def read_report(path: str | Path) -> tuple[list[CellResult], dict[str, Any]]:
    """Read a report (JSON document) or a stream (JSON lines); torn last lines are ignored.

    Raises:
        PasscheckError: the file is missing, is neither shape (a JSON document cut short included),
            or holds a record that is not a cell as :meth:`CellResult.to_json` writes it.
    """
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise PasscheckError(f"{p}: cannot read report: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise PasscheckError(f"{p}: not a passcheck report (not text)") from None
    broken = None
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        doc, broken = None, exc
    if isinstance(doc, dict) and "results" in doc:
        results, envs = doc["results"], doc.get("environments", {})
        if not isinstance(results, list) or not isinstance(envs, dict):
            raise PasscheckError(f"{p}: not a passcheck report ('results' is not a list of cells)")
        return [_cell(r, p, f"results[{i}]") for i, r in enumerate(results)], envs
    cells, envs = {}, {}
    for number, line in enumerate(text.splitlines(), 1):
        try:
            rec = json.loads(line)
        except json.JSONDecodeError:
            continue  # a line torn by a kill
        if not isinstance(rec, dict):
            continue  # a line of a JSON document cut short
        if rec.get("type") == "cell":
            cell = _cell(rec, p, f"line {number}")
            cells[cell.key] = cell  # the last record of a cell wins, as in read_stream
        elif rec.get("type") == "environment" and isinstance(rec.get("versions"), dict):
            envs[str(rec.get("id"))] = {**rec["versions"], **({"error": rec["error"]} if rec.get("error") else {})}
    if not cells and not envs and text.strip():
        if broken is not None and text.lstrip().startswith("{") and text.count("\n") > 1:
            raise PasscheckError(
                f"{p}: not a passcheck report: a JSON document cut short ({broken.msg} at line {broken.lineno}); "
                "the file was truncated, write it again"
            )
        raise PasscheckError(f"{p}: not a passcheck report (JSON or JSON lines)")
    return list(cells.values()), envs


def _cell(record: Any, path: Path, where: str) -> CellResult:
    """``record`` read as a cell.

    Raises:
        PasscheckError: it is not a JSON object with a cell's fields (``case``, ``form``, ``pass_id``, ``status``).
    """
    try:
        if not isinstance(record, dict) or not isinstance(record.get("findings", []), list):
            raise TypeError("not a JSON object with a list of findings")
        return CellResult.from_json(record)
    except (TypeError, ValueError, AttributeError) as exc:
        raise PasscheckError(f"{path}: not a passcheck report: {where} is not a cell record ({exc})") from None


def is_partial(path: str | Path) -> bool:
    """Whether a stored JSON report says the run that wrote it was interrupted (``"partial": true``,
    written before the CLI exits 130): the cells it had not reached are missing, unchecked. A
    JSON-lines stream carries no such mark (``--resume`` completes it): False, as for an unreadable file."""
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return False
    return isinstance(doc, dict) and doc.get("partial") is True


class Stream:
    """Append-only JSON-lines log of results, flushed and fsync'ed per record.

    Record types (one JSON object per line, field ``type``):

    - ``header``: ``{"type": "header", "schema_version", "command", "selection": {...}}``, first
      line; ``selection`` is whatever identifies the work (cases, passes, model hash …) and must
      match for ``--resume``;
    - ``environment``: ``{"type": "environment", "id", "versions"}``;
    - ``cell``: a :meth:`CellResult.to_json` record, written the moment the cell is final.

    A line torn by a kill is skipped by :func:`read_report` and :func:`read_stream`; a stream
    reopened for appending first ends the torn line so new records stay whole. One writer at a
    time: the file is held with an exclusive ``flock`` while open (two ``--resume`` of one stream
    would each append the cells left to do).

    Raises:
        PasscheckError: another process holds the stream open.
    """

    def __init__(self, path: str | Path):
        import fcntl

        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._f = open(self.path, "a", encoding="utf-8")
        try:
            fcntl.flock(self._f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self._f.close()
            raise PasscheckError(
                f"{self.path}: another passcheck run is writing this stream; wait for it to end, or use another file"
            ) from None
        # a line torn by a kill is ended by the first write: a run refused on this file leaves it as it was
        self._torn = bool(self.path.stat().st_size) and not self.path.read_bytes().endswith(b"\n")

    def write(self, record: dict[str, Any]) -> None:
        self._f.write(("\n" if self._torn else "") + json.dumps(record, default=str) + "\n")
        self._torn = False
        self._f.flush()
        os.fsync(self._f.fileno())

    def header(self, command: str, selection: dict[str, Any]) -> None:
        self.write({"type": "header", "schema_version": SCHEMA_VERSION, "command": command, "selection": selection})

    def environment(self, env_id: str, versions: dict[str, Any]) -> None:
        self.write({"type": "environment", "id": env_id, "versions": versions})

    def cell(self, cell: CellResult) -> None:
        self.write(cell.to_json())

    def close(self) -> None:
        self._f.close()

    def __enter__(self) -> Stream:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


@dataclasses.dataclass
class StreamState:
    """What a stream holds: its header, environments and finished cells (last record per key wins)."""

    header: dict[str, Any] | None
    environments: dict[str, dict[str, Any]]
    cells: list[CellResult]

    def done(self) -> set[tuple[str, str, str, str]]:
        """Keys ``(case, form, pass_id, env)`` of finished cells."""
        return {c.key for c in self.cells}


def read_stream(path: str | Path) -> StreamState:
    """Read a JSON-lines stream written by :class:`Stream` (torn lines skipped).

    Raises:
        PasscheckError: the file cannot be read or holds no passcheck records.
    """
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        raise PasscheckError(f"{p}: cannot read stream: {exc.strerror}") from None
    header, envs, cells = None, {}, {}
    for line in text.splitlines():
        try:
            rec = json.loads(line)
        except json.JSONDecodeError:
            continue
        if not isinstance(rec, dict):
            continue
        kind = rec.get("type")
        if kind == "header" and header is None:
            header = rec
        elif kind == "environment":
            envs[rec.get("id")] = rec.get("versions")
        elif kind == "cell":
            try:
                cell = CellResult.from_json(rec)
            except (TypeError, KeyError, ValueError):
                continue
            cells[cell.key] = cell
    if header is None and not cells and text.strip():
        raise PasscheckError(
            f"{p}: not a passcheck stream (JSON lines with a header record); give the --stream file of an earlier run"
        )
    return StreamState(header, envs, list(cells.values()))


def canonical_order(cells: Iterable[CellResult]) -> list[CellResult]:
    """Cells sorted by (case, form, pass, env): the same order however the run was split up."""
    return sorted(cells, key=lambda c: c.key)
