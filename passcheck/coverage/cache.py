"""Where the catalogue and each model's observed triggers are kept between runs.

``$PASSCHECK_CACHE/coverage/<key>/`` (else ``$XDG_CACHE_HOME`` or ``~/.cache``, then
``passcheck/coverage``), ``key`` a digest of the tool versions (onnx, onnxruntime, onnxscript,
onnx-ir) and of the sources of the catalogue readers and trigger checks (:data:`OBSERVERS`: a
change to one invalidates the cache; the report and the map's assembly do not).
``catalogue.json`` holds the entries per tool, ``observed.json`` each model's triggers keyed by
the sha256 of its bytes (a base whose model changed is observed again).
"""

from __future__ import annotations

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
    "onnxscript.py",
    "ort.py",
    "shapes.py",
    "symbolic.py",
    "worker.py",
)


def _key() -> str:
    from passcheck._versions import TOOLS, tool_version

    h = hashlib.sha256(json.dumps({t: tool_version(t) for t in TOOLS}, sort_keys=True).encode())
    for name in OBSERVERS:
        h.update((Path(__file__).parent / name).read_bytes())
    h.update((Path(__file__).parents[1] / "attribution" / "ort_transformers.json").read_bytes())
    return h.hexdigest()[:16]


def root() -> Path:
    xdg = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    base = os.environ.get("PASSCHECK_CACHE") or os.path.join(xdg, "passcheck")
    return Path(base) / "coverage"


class Cache:
    """The cache folder of this environment (see module docs); ``refresh`` empties it first."""

    def __init__(self, refresh: bool = False, folder: Path | None = None):
        self.dir = folder or root() / _key()
        if refresh and self.dir.exists():
            shutil.rmtree(self.dir)
        self.observed: dict[str, Any] = self._read("observed.json") or {}
        self._dirty = False

    def _read(self, name: str) -> Any:
        try:
            return json.loads((self.dir / name).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None

    def _write(self, name: str, data: Any) -> None:
        try:
            self.dir.mkdir(parents=True, exist_ok=True)
            tmp = self.dir / f".{name}.tmp"
            tmp.write_text(json.dumps(data, sort_keys=True), encoding="utf-8")
            tmp.replace(self.dir / name)
        except OSError:  # an unwritable cache costs time next run, never this run's result
            pass

    def catalogue(self) -> Any:
        return self._read("catalogue.json")

    def put_catalogue(self, data: Any) -> None:
        self._write("catalogue.json", data)

    def get(self, digest: str, tool: str) -> dict[str, str] | None:
        return self.observed.get(digest, {}).get(tool)

    def put(self, digest: str, tool: str, triggers: dict[str, str]) -> None:
        self.observed.setdefault(digest, {})[tool] = triggers
        self._dirty = True

    def save(self) -> None:
        if self._dirty:
            self._write("observed.json", self.observed)
            self._dirty = False
