"""Mutation results that outlive the tree: each keyed by what its verdict depends on (issue 29).

A row of the results file (``bench/results/mutation.jsonl``, committed, one JSON object a line) is
reused by ``bench/mutation_score.py`` only while its :func:`result_key` is unchanged, that is while
all of these are:

- the mutated module's content (sha256 of the file: any edit of it judges its mutants again);
- the mutant: cosmic-ray operator and occurrence within that module;
- the content of the test files selected for it (the files of its covering tests' node ids, or of the
  module's pytest targets when it runs the whole selection) and of every ``conftest.py`` above them;
  the ``-k`` expression, when one applies;
- the installed tool versions (:func:`tools`: Python, onnx, onnxruntime, onnxscript, onnx-ir, numpy,
  protobuf).

The rest of the tree (rewrites under ``passcheck/mutations/``, other modules, other tests) is not in
the key: a result survives unrelated changes, and sessions accumulate a full run. A row judged on
another key stays in the file, out of every table. Later rows of a key replace earlier ones. A summary
of the file without the map (``--summarize``) counts the newest row of each mutant among the rows judged
on its module's current content (:func:`split_stale`: a row's ``module_sha``, or for older rows the
module at their run's commit); the others are stale and their mutants have no result.
"""

from __future__ import annotations

import hashlib
import json
import platform
import subprocess
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: The committed results file.
RESULTS = ROOT / "bench" / "results" / "mutation.jsonl"
#: Distributions whose versions are part of every key (besides Python's).
TOOLS = ("onnx", "onnxruntime", "onnxscript", "onnx-ir", "numpy", "protobuf")
#: Row fields kept for a killed or timed-out mutant (a survivor also keeps its changed line).
KILLED_FIELDS = (
    "key",
    "module",
    "module_sha",
    "line",
    "operator",
    "occurrence",
    "outcome",
    "seconds",
    "tests",
    "killer",
    "run",
)
SURVIVOR_FIELDS = KILLED_FIELDS + ("before", "after", "context", "note")


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def tools() -> str:
    """``python=3.12.3;onnx=1.20.0;…`` (``-`` for a distribution not installed)."""

    def version(name: str) -> str:
        try:
            return metadata.version(name)
        except metadata.PackageNotFoundError:
            return "-"

    return ";".join([f"python={platform.python_version()}", *(f"{n}={version(n)}" for n in TOOLS)])


class Hasher:
    """Content hashes of files under ``root``, each file read once."""

    def __init__(self, root: Path = ROOT):
        self.root = root
        self._files: dict[str, str] = {}

    def file(self, rel: str) -> str:
        """sha256 (16 hex digits) of ``rel``'s bytes; ``-`` when it does not exist."""
        if rel not in self._files:
            path = self.root / rel
            self._files[rel] = _sha(path.read_bytes()) if path.is_file() else "-"
        return self._files[rel]

    def test_files(self, tests: list[str]) -> list[str]:
        """The test files ``tests`` (node ids, files or folders) run, and every ``conftest.py`` above them
        up to ``tests/``'s parent, as sorted posix paths relative to ``root``."""
        files: set[str] = set()
        for t in tests:
            rel = t.split("::")[0].rstrip("/")
            path = self.root / rel
            if path.is_dir():
                files.update(p.relative_to(self.root).as_posix() for p in path.rglob("*.py"))
            else:
                files.add(rel)
        for f in list(files):
            parent = (self.root / f).parent
            while parent != self.root and self.root in parent.parents:
                if (parent / "conftest.py").is_file():
                    files.add((parent / "conftest.py").relative_to(self.root).as_posix())
                parent = parent.parent
        return sorted(files)

    def tests(self, tests: list[str], keyword: str = "") -> str:
        """sha256 (16 hex digits) of the content of the files :meth:`test_files` names, and ``keyword``."""
        h = hashlib.sha256(keyword.encode())
        for rel in self.test_files(tests):
            h.update(f"\0{rel}\0{self.file(rel)}".encode())
        return h.hexdigest()[:16]


def result_key(
    hasher: Hasher, module: str, operator: str, occurrence: int, tests: list[str], keyword: str, tool: str
) -> str:
    """The key a result of this mutant is reused under (module docs): sha256, 24 hex digits, of the
    module's content hash, ``operator``, ``occurrence``, the selected tests' content hash and ``tool``."""
    parts = (module, hasher.file(module), operator, str(occurrence), hasher.tests(tests, keyword), tool)
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:24]


def load(path: Path) -> list[dict]:
    """The rows of a results file, in order (a line cut short by a kill is skipped; no file: none)."""
    if not path.exists():
        return []
    out = []
    for line in path.read_text().splitlines():
        try:
            row = json.loads(line)
        except ValueError:
            continue
        if isinstance(row, dict) and "key" in row:
            out.append(row)
    return out


def by_key(rows: list[dict]) -> dict[str, dict]:
    """key → row, the last row of a key winning."""
    return {r["key"]: r for r in rows}


def by_mutant(rows: list[dict]) -> dict[tuple[str, str, int], dict]:
    """(module, operator, occurrence) → row, the last row of a mutant winning whatever its key: a mutant
    judged again after its module, tests or tools changed (a new key) counts once, with its newest verdict."""
    return {(r["module"], r["operator"], int(r["occurrence"])): r for r in rows}


def judged_on(row: dict, root: Path = ROOT, _at: dict | None = None) -> str | None:
    """The content hash (as :meth:`Hasher.file`) of the module ``row`` was judged on: its ``module_sha``;
    for a row written before rows had one, the module's content at the commit of its ``run`` when that
    tree was clean (``git show COMMIT:MODULE``; ``_at`` caches them per commit and module); None when
    unknown (a ``+`` commit, one this repository lacks)."""
    if row.get("module_sha"):
        return row["module_sha"]
    parts = str(row.get("run", "")).split()
    if len(parts) != 2 or parts[1].endswith("+") or parts[1] == "?":
        return None
    at = (parts[1], row["module"])
    if _at is None or at not in _at:
        shown = subprocess.run(["git", "show", f"{at[0]}:{at[1]}"], cwd=root, capture_output=True)
        found = _sha(shown.stdout) if shown.returncode == 0 else None
        if _at is None:
            return found
        _at[at] = found
    return _at[at]


def split_stale(rows: list[dict], root: Path = ROOT) -> tuple[list[dict], list[dict]]:
    """(``rows`` judged on the content their module has now under ``root``, the stale rest), each in
    order. A row counts only while its module is unchanged (and so its mutated line: a mutant is its
    operator and occurrence in that content); whether its tests or tools changed too only ``--dry``
    tells, from the full key (:func:`result_key`), which needs the map."""
    hasher, at = Hasher(root), {}
    current, stale = [], []
    for r in rows:
        (current if judged_on(r, root, at) == hasher.file(r["module"]) else stale).append(r)
    return current, stale


def small(row: dict) -> dict:
    """``row`` cut to the fields a results file keeps (:data:`KILLED_FIELDS`, :data:`SURVIVOR_FIELDS`)."""
    fields = KILLED_FIELDS if row.get("outcome") in ("killed", "timeout") else SURVIVOR_FIELDS
    out = {f: row[f] for f in fields if row.get(f) not in (None, "")}
    out["seconds"] = round(float(row.get("seconds", 0.0)), 1)
    return out


def commit(root: Path = ROOT) -> str:
    """The checkout's HEAD commit (12 hex digits), ``+`` appended when tracked files differ from it; ``?``
    outside git."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=root, capture_output=True, text=True)
        dirty = subprocess.run(["git", "diff", "--quiet", "HEAD", "--", "passcheck", "tests"], cwd=root)
    except OSError:
        return "?"
    return head.stdout.strip() + ("+" if dirty.returncode else "") if head.returncode == 0 else "?"
