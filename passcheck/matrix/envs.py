"""Pinned environments: one requirements file per environment, its id the file stem.

A pins file is a pip requirements file (``name==version`` lines, ``#`` comments). The id
(``onnx-1.20``) is used verbatim in reports and CI job names; the hash of the normalized pins
is the cache key of the created environment, so editing a pin rebuilds it.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import re
from collections.abc import Iterable, Sequence
from pathlib import Path

from passcheck.errors import PasscheckError, UnknownIdError

_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.+-]*$")


@dataclasses.dataclass(frozen=True)
class EnvSpec:
    """One pinned environment.

    Attributes:
        id: the file stem, e.g. ``onnx-1.18``.
        pins: requirement lines without comments or blanks, in file order.
        path: the pins file.
        doc: the file's leading comment lines (why these pins).
    """

    id: str
    pins: tuple[str, ...]
    path: Path
    doc: str = ""

    @property
    def pins_hash(self) -> str:
        """sha256 of the normalized pins (order and case of names kept, whitespace dropped)."""
        return hashlib.sha256("\n".join(self.pins).encode()).hexdigest()

    def pin(self, dist: str) -> str | None:
        """The version pinned for ``dist`` with ``==``, or None."""
        want = _norm(dist)
        for line in self.pins:
            m = re.match(r"^([A-Za-z0-9_.-]+)\s*==\s*([^\s;]+)", line)
            if m and _norm(m.group(1)) == want:
                return m.group(2)
        return None


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def load_spec(path: str | Path) -> EnvSpec:
    """Read a pins file.

    Raises:
        PasscheckError: missing/unreadable file, a bad id (file stem), or no requirement lines.
    """
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise PasscheckError(
            f"{p}: cannot read pins file: {exc.strerror}; give a requirements file (one 'name==version' a line)"
        ) from None
    env_id = p.name[:-4] if p.name.endswith(".txt") else p.name
    if not _ID.match(env_id):
        raise PasscheckError(
            f"{p}: environment id {env_id!r} (the file name) must be letters, digits, '.', '_', '+', '-'"
        )
    doc, pins = [], []
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("#"):
            if not pins:
                doc.append(line.lstrip("# "))
        elif line:
            pins.append(re.sub(r"\s+", "", line.split(" #", 1)[0]))
    if not pins:
        raise PasscheckError(f"{p}: no requirement lines; a pins file lists e.g. 'onnx==1.18.0'")
    return EnvSpec(env_id, tuple(pins), p.resolve(), "\n".join(doc).strip())


def source_root(start: str | Path | None = None) -> Path | None:
    """The passcheck source tree (folder with pyproject.toml naming passcheck and ``ci/envs``).

    Looked up in ``$PASSCHECK_SOURCE``, then above the imported package, then ``start`` (or the
    working directory) and its parents. None when not found (e.g. a wheel install elsewhere).
    """
    import passcheck

    candidates: list[Path] = []
    if os.environ.get("PASSCHECK_SOURCE"):
        candidates.append(Path(os.environ["PASSCHECK_SOURCE"]))
    candidates.append(Path(passcheck.__file__).resolve().parents[1])
    here = Path(start or Path.cwd()).resolve()
    candidates += [here, *here.parents]
    for c in candidates:
        if _is_source(c):
            return c
    return None


def _is_source(c: Path) -> bool:
    py = c / "pyproject.toml"
    return py.is_file() and bool(re.search(r'(?m)^name\s*=\s*"(onnx-)?passcheck"', py.read_text(encoding="utf-8")))


def recorded_origin() -> Path | None:
    """The local folder pip (or uv) installed the running passcheck from, as its ``direct_url.json``
    records it (PEP 610: a ``file://`` url with ``dir_info``), when that folder is still a
    passcheck source tree; else None (installed from an index, or the folder is gone)."""
    import importlib.metadata
    import json
    from urllib.parse import unquote, urlparse

    for name in ("onnx-passcheck", "passcheck"):
        try:
            text = importlib.metadata.distribution(name).read_text("direct_url.json")
        except importlib.metadata.PackageNotFoundError:
            continue
        try:
            info = json.loads(text or "null") or {}
        except ValueError:
            return None
        url = urlparse(info.get("url", ""))
        if url.scheme == "file" and "dir_info" in info and _is_source(Path(unquote(url.path))):
            return Path(unquote(url.path))
    return None


def installable_source(given: str | Path | None = None, *, flag: str = "--source") -> Path:
    """The passcheck source tree every command that installs passcheck elsewhere (``matrix``,
    ``bisect``, the torch exporter's env) installs: ``given`` (the command's flag), else
    :func:`source_root` (``$PASSCHECK_SOURCE``, the checkout above the imported package or the
    working directory), else :func:`recorded_origin` (the folder a non-editable install came from).

    Raises:
        PasscheckError: ``given`` is not a passcheck source tree, or none is found (the message
            says how to give one).
    """
    if given is not None:
        p = Path(given).resolve()
        if not _is_source(p):
            raise PasscheckError(f"{flag} {given}: not a passcheck source tree (no pyproject.toml naming passcheck)")
        return p
    found = source_root() or recorded_origin()
    if found is None:
        raise PasscheckError(
            "cannot find the passcheck source tree to install into the environments (not a "
            f"checkout, and pip recorded no local origin); give {flag} DIR or set PASSCHECK_SOURCE "
            "to a clone of passcheck"
        )
    return found.resolve()


def default_envs_dir() -> Path | None:
    """``ci/envs`` of the source tree, else the copy a wheel ships in ``passcheck/_envs``."""
    import passcheck

    root = source_root()
    if root and (root / "ci" / "envs").is_dir():
        return root / "ci" / "envs"
    shipped = Path(passcheck.__file__).resolve().parent / "_envs"
    return shipped if shipped.is_dir() else None


def load_all(envs_dir: str | Path | None = None) -> list[EnvSpec]:
    """Every ``*.txt`` pins file in ``envs_dir`` (default: ``ci/envs`` of the source tree), by id.

    Raises:
        PasscheckError: no such folder.
    """
    d = Path(envs_dir) if envs_dir else default_envs_dir()
    if d is None or not d.is_dir():
        raise PasscheckError(
            f"no pinned environments folder {d or 'ci/envs'}: run from a passcheck source checkout, "
            "set PASSCHECK_SOURCE, or give --envs-dir / a pins file with --env"
        )
    return sorted((load_spec(p) for p in d.glob("*.txt")), key=lambda s: _version_key(s.id))


def _version_key(env_id: str) -> tuple:
    return tuple((0, int(t)) if t.isdigit() else (1, t) for t in re.split(r"[.-]", env_id))


def select(requested: Sequence[str], envs_dir: str | Path | None = None) -> list[EnvSpec]:
    """Resolve ``--env`` values: an id from the pins folder, or a path to a pins file.
    Empty means every environment in the folder.

    Raises:
        UnknownIdError: an id that is neither a known environment nor an existing file.
        PasscheckError: two environments with the same id.
    """
    out: list[EnvSpec] = []
    known: list[EnvSpec] | None = None
    for r in requested:
        if r.endswith(".txt") or os.sep in r or Path(r).is_file():
            out.append(load_spec(r))
            continue
        known = known if known is not None else load_all(envs_dir)
        hits = [s for s in known if s.id == r]
        if not hits:
            raise UnknownIdError("environment", r, [s.id for s in known])
        out.append(hits[0])
    if not requested:
        out = load_all(envs_dir)
    _no_duplicates(out)
    return out


def _no_duplicates(specs: Iterable[EnvSpec]) -> None:
    seen: dict[str, Path] = {}
    for s in specs:
        if s.id in seen and seen[s.id] != s.path:
            raise PasscheckError(f"two environments named {s.id!r}: {seen[s.id]} and {s.path}; rename one pins file")
        seen[s.id] = s.path
