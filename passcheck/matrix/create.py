"""Create and cache pinned environments with uv (``uv venv`` + ``uv pip install``).

Layout under the cache folder (``$PASSCHECK_CACHE`` or ``~/.cache/passcheck``)::

    envs/<id>-<pins hash[:12]>/          the virtual environment
    envs/<id>-<pins hash[:12]>/.passcheck-pins     written last: the pins are installed
    envs/<id>-<pins hash[:12]>/.passcheck-source   hash of the passcheck source installed

A changed pins file gives a new folder (older folders of the same id are removed); a changed
passcheck source reinstalls passcheck only. A file lock serializes concurrent creators.
"""

from __future__ import annotations

import contextlib
import dataclasses
import fcntl
import functools
import hashlib
import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from passcheck._procs import Children, Stopped
from passcheck.matrix.envs import EnvSpec

DIST = "onnx-passcheck"  # the distribution name (the import package is passcheck)
PINS_MARK = ".passcheck-pins"
SOURCE_MARK = ".passcheck-source"


class EnvCreateError(Exception):
    """uv could not create or fill an environment; ``str()`` is the reason (last lines of uv's output)."""


@dataclasses.dataclass(frozen=True)
class Env:
    """A created environment: its spec, folder and interpreter."""

    spec: EnvSpec
    root: Path
    created: bool  # False when reused from the cache
    seconds: float

    @property
    def python(self) -> Path:
        return self.root / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def cache_dir() -> Path:
    base = os.environ.get("PASSCHECK_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache", "passcheck"
    )
    return Path(base)


_UV_LOCK = threading.Lock()


@functools.lru_cache(maxsize=1)
def _find_uv() -> str:
    try:
        import uv

        return uv.find_uv_bin()
    except (ImportError, FileNotFoundError):
        found = shutil.which("uv")
        if not found:
            raise EnvCreateError("uv is not installed: pip install uv") from None
        return found


def uv_bin() -> str:
    """The uv executable: the one the ``uv`` package ships, else ``uv`` on PATH (looked up once;
    ``uv.find_uv_bin`` reads sysconfig, which is not thread-safe on first use).

    Raises:
        EnvCreateError: uv is not installed.
    """
    with _UV_LOCK:
        return _find_uv()


def source_hash(root: Path) -> str:
    """sha256 over the installable passcheck source (pyproject.toml, passcheck/, cases/, ci/envs/)."""
    h = hashlib.sha256()
    files = [
        root / "pyproject.toml",
        root / "setup.py",
        *sorted((root / "passcheck").rglob("*.py")),
        *sorted((root / "cases").rglob("*.py")),
        *sorted((root / "ci" / "envs").glob("*.txt")),
    ]
    for f in files:
        if f.is_file() and "__pycache__" not in f.parts:
            h.update(str(f.relative_to(root)).encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()


def _run(cmd: list[str], log: Path, children: Children | None, tmp: Path | None) -> None:
    env = {**os.environ, "UV_NO_PROGRESS": "1", **({"TMPDIR": str(tmp)} if tmp else {})}
    with open(log, "a", encoding="utf-8") as out:
        out.write("$ " + " ".join(cmd) + "\n")
        out.flush()
        if children is None:
            proc = subprocess.run(cmd, stdout=out, stderr=subprocess.STDOUT, env=env)
        else:  # the run can kill it (Ctrl-C while an environment is created)
            proc = children.popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env)
            try:
                proc.wait()
            finally:
                children.done(proc)
    if proc.returncode:
        tail = log.read_text(encoding="utf-8", errors="replace").strip().splitlines()[-6:]
        raise EnvCreateError(f"{' '.join(cmd[:3])} failed (exit {proc.returncode}): " + " | ".join(tail))


def ensure(
    spec: EnvSpec,
    source: Path,
    *,
    cache: Path | None = None,
    python: str | None = None,
    children: Children | None = None,
    tmp: Path | None = None,
) -> Env:
    """Return the environment for ``spec`` with passcheck from ``source`` installed, creating
    or updating it as needed.

    Args:
        source: the passcheck source tree to install (non-editable).
        python: interpreter for new environments (default: the one running passcheck).
        children: where uv processes are tracked, so an interrupted run can kill them.
        tmp: TMPDIR for uv.

    Raises:
        EnvCreateError: uv failed (no such version, no wheel for this platform, no network).
        passcheck._procs.Stopped: ``children`` was stopped before uv could start.
    """
    t0 = time.perf_counter()
    envs = (cache or cache_dir()) / "envs"
    envs.mkdir(parents=True, exist_ok=True)
    root = envs / f"{spec.id}-{spec.pins_hash[:12]}"
    log = envs / f"{root.name}.log"
    src = source_hash(source)
    with open(envs / f"{spec.id}.lock", "w") as lock:
        _lock(lock, children)
        created = False
        uv = uv_bin()
        pins_file = root / "pins.txt"
        if _read(root / PINS_MARK) != spec.pins_hash:
            for old in stale(envs, spec.id):
                shutil.rmtree(old, ignore_errors=True)
            log.write_text("", encoding="utf-8")
            _run([uv, "venv", "--quiet", "--python", python or _base_python(), str(root)], log, children, tmp)
            pins_file.write_text("\n".join(spec.pins) + "\n", encoding="utf-8")
            with _stage(source, envs, src) as staged:
                _run(
                    [
                        uv,
                        "pip",
                        "install",
                        "--quiet",
                        "--python",
                        str(root / "bin/python"),
                        "-r",
                        str(pins_file),
                        str(staged),
                    ],
                    log,
                    children,
                    tmp,
                )
            (root / SOURCE_MARK).write_text(src, encoding="utf-8")
            (root / PINS_MARK).write_text(spec.pins_hash, encoding="utf-8")
            created = True
        elif _read(root / SOURCE_MARK) != src:
            with _stage(source, envs, src) as staged:
                _run(
                    [
                        uv,
                        "pip",
                        "install",
                        "--quiet",
                        "--python",
                        str(root / "bin/python"),
                        "--reinstall-package",
                        DIST,
                        "-r",
                        str(pins_file),
                        str(staged),
                    ],
                    log,
                    children,
                    tmp,
                )
            (root / SOURCE_MARK).write_text(src, encoding="utf-8")
    return Env(spec, root, created, time.perf_counter() - t0)


def stale(envs: Path, env_id: str) -> list[Path]:
    """The folders of environment ``env_id`` under ``envs``: ``<env_id>-<12 hex digits>`` exactly, so another id that
    starts with this one and a dash (``onnxslim-0.1.90`` beside ``onnxslim``) keeps its folder."""
    return [
        p
        for p in envs.glob(f"{env_id}-*")
        if p.is_dir() and len(tail := p.name[len(env_id) + 1 :]) == 12 and all(c in "0123456789abcdef" for c in tail)
    ]


def existing(spec: EnvSpec, cache: Path | None = None) -> Env | None:
    """The environment of ``spec`` as an earlier run left it (its pins installed: :data:`PINS_MARK` holds the pins
    hash), or None; nothing is created and nothing is run (whether its interpreter still works is the caller's
    question)."""
    root = (cache or cache_dir()) / "envs" / f"{spec.id}-{spec.pins_hash[:12]}"
    if _read(root / PINS_MARK) != spec.pins_hash:
        return None
    return Env(spec, root, False, 0.0)


def _lock(f, children: Children | None) -> None:
    """Take the exclusive lock on ``f``, waiting for another creator; a stopped run stops waiting.

    Raises:
        Stopped: ``children`` was stopped while waiting.
    """
    while True:
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if children is not None and children.stopped:
                raise Stopped from None
            time.sleep(0.2)


@contextlib.contextmanager
def _stage(source: Path, envs: Path, src: str) -> Iterator[Path]:
    """A copy of the installable source in the cache, so building the wheel writes nothing
    (build/, *.egg-info) into the user's tree. Held with a shared lock while in use: staging
    another source (an edited tree, another run on the same cache) removes only copies no
    install is reading."""
    dest = envs / f"src-{src[:12]}"
    with open(envs / "src.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (dest / "pyproject.toml").is_file():
            _copy_source(source, envs, dest)
        use = open(envs / f"{dest.name}.lock", "w")
        fcntl.flock(use, fcntl.LOCK_SH)
    try:
        yield dest
    finally:
        use.close()


def _copy_source(source: Path, envs: Path, dest: Path) -> None:
    tmp = envs / f".{dest.name}-{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", "build")
    for name in ("passcheck", "cases", "ci/envs"):
        shutil.copytree(source / name, tmp / name, ignore=ignore)
    for name in ("pyproject.toml", "setup.py", "setup.cfg", "MANIFEST.in", "README.md", "LICENSE"):
        if (source / name).is_file():
            shutil.copy2(source / name, tmp / name)
    for old in envs.glob("src-*"):
        if old.is_dir() and _unused(envs / f"{old.name}.lock"):
            shutil.rmtree(old, ignore_errors=True)
            (envs / f"{old.name}.lock").unlink(missing_ok=True)
    os.replace(tmp, dest)


def _unused(lock_path: Path) -> bool:
    """Whether no install holds the staged copy's lock (checked under src.lock)."""
    with open(lock_path, "a") as f:
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True


def _read(p: Path) -> str | None:
    return p.read_text(encoding="utf-8").strip() if p.is_file() else None


def _base_python() -> str:
    return getattr(sys, "_base_executable", None) or sys.executable
