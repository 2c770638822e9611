"""What ``passcheck triage`` reads: ``run --json`` reports (a JSON document or a JSON-lines stream),
``--save-run`` folders (judged again with today's oracles, :func:`passcheck.saved_runs.rejudge`)
and hunt folders (``hunt-state.json`` and ``cases/``: each saved pair's case is run again under its
pass, so its findings carry the details a reproducer needs).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from pathlib import Path

from passcheck.errors import PasscheckError
from passcheck.records import CellResult, Finding

#: What a path must be, said in every refusal.
WHAT = "a 'run --json' report, a --save-run folder or a hunt folder"


@dataclasses.dataclass
class Loaded:
    """Cells to triage and what rebuilding their forms needs.

    Attributes:
        cells: every cell read, in input order.
        cases_from: case module files the cells' cases come from (hunt pairs).
        refused: finding id → why no reproducer can be written for it (a hunt signature whose pair
            was not kept).
        hunts: hunt folders whose pairs are still to be run (see :func:`run_hunts`).
        origins: a hunt pair's case id → the base case it was found on (``found_on.base``): pairs shrunk from
            one base are one computation to :func:`passcheck.triage.candidates.grouping_text`.
        records: a hunt pair's case id → (signature key, the hunt state's record of it) per signature saved there: what
            :func:`passcheck.hunt.documented.of_findings` judges a pair's findings by, as the hunt did.
    """

    cells: list[CellResult] = dataclasses.field(default_factory=list)
    cases_from: list[str] = dataclasses.field(default_factory=list)
    refused: dict[str, str] = dataclasses.field(default_factory=dict)
    hunts: list[Path] = dataclasses.field(default_factory=list)
    origins: dict[str, str] = dataclasses.field(default_factory=dict)
    records: dict[str, list[tuple[str, dict]]] = dataclasses.field(default_factory=dict)


def kind_of(path: str | Path) -> str:
    """``hunt``, ``saved-run`` or ``report`` for ``path``.

    Raises:
        PasscheckError: it does not exist, or is a folder holding neither a hunt nor a saved run.
    """
    from passcheck.hunt.store import STATE
    from passcheck.saved_runs import LINES

    p = Path(path)
    if p.is_dir():
        if (p / STATE).is_file():
            return "hunt"
        if (p / LINES).is_file():
            return "saved-run"
        raise PasscheckError(f"{p}: not a run: the folder holds neither {STATE} nor {LINES} ({WHAT} expected)")
    if not p.is_file():
        raise PasscheckError(f"{p}: no such file or folder ({WHAT} expected)")
    return "saved-run" if p.name == LINES else "report"


def load(paths: Sequence[str | Path]) -> Loaded:
    """Read every path (hunt pairs are only listed; :func:`run_hunts` runs them).

    Raises:
        PasscheckError: a path is not one of :data:`WHAT`, or holds no cell.
    """
    from passcheck.report.json_report import read_report
    from passcheck.saved_runs import rejudge

    kinds = [(Path(p), kind_of(p)) for p in paths]  # every path is checked before any is read
    out = Loaded()
    for p, kind in kinds:
        if kind == "hunt":
            _hunt_state(p)
            out.hunts.append(p)
            continue
        try:
            cells = rejudge(p) if kind == "saved-run" else read_report(p)[0]
        except PasscheckError as exc:
            raise PasscheckError(f"{p}: not a run: {str(exc).removeprefix(f'{p}: ')}") from None
        if not cells:
            raise PasscheckError(f"{p}: not a run: it holds no result cell ({WHAT} expected)")
        out.cells += cells
    return out


def _hunt_state(folder: Path) -> dict:
    from passcheck.hunt.store import STATE, VERSION

    try:
        doc = json.loads((folder / STATE).read_text(encoding="utf-8"))
        if doc.get("version") != VERSION or not isinstance(doc.get("signatures"), dict):
            raise ValueError(f"version {doc.get('version')!r}, this passcheck reads {VERSION}")
    except (OSError, ValueError, AttributeError) as exc:
        raise PasscheckError(f"{folder / STATE}: not a readable hunt state ({exc})") from None
    return doc


def run_hunts(loaded: Loaded, executor, cases_from: Sequence[str] = ()) -> None:
    """Run each hunt's saved pairs under the pass that showed their signature (adds their cells and
    case modules to ``loaded``); a signature whose pair was not kept becomes one finding of its own,
    refused (:attr:`Loaded.refused`). ``executor``: a :class:`~passcheck.passes.isolation.IsolatedExecutor`;
    ``cases_from``: case and pass modules to load first (the hunt's own ``--cases-from`` are too).
    A pair is run once per pass however many signatures it was saved for (a ``hunt --env`` item saves one
    pair for all its signatures). A signature its pair does not show here (a pair that no longer runs, or one
    the hunt saw in another environment: its version window) is listed, refused with why (:func:`_absent`),
    never dropped. Two hunt folders that saved a pair under one case id (the same signature found by both)
    are triaged once, from the first folder's pair.

    Raises:
        PasscheckError: a case or pass module cannot be loaded.
    """
    from passcheck._versions import tool_version
    from passcheck.cases import registry
    from passcheck.cases._registry import load_file, load_path
    from passcheck.engine import Subject, evaluate
    from passcheck.signature import Signature

    saved: dict[str, Path] = {}  # case id -> the module it was loaded from
    judged: dict[tuple[str, str], list[CellResult] | str] = {}  # (case, pass) -> its cells, or why none
    for folder in loaded.hunts:
        state = _hunt_state(folder)
        modules = [*cases_from, *((state.get("scope") or {}).get("cases_from") or [])]
        for p in dict.fromkeys(modules):
            load_path(p)
        for key, rec in state["signatures"].items():
            sig = Signature.from_json(rec["signature"])
            module = Path(rec.get("case_module") or "")
            if not rec.get("case") or not module.is_file():
                found = rec.get("found_on") or {}
                f = Finding(
                    sig.kind,
                    sig.oracle,
                    found.get("base", "hunt"),
                    found.get("form", "?"),
                    sig.pass_id,
                    found.get("message", key),
                    {"signature": key},
                )
                loaded.refused[f.id] = f"the hunt kept no pair for it ({rec.get('note') or 'no case module'})"
                loaded.cells.append(CellResult(f.case, f.form, f.pass_id, "changed", findings=[f]))
                continue
            loaded.origins.setdefault(rec["case"], str((rec.get("found_on") or {}).get("base") or rec["case"]))
            loaded.records.setdefault(rec["case"], []).append((key, rec))
            if saved.setdefault(rec["case"], module.resolve()) != module.resolve():
                continue  # another hunt folder saved a pair of this signature under this id: triaged from the first
            if (rec["case"], sig.pass_id) not in judged:
                load_file(module)  # as --cases-from loads it: rebuilding its forms later loads nothing twice
                case = registry().get(rec["case"])
                subject = Subject.from_case(case, tool_version("onnx"), [*modules, str(module.resolve())])
                try:
                    cells = evaluate(subject, [sig.pass_id], executor=executor)
                except Exception as exc:  # noqa: BLE001 - a pair that no longer runs here shows nothing
                    judged[rec["case"], sig.pass_id] = f"its pair does not run here ({type(exc).__name__}: {exc})"
                else:
                    judged[rec["case"], sig.pass_id] = cells
                    loaded.cells += cells
                    if str(module.resolve()) not in loaded.cases_from:
                        loaded.cases_from.append(str(module.resolve()))
            cells = judged[rec["case"], sig.pass_id]
            if isinstance(cells, str) or not _shows(cells, sig):
                f = _absent(rec, sig, key, cells if isinstance(cells, str) else "")
                loaded.refused[f.id] = f.details["why"]
                loaded.cells.append(CellResult(f.case, f.form, f.pass_id, "changed", findings=[f]))


def _shows(cells: Sequence[CellResult], sig) -> bool:
    """Whether a finding of ``cells`` has ``sig``'s pass, oracle and kind and is not expected."""
    return any(
        (f.pass_id, f.oracle, f.kind) == (sig.pass_id, sig.oracle, sig.kind) and not f.expected
        for c in cells
        for f in c.findings
    )


def _absent(rec: dict, sig, key: str, failed: str) -> Finding:
    """The finding a hunt recorded for signature ``key`` (the case and form of the id it wrote), for a pair that
    does not show it here; ``details["why"]`` says so: ``failed`` (the pair does not run) or the tool's version
    here, and the hunt's version window and bisect command when it judged across environments (``hunt --env``)."""
    from passcheck._versions import tool_version
    from passcheck.repro.tools import package

    found = rec.get("found_on") or {}
    recorded = str(rec.get("finding") or "")
    form = recorded.partition(":")[2].partition("|")[0] if recorded.startswith(f"{rec['case']}:") else ""
    tool = package(sig.pass_id)
    version = None if sig.pass_id.startswith("cmd:") else tool_version(tool)
    why = failed or "its saved pair does not show it " + (f"with {tool} {version}" if version else "here")
    window = rec.get("window") or {}
    if window.get("present"):
        why += f"; the hunt saw it in {', '.join(window['present'])}"
        if window.get("absent"):
            why += f", not in {', '.join(window['absent'])}"
        why += ": triage it there" + (f", or bisect: {rec['bisect']}" if rec.get("bisect") else "")
    return Finding(
        sig.kind,
        sig.oracle,
        rec["case"],
        form or found.get("form", "?"),
        sig.pass_id,
        found.get("message", key),
        {"signature": key, "why": why, "ops": list(sig.ops)},
        repro=str(rec.get("repro") or ""),
    )
