"""Any external command that reads a model and writes a model: ``cmd:'TOOL {in} {out}'``.

``{in}`` and ``{out}`` are replaced by file paths in a private work folder. A non-zero exit is
``declined`` (stderr tail recorded); death by a signal, no output file or an output that is not
a ModelProto is ``crashed``; a command still running after the timeout is killed with every
process it started (``timeout``). ``cmd+fold:'…'`` declares that the tool folds constants, so
the missed-folding oracle applies to it (onnxsim, onnxslim); plain ``cmd:`` does not.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import sysconfig
from pathlib import Path

from passcheck._procs import kill_tree, popen
from passcheck.errors import PasscheckError
from passcheck.passes._base import PassAdapter, PassDeclined

#: Seconds a command may run when passcheck runs it in its own process (``--no-isolation``);
#: the CLI sets it from ``--timeout``. Isolated runs are limited by the worker's timeout.
DEFAULT_TIMEOUT = 300.0


class CommandAdapter(PassAdapter):
    tools = ()

    def __init__(
        self,
        template: str,
        timeout: float | None = None,
        folds_constants: bool = False,
        *,
        id: str | None = None,
        extra: str | None = None,
    ):
        if "{in}" not in template or "{out}" not in template:
            raise PasscheckError(f"cmd pass {template!r} must contain both {{in}} and {{out}}")
        try:
            shlex.split(template)
        except ValueError as exc:
            raise PasscheckError(f"cmd pass {template!r}: {exc}") from None
        self.template = template
        self.id = id or (f"cmd+fold:{template}" if folds_constants else f"cmd:{template}")
        self.timeout = timeout
        self._folds = folds_constants
        self.extra = extra  # type: ignore[misc] - per instance: the recipe's pip package
        self.doc = f"external command: {template}"

    @property
    def folds_constants(self) -> bool:  # type: ignore[override]
        return self._folds

    optimizes = True

    @property
    def program(self) -> str:
        """The command's first word, as written."""
        return shlex.split(self.template)[0]

    def unavailable_reason(self) -> str | None:
        if resolve_command(self.program) is None:
            where = (
                "it is not executable"
                if os.sep in self.program
                else f"not in {Path(sys.executable).parent} nor on PATH"
            )
            extra = f"; pip install {self.extra}" if self.extra else ""
            return f"command not found: {self.program} ({where}{extra})"
        return None

    def apply(self, model, workdir: Path):
        import onnx  # noqa: F401 - the output is parsed below

        from passcheck.errors import ModelLoadError
        from passcheck.modelio import model_from_bytes, with_external_data

        src, dst = Path(workdir) / "in.onnx", Path(workdir) / "out.onnx"
        given = model.SerializeToString()
        src.write_bytes(given)
        argv = [a.replace("{in}", str(src)).replace("{out}", str(dst)) for a in shlex.split(self.template)]
        argv[0] = resolve_command(argv[0]) or argv[0]
        # Inside an isolation worker the whole worker process group is killed on timeout; in
        # passcheck's own process the command gets a session of its own so its children can be.
        own_session = not os.environ.get("PASSCHECK_IN_WORKER")
        try:
            proc = popen(  # an interrupt inside the call leaves no child behind
                argv,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                stdin=subprocess.DEVNULL,
                text=True,
                errors="replace",
                start_new_session=own_session,
            )
        except FileNotFoundError as exc:
            raise PassDeclined(f"command not found: {argv[0]}") from exc
        except PermissionError as exc:
            raise PassDeclined(f"command not executable: {argv[0]}") from exc
        try:
            out, err = proc.communicate(timeout=self.timeout or DEFAULT_TIMEOUT)
        except subprocess.TimeoutExpired:
            _kill_tree(proc, own_session)
            proc.communicate()
            raise TimeoutError(
                f"the command did not finish in {self.timeout or DEFAULT_TIMEOUT:g} s and was killed"
            ) from None
        finally:
            if own_session or proc.returncode is None:  # interrupted, or own session: nothing it started outlives it
                _kill_tree(proc, own_session)
                proc.wait()
        _reflect_input_file(model, src, given)
        tail = (err or out or "").strip()[-1500:]
        said = f": {headline(tail)}\n{tail}" if tail else " (nothing on stdout or stderr)"
        if proc.returncode < 0:
            raise RuntimeError(f"killed by signal {_signal_name(-proc.returncode)}{said}")
        if proc.returncode != 0:
            raise PassDeclined(f"exit {proc.returncode}{said}")
        if not dst.is_file():
            raise RuntimeError(f"command exited 0 but wrote no {{out}} file{said}")
        try:
            return with_external_data(model_from_bytes(dst.read_bytes(), "the command's {out} file"), dst)
        except ModelLoadError as exc:
            raise RuntimeError(f"command exited 0 but its output is not a model: {exc}") from None


def _signal_name(number: int) -> str:
    """``11 (SIGSEGV)``; the number alone when this platform has no name for it."""
    import signal

    try:
        return f"{number} ({signal.Signals(number).name})"
    except ValueError:
        return str(number)


#: Named command recipes: ``cmd+fold:onnxsim`` is ``cmd+fold:'onnxsim {in} {out}'``. Name →
#: (template, the pip package that installs the command (pins in ci/tool-envs/<name>.txt),
#: whether the tool runs the model itself: onnxsim folds and checks with onnxruntime).
RECIPES = {
    "onnxsim": ("onnxsim {in} {out}", "onnxsim", True),
    "onnxslim": ("onnxslim {in} {out}", "onnxslim", False),
}


def recipe(name: str, folds_constants: bool = True) -> CommandAdapter:
    """The adapter of a named recipe, with id ``cmd+fold:<name>`` (or ``cmd:<name>``).

    Raises:
        KeyError: no recipe of that name (see :data:`RECIPES`).
    """
    template, package, runs_model = RECIPES[name]
    prefix = "cmd+fold:" if folds_constants else "cmd:"
    adapter = CommandAdapter(template, folds_constants=folds_constants, id=prefix + name, extra=package)
    adapter.needs_feeds = runs_model  # type: ignore[misc]
    adapter.doc = f"external command: {template} (recipe; pip install {package}, pins: ci/tool-envs/{name}.txt)"
    return adapter


def _reflect_input_file(model, src: Path, given: bytes) -> None:
    """The ``{in}`` file is the model the command was given: when the command rewrote or removed
    it, make ``model`` what the file now holds (empty if unreadable), so :meth:`PassAdapter.run`
    reports the mutation like any pass's."""
    from passcheck.errors import ModelLoadError
    from passcheck.modelio import model_from_bytes

    now = src.read_bytes() if src.is_file() else b""
    if now == given:
        return
    try:
        model.CopyFrom(model_from_bytes(now, "the command's {in} file"))
    except ModelLoadError:
        model.Clear()


def headline(text: str) -> str:
    """The line of a command's output that says what went wrong: after a Python traceback, its
    last unindented line (``ValueError: …``); otherwise the last non-empty line."""
    lines = [ln.rstrip() for ln in text.strip().splitlines() if ln.strip()]
    marks = [i for i, ln in enumerate(lines) if ln.startswith("Traceback (most recent call last)")]
    if marks:
        after = [ln for ln in lines[marks[-1] + 1 :] if not ln[:1].isspace() and not ln.startswith("^")]
        if after:
            return after[-1] if not re.match(r"\w[\w.]*(Error|Exception|Exit)\b", after[0]) else after[0]
    return lines[-1] if lines else ""


def resolve_command(program: str) -> str | None:
    """The executable ``program`` names: a path as given, else the first match in this
    interpreter's scripts folders (so a virtualenv's tools work without activating it), then
    PATH; None when there is none."""
    if os.sep in program or (os.altsep and os.altsep in program):
        return program if os.path.isfile(program) and os.access(program, os.X_OK) else None
    return shutil.which(program, path=_search_path())


def _search_path() -> str:
    first = [str(Path(sys.executable).parent), sysconfig.get_path("scripts")]
    return os.pathsep.join(dict.fromkeys(first + os.environ.get("PATH", os.defpath).split(os.pathsep)))


def _kill_tree(proc: subprocess.Popen, own_session: bool) -> None:
    """Kill the command and what it started (its session's group too when it leads one).

    Call before the command is reaped: its pid must still be its own."""
    if proc.returncode is None:
        kill_tree(proc.pid, group=own_session)
    elif own_session:  # reaped: its group may still hold what it left running
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
