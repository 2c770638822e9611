"""Create and cache pinned environments with uv (``uv venv`` + ``uv pip install``).

Layout under the cache folder (``$PASSCHECK_CACHE`` or ``~/.cache/passcheck``)::

    envs/<id>-<pins hash[:12]>/                    the pinned environment (the pins and passcheck's dependencies)
    envs/<id>-<pins hash[:12]>/.passcheck-pins     written last: the pins are installed
    envs/<id>-<pins hash[:12]>/.passcheck-deps     hash of passcheck's declared dependencies installed there
    envs/<id>-<pins hash[:12]>/src/<source[:16]>/  one passcheck source: a small venv that sees the pinned one
                                                   (a ``.pth`` file) with that source installed, ``--no-deps``

A changed pins file gives a new folder (older folders of the same id are removed). Each passcheck source gets its
own overlay, so two runs from two trees (an edited checkout, two worktrees, CI jobs sharing a cache) never
reinstall passcheck under each other's workers: a run holds a shared lock on the overlays it uses, and only
overlays no run holds and none used for a day are removed. A file lock serializes concurrent creators.
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
SOURCE_MARK = ".passcheck-source"  # in an overlay: the source installed there
DEPS_MARK = ".passcheck-deps"
OVERLAY_TTL = 86400.0  # seconds an overlay no run holds is kept after its last use
_HELD: dict[str, object] = {}  # overlay folder -> the open file whose shared lock marks it in use by this process


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

    The returned :class:`Env` is the source's overlay (see the module docs): its interpreter imports this
    ``source``'s passcheck and the pinned environment's packages. The overlay stays locked (shared) by this
    process, so another run's clean-up never removes it while this run's workers use it.

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
    deps = deps_hash(source)
    with open(envs / f"{spec.id}.lock", "w") as lock:
        _lock(lock, children)
        created = False
        pins_file = root / "pins.txt"
        if _read(root / PINS_MARK) != spec.pins_hash:
            for old in stale(envs, spec.id):
                shutil.rmtree(old, ignore_errors=True)
            log.write_text("", encoding="utf-8")
            _run([uv_bin(), "venv", "--quiet", "--python", python or _base_python(), str(root)], log, children, tmp)
            pins_file.write_text("\n".join(spec.pins) + "\n", encoding="utf-8")
            _install(root, ["-r", str(pins_file)], source, envs, src, log, children, tmp)
            (root / DEPS_MARK).write_text(deps, encoding="utf-8")
            (root / PINS_MARK).write_text(spec.pins_hash, encoding="utf-8")
            created = True
        elif _read(root / DEPS_MARK) != deps:  # the source declares other dependencies: bring the pinned env's up
            _install(root, ["-r", str(pins_file)], source, envs, src, log, children, tmp)
            (root / DEPS_MARK).write_text(deps, encoding="utf-8")
        overlay, made = _overlay(root, source, envs, src, log, children, tmp)
        _collect(root, keep=overlay)
    return Env(spec, overlay, created or made, time.perf_counter() - t0)


def deps_hash(root: Path) -> str:
    """sha256 of the ``[project] dependencies`` that ``root``'s pyproject.toml declares (of the whole file when it
    cannot be read as TOML)."""
    data = (root / "pyproject.toml").read_bytes() if (root / "pyproject.toml").is_file() else b""
    try:
        import tomllib
    except ImportError:  # Python 3.10
        return hashlib.sha256(data).hexdigest()
    try:
        listed = tomllib.loads(data.decode("utf-8")).get("project", {}).get("dependencies", [])
    except (tomllib.TOMLDecodeError, UnicodeDecodeError):
        return hashlib.sha256(data).hexdigest()
    return hashlib.sha256("\n".join(sorted(listed)).encode()).hexdigest()


def _install(
    env: Path,
    args: list[str],
    source: Path,
    envs: Path,
    src: str,
    log: Path,
    children: Children | None,
    tmp: Path | None,
) -> None:
    """``uv pip install`` into the venv at ``env``: ``args`` then the staged copy of ``source``."""
    with _stage(source, envs, src) as staged:
        _run(
            [uv_bin(), "pip", "install", "--quiet", "--python", str(env / "bin/python"), *args, str(staged)],
            log,
            children,
            tmp,
        )


def _overlay(
    root: Path, source: Path, envs: Path, src: str, log: Path, children: Children | None, tmp: Path | None
) -> tuple[Path, bool]:
    """The overlay of source ``src`` on the pinned env ``root`` (created if missing), held in use: (folder, created).

    Called under the environment's lock: no other process creates or removes overlays of ``root`` meanwhile."""
    overlay = root / "src" / src[:16]
    made = False
    if _read(overlay / SOURCE_MARK) != src:
        shutil.rmtree(overlay, ignore_errors=True)  # a creation that was cut short
        overlay.parent.mkdir(parents=True, exist_ok=True)
        _run([uv_bin(), "venv", "--quiet", "--python", str(root / "bin/python"), str(overlay)], log, children, tmp)
        site = _purelib(overlay)
        # a .pth line that starts with "import" is run at start-up (the site module); addsitedir also reads the
        # pinned env's own .pth files. The overlay's site-packages stays first: its passcheck wins.
        (site / "_passcheck_pinned.pth").write_text(
            f"import site; site.addsitedir({str(_purelib(root))!r})\n", encoding="utf-8"
        )
        _install(overlay, ["--no-deps"], source, envs, src, log, children, tmp)
        (overlay / SOURCE_MARK).write_text(src, encoding="utf-8")
        made = True
    key = str(overlay)
    if key not in _HELD:
        use = open(overlay / ".in-use", "a")
        fcntl.flock(use, fcntl.LOCK_SH)
        _HELD[key] = use
    os.utime(overlay / SOURCE_MARK)
    return overlay, made


def _purelib(venv: Path) -> Path:
    """The site-packages folder of the venv at ``venv`` (``lib/pythonX.Y/site-packages``; ``Lib/site-packages``
    on Windows)."""
    if os.name == "nt":
        return venv / "Lib" / "site-packages"
    found = sorted(venv.glob("lib/python3.*/site-packages"))
    if len(found) != 1:
        raise EnvCreateError(f"{venv} has {len(found)} site-packages folders, expected one")
    return found[0]


def _collect(root: Path, keep: Path, now: float | None = None) -> list[Path]:
    """Remove the overlays of ``root`` that no process holds and that were last used over :data:`OVERLAY_TTL`
    seconds ago (never ``keep``); return the removed folders."""
    now = time.time() if now is None else now
    removed = []
    for overlay in (root / "src").glob("*"):
        if overlay == keep or not overlay.is_dir() or str(overlay) in _HELD:
            continue
        mark = overlay / SOURCE_MARK
        age = now - mark.stat().st_mtime if mark.is_file() else OVERLAY_TTL + 1
        if age > OVERLAY_TTL and _unused(overlay / ".in-use"):
            shutil.rmtree(overlay, ignore_errors=True)
            removed.append(overlay)
    return removed


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
