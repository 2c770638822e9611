"""Where the catalogue and each model's observed triggers are kept between runs.

``$PASSCHECK_CACHE/coverage/<key>/`` (else ``$XDG_CACHE_HOME`` or ``~/.cache``, then
``passcheck/coverage``), ``key`` a digest of the tool versions (onnx, onnxruntime, onnxscript,
onnx-ir, and onnxslim and onnxoptimizer where installed: :data:`EXTRA_TOOLS`) and of the sources of the catalogue
readers and trigger checks (:data:`OBSERVERS`: a change to one invalidates the cache; the report
and the map's assembly do not).
``catalogue.json`` holds the entries per tool (written whole, atomically);
``observed.jsonl`` each model's triggers, one JSON line per (model, tool): ``{"digest", "tool",
"triggers"}``, the digest the sha256 of the model's bytes (a base whose model changed is observed
again). Lines are only appended, under an exclusive ``flock`` of the file, so hunts and
``passcheck coverage`` runs sharing a cache each add their rows and lose none of the others'; a
line torn by a kill is skipped when read and ended by the next writer. ``observed.json`` (the
whole-file form written before, same key) is still read.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
from pathlib import Path
from typing import Any

#: The modules whose code decides what the cache holds.
OBSERVERS = (
    "_capture.py",
    "_graph.py",
    "converter.py",
    "inliner.py",
    "onnx_ir.py",
    "onnxoptimizer.py",
    "onnxscript.py",
    "onnxslim.py",
    "ort.py",
    "ort_fusions.py",
    "ort_precision.py",
    "shapes.py",
    "symbolic.py",
    "worker.py",
)
#: Optional distributions with a catalogue of their own (:mod:`passcheck.coverage.onnxslim`,
#: :mod:`.onnxoptimizer`): their versions key the cache too ("none" when not installed).
EXTRA_TOOLS = ("onnxslim", "onnxoptimizer")
#: The append-only file of observed triggers (see module docs).
ROWS = "observed.jsonl"


def _key() -> str:
    from passcheck._versions import TOOLS, tool_version

    h = hashlib.sha256(json.dumps({t: tool_version(t) for t in TOOLS}, sort_keys=True).encode())
    h.update(json.dumps({d: _installed(d) for d in EXTRA_TOOLS}).encode())
    for name in OBSERVERS:
        h.update((Path(__file__).parent / name).read_bytes())
    for name in (
        "ort_log.py",
        "ort_config.py",
        "ort_transformers.py",
        "ort_fusion_probe.py",
        "onnxoptimizer_passes.py",
    ):  # what is run, how
        h.update((Path(__file__).parents[1] / "passes" / name).read_bytes())
    h.update((Path(__file__).parents[1] / "attribution" / "ort_transformers.json").read_bytes())
    return h.hexdigest()[:16]


def _installed(dist: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(dist)
    except PackageNotFoundError:
        return "none"


def root() -> Path:
    xdg = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    base = os.environ.get("PASSCHECK_CACHE") or os.path.join(xdg, "passcheck")
    return Path(base) / "coverage"


class Cache:
    """The cache folder of this environment (see module docs); ``refresh`` empties it first.

    :meth:`put` holds a row in memory, :meth:`save` appends the rows held; :meth:`reload` reads
    the rows other processes appended since. An unwritable or unreadable cache costs time (the
    rows are observed again), never a run's result: no method raises ``OSError``."""

    def __init__(self, refresh: bool = False, folder: Path | None = None):
        self.dir = folder or root() / _key()
        if refresh and self.dir.exists():
            shutil.rmtree(self.dir, ignore_errors=True)
        self.observed: dict[str, Any] = self._read("observed.json") or {}
        self._offset = 0  # bytes of ROWS read so far (whole lines only)
        self._pending: list[tuple[str, str, dict[str, str]]] = []
        self.reload()

    def _read(self, name: str) -> Any:
        try:
            return json.loads((self.dir / name).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None

    def reload(self) -> int:
        """Read the rows appended to ``observed.jsonl`` since the last read; how many were new here."""
        try:
            with open(self.dir / ROWS, "rb") as f:
                fcntl.flock(f, fcntl.LOCK_SH)
                f.seek(self._offset)
                data = f.read()
        except OSError:
            return 0
        whole = data[: data.rfind(b"\n") + 1]  # a line still unended is read next time (or was torn)
        self._offset += len(whole)
        new = 0
        for line in whole.splitlines():
            try:
                row = json.loads(line)
                digest, tool, triggers = row["digest"], row["tool"], row["triggers"]
            except (ValueError, KeyError, TypeError):  # a line torn by a kill, then ended by a writer
                continue
            new += self.get(digest, tool) is None
            self.observed.setdefault(digest, {})[tool] = triggers
        return new

    def catalogue(self) -> Any:
        return self._read("catalogue.json")

    def put_catalogue(self, data: Any) -> None:
        from passcheck.report.json_report import atomic_write

        try:
            atomic_write(self.dir / "catalogue.json", json.dumps(data, sort_keys=True))
        except OSError:
            pass

    def get(self, digest: str, tool: str) -> dict[str, str] | None:
        return self.observed.get(digest, {}).get(tool)

    def put(self, digest: str, tool: str, triggers: dict[str, str]) -> None:
        self.observed.setdefault(digest, {})[tool] = triggers
        self._pending.append((digest, tool, triggers))

    def save(self) -> None:
        """Append the rows :meth:`put` since the last save (one write under an exclusive lock)."""
        if not self._pending:
            return
        text = "".join(
            json.dumps({"digest": d, "tool": t, "triggers": trig}, sort_keys=True) + "\n"
            for d, t, trig in self._pending
        )
        try:
            self.dir.mkdir(parents=True, exist_ok=True)
            with open(self.dir / ROWS, "ab") as f:
                fcntl.flock(f, fcntl.LOCK_EX)
                size = f.seek(0, os.SEEK_END)
                if size:  # a line torn by a kill is ended first, so this write stays whole
                    with open(self.dir / ROWS, "rb") as r:
                        r.seek(size - 1)
                        if r.read(1) != b"\n":
                            text = "\n" + text
                f.write(text.encode())
                f.flush()
        except OSError:
            pass
        self._pending.clear()
