"""``passcheck ARGV`` run in the test's own process, returned as a subprocess run of it would be.

A ``python -m passcheck`` subprocess pays the interpreter start, the onnx and onnxruntime imports and the
isolation template's fork before any work: 1.6 s of imports and 2.4 s for the first check of a one-node
model, against 0.35 s for the same check in a warm process (measured at load 12). Tests about what a
command prints, writes and exits with call :func:`cli`; tests about the process boundary (the console
script, signals, the environment passcheck starts in, a crash that must not end passcheck, what the
isolation workers print) keep a real subprocess.
"""

from __future__ import annotations

import contextlib
import faulthandler
import io
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path
from types import ModuleType

from passcheck.cli import main


@contextlib.contextmanager
def _environ(env: Mapping[str, str] | None) -> Iterator[None]:
    """``os.environ`` with ``env``'s entries set (a value None removes the variable), restored after."""
    saved = {k: os.environ.get(k) for k in env or {}}
    try:
        for k, v in (env or {}).items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


@contextlib.contextmanager
def _captured(fd: int, text: io.StringIO) -> Iterator[None]:
    """What is written to file descriptor ``fd`` (onnxruntime's and onnx's C++ logging) during the block,
    appended to ``text`` after it."""
    with tempfile.TemporaryFile() as sink:
        saved = os.dup(fd)
        os.dup2(sink.fileno(), fd)
        try:
            yield
        finally:
            os.dup2(saved, fd)
            os.close(saved)
            sink.seek(0)
            text.write(sink.read().decode(errors="replace"))


def cli(*args: object, cwd: os.PathLike | str | None = None, env: Mapping[str, str] | None = None):
    """``passcheck ARGS`` through :func:`passcheck.cli.main` in this process, in folder ``cwd`` with ``env``'s
    variables set: a :class:`subprocess.CompletedProcess` with the exit code and the text written to
    ``sys.stdout`` / ``sys.stderr`` and to file descriptors 1 / 2 (argparse's usage errors, ``SystemExit(2)``,
    give their code too). Output of the isolation workers is not in it: they write where the process they
    were forked from writes."""
    argv = [str(a) for a in args]
    out, err = io.StringIO(), io.StringIO()
    here = os.getcwd()
    if not faulthandler.is_enabled():  # main enables it on sys.stderr, which must then have a file descriptor
        faulthandler.enable()
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        if cwd is not None:
            os.chdir(cwd)
        with _environ(env), _captured(1, out), _captured(2, err):
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                try:
                    code = main(argv)
                except SystemExit as exc:
                    code = exc.code if isinstance(exc.code, int) else int(exc.code is not None)
    finally:
        os.chdir(here)
    return subprocess.CompletedProcess(["passcheck", *argv], code, out.getvalue(), err.getvalue())


def planted(path: os.PathLike | str) -> ModuleType:
    """The case and pass module at ``path`` (a test's planted pass and its bases), imported once per process
    through passcheck's loader, as ``--cases-from path`` imports it: an in-process ``cli("hunt", "--cases-from",
    path, ...)`` then registers nothing twice (a module imported before a run outlives it,
    ``passcheck/cases/scope.py``), and the isolation workers' preload of ``path`` resolves its functions by
    the same module name."""
    from passcheck.cases import load_path
    from passcheck.user_modules import user_modules

    load_path(path)
    where = Path(path).resolve()
    for name in user_modules():
        module = sys.modules[name]
        if Path(module.__file__).resolve() == where:
            return module
    raise LookupError(f"{path} was loaded but is not among the user modules")
