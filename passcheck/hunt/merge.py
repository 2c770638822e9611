"""Join the ``--out`` folders of sharded hunts (``passcheck hunt --shard I/N``) into one state.

Every shard walks the same item sequence and runs its own steps (:mod:`.search`), so the merged
items are, step by step, the record of the shard that ran it. Signatures are de-duplicated by
:class:`passcheck.signature.Signature` (its key re-derived from each record): hits are summed,
version windows (``hunt --env``) joined, the first folder's shrunk pair is kept (its case module
copied once into ``OUT/cases``), the others' pairs are left out. Refused: folders of different
hunts (seed, passes, cases; the passes only between shards that walked as many steps, since a state
records those of its last step: :mod:`.lazymap`), a step two shards disagree on, and (unless ``allow_partial``) a
missing shard.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from passcheck.errors import PasscheckError
from passcheck.hunt.store import OTHER_SHARD, STATE, VERSION, Store
from passcheck.signature import Signature

#: Scope keys a state records for its last step (the passes of that step's map rows).
GROWING = ("passes", "pass_sets")


def is_hunt(folder: str | Path) -> bool:
    """Whether ``folder`` holds a hunt's state."""
    return (Path(folder) / STATE).is_file()


def _read(folder: Path) -> dict[str, Any]:
    try:
        doc = json.loads((folder / STATE).read_text(encoding="utf-8"))
        if doc.get("version") != VERSION:
            raise ValueError(f"version {doc.get('version')!r}, expected {VERSION}")
        doc["items"], doc["signatures"], doc["scope"]  # noqa: B018 - the keys must be there
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise PasscheckError(f"{folder / STATE}: not a readable hunt state ({exc})") from None
    return doc


def merge(dirs: Sequence[str | Path], out: str | Path, *, allow_partial: bool = False) -> tuple[Store, str]:
    """The merged state of the hunt folders ``dirs``, written to ``out`` (with the kept case
    modules), and why it is partial (``""`` when whole).

    Raises:
        PasscheckError: a folder is not a hunt; the folders are of different hunts or disagree on
            an item of the sequence; ``out`` is one of them or holds a hunt that is no merge (an
            earlier merge there is replaced); or, unless ``allow_partial``, a shard of ``1..N`` is
            missing or given twice.
    """
    folders = [Path(d) for d in dirs]
    if Path(out).resolve() in {f.resolve() for f in folders}:
        raise PasscheckError(f"--out {out}: is one of the folders merged; choose a new folder")
    if is_hunt(out):  # an earlier merge is replaced (its pairs too); a hunt's own state never
        if "merged" not in _read(Path(out))["scope"]:
            raise PasscheckError(f"--out {out}: holds a hunt (not a merge); choose another folder")
        shutil.rmtree(Path(out) / "cases", ignore_errors=True)
    docs = []
    for f in folders:
        if not is_hunt(f):
            raise PasscheckError(f"{f}: no {STATE}; give the --out folders of 'passcheck hunt'")
        docs.append(_read(f))
    # the passes a state records are its last step's (the coverage map grows with the steps, .lazymap):
    # compared between shards that walked as many steps; the merged state takes the longest walk's
    longest = max(docs, key=lambda d: len(d["items"]))
    scope = {k: v for k, v in docs[0]["scope"].items() if k != "shard"}
    for f, d in zip(folders, docs):
        other = {k: v for k, v in d["scope"].items() if k != "shard"}
        if len(d["items"]) != len(docs[0]["items"]):
            for k in GROWING:
                other[k] = scope.get(k)
        if other != scope:
            diff = sorted(k for k in set(scope) | set(other) if scope.get(k) != other.get(k))
            raise PasscheckError(
                f"{f}: a different hunt ({', '.join(diff)} differ from {folders[0]}); "
                "merge the shards of one hunt (same seed, passes and cases)"
            )
    partial = _shards_missing([d["scope"].get("shard") for d in docs], folders)
    if partial and not allow_partial:
        raise PasscheckError(f"{partial}; merge every shard of one hunt, or pass --allow-partial")
    grown = {k: longest["scope"][k] for k in GROWING if k in longest["scope"]}
    merged = Store(out, {**scope, **grown, "merged": [str(f) for f in folders]})
    try:
        merged.items = _items(folders, docs)
    except (KeyError, TypeError) as exc:
        where = ", ".join(map(str, folders))
        raise PasscheckError(f"an item of the states in {where} is not readable ({exc!r})") from None
    for f, d in zip(folders, docs):
        for key, rec in d["signatures"].items():
            k = Signature.from_json(rec["signature"]).key if rec.get("signature") else key
            if k in merged.signatures:
                merged.signatures[k]["hits"] += rec.get("hits", 0)
                _join_window(merged.signatures[k], rec)
                continue
            merged.signatures[k] = dict(rec)
            if rec.get("case_module") and (src := _module(f, rec["case_module"])) is not None:
                merged.cases_dir.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(src, merged.cases_dir / src.name)
                merged.signatures[k]["case_module"] = str(merged.cases_dir / src.name)
                for field in ("repro", "bisect"):  # bisect: a hunt --env signature's command
                    if rec.get(field):
                        merged.signatures[k][field] = _moved(rec[field], src.name, merged.cases_dir / src.name)
        for raw, key in d.get("coarse", {}).items():
            merged.coarse.setdefault(raw, key)
    merged.fold_aliases(_join_window)  # a shard an older passcheck wrote spells a crash by its op types
    merged.save()
    return merged, partial


def _join_window(kept: dict[str, Any], other: dict[str, Any]) -> None:
    """Add ``other``'s version window (``hunt --env``: environments present / absent) to ``kept``'s."""
    if not other.get("window"):
        return
    window = kept.setdefault("window", {"present": [], "absent": []})
    for side in ("present", "absent"):
        window[side] += [e for e in other["window"].get(side, []) if e not in window[side]]


def _moved(command: str, name: str, to: Path) -> str:
    """``command`` (a reproduce command) with its ``--cases-from …/cases/NAME`` argument naming ``to``."""
    import shlex

    words = shlex.split(command)
    return shlex.join(str(to) if Path(w).name == name and Path(w).parent.name == "cases" else w for w in words)


def _module(folder: Path, recorded: str) -> Path | None:
    """The case module a shard recorded (its path, or the same name in the folder's ``cases``, for
    a folder that moved, e.g. a downloaded CI artifact)."""
    for p in (Path(recorded), folder / "cases" / Path(recorded).name):
        if p.is_file():
            return p
    return None


def _shards_missing(shards: list[str | None], folders: list[Path]) -> str:
    """Why the ``I/N`` shards of the folders are not ``1..N`` once each, or ``""``."""
    given = [tuple(map(int, s.split("/"))) if s else (1, 1) for s in shards]
    counts = {n for _, n in given}
    if len(counts) > 1:
        return "shards of different counts: " + ", ".join(f"{f} ({i}/{n})" for f, (i, n) in zip(folders, given))
    n = counts.pop()
    seen = [i for i, _ in given]
    twice = sorted({i for i in seen if seen.count(i) > 1})
    missing = [i for i in range(1, n + 1) if i not in seen]
    problems = [f"missing shard(s) {', '.join(f'{i}/{n}' for i in missing)}"] if missing else []
    problems += [f"shard(s) given twice: {', '.join(f'{i}/{n}' for i in twice)}"] if twice else []
    return "; ".join(problems)


def _items(folders: list[Path], docs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Step by step, the record of the shard that ran the step (steps no given shard ran are left out)."""
    out = []
    for step in range(max(len(d["items"]) for d in docs)):
        at = [(f, d["items"][step]) for f, d in zip(folders, docs) if step < len(d["items"])]
        names = {(r["base"], r["form"], r["pass"]) for _, r in at}
        if len(names) > 1:
            tried = ", ".join(f"{f}: {r['form']} on {r['base']}" for f, r in at)
            raise PasscheckError(
                f"step {step}: the shards tried different items ({tried}); "
                "they were not run with the same passcheck, tools and cases"
            )
        ran = [r for _, r in at if r["status"] != OTHER_SHARD]
        if ran:
            out.append(ran[0])
    return out
