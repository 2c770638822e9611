"""Ctrl-C (SIGINT), SIGTERM and --timeout leave nothing behind, whatever the command (issue 12.6):
exit 130 on a signal, no process passcheck started still running (a `cmd:` pass's own children
included), nothing left in the temporary folder.

Every passcheck process gets a private TMPDIR and a unique token in its environment; descendants
inherit both, so the process table (/proc/*/environ) and the folder tell what was left.
"""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import textwrap
import time
import uuid
from pathlib import Path

import onnx
import pytest
from onnx import TensorProto, helper

REPO = Path(__file__).resolve().parents[2]
#: A pass command that starts a long-lived child of its own, says so in a marker file, and hangs.
TOOL = textwrap.dedent("""
    import os, subprocess, sys, time
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(1000)"])
    open(os.environ["LEAK_MARKER"], "a").write(f"{os.getpid()} {child.pid}\\n")
    time.sleep(1000)
""")

pytestmark = pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="reads the process table from /proc")


def _until(cond, seconds: float, what: str):
    """Poll ``cond`` until it is true (returned) or ``seconds`` pass (AssertionError)."""
    deadline = time.monotonic() + seconds
    while True:
        value = cond()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {seconds:g} s for {what}")
        time.sleep(0.1)


def _processes_with(token: str) -> list[str]:
    """Live (not zombie) processes whose environment holds ``token``, as "pid cmdline"."""
    found = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            if token.encode() not in Path(entry.path, "environ").read_bytes():
                continue
            state = Path(entry.path, "stat").read_bytes().rsplit(b")", 1)[1].split()[0]
            cmd = Path(entry.path, "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if state != b"Z":
            found.append(f"{entry.name} {cmd[:200]}")
    return found


def _relu(path: Path) -> Path:
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 3])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 3])
    m = helper.make_model(
        helper.make_graph([helper.make_node("Relu", ["x"], ["y"])], "g", [x], [y]),
        opset_imports=[helper.make_opsetid("", 18)],
    )
    m.ir_version = 8
    onnx.save(m, str(path))
    return path


class Sandbox:
    """A passcheck subprocess with a private TMPDIR and a token, and the checks that follow it."""

    def __init__(self, tmp: Path):
        self.tmp = tmp
        self.tmpdir = tmp / "tmpdir"
        self.tmpdir.mkdir()
        self.token = f"passcheck-leak-{uuid.uuid4().hex}"
        self.marker = tmp / "tool-started"
        (tmp / "tool.py").write_text(TOOL)
        self.cmd_pass = f"cmd:{sys.executable} {tmp / 'tool.py'} {{in}} {{out}}"
        self.env = {**os.environ, "TMPDIR": str(self.tmpdir), "LEAK_TOKEN": self.token, "LEAK_MARKER": str(self.marker)}

    def start(self, *args: str) -> subprocess.Popen:
        return subprocess.Popen(
            [sys.executable, "-m", "passcheck", *args],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            cwd=self.tmp,
            env=self.env,
        )

    def wait_for_tool(self, proc: subprocess.Popen) -> None:
        """Until the planted command and its child run (or passcheck ended: then fail with its stderr)."""
        _until(
            lambda: self.marker.exists() and self.marker.read_text().strip() or proc.poll() is not None,
            300,
            "the planted command to start",
        )
        assert proc.poll() is None, proc.stderr.read()

    def assert_clean(self) -> None:
        """No process left, nothing of passcheck's left in TMPDIR.

        ``.ses`` is onnxruntime's own file: ``import onnxruntime`` writes ``$TMPDIR/.ses`` in any
        process (passcheck's or an isolation worker, whichever imports it first), and keeps it
        by design; it is not passcheck's to remove."""
        try:
            _until(lambda: not _processes_with(self.token), 60, "passcheck's processes to end")
        except AssertionError:
            raise AssertionError(f"processes left running: {_processes_with(self.token)}") from None
        allowed = {".ses"}
        assert sorted(p.name for p in self.tmpdir.iterdir() if p.name not in allowed) == [], (
            "left in the temporary folder"
        )


@pytest.fixture
def box(tmp_path):
    return Sandbox(tmp_path)


def _interrupt(box: Sandbox, proc: subprocess.Popen, sig: int) -> str:
    box.wait_for_tool(proc)
    proc.send_signal(sig)
    err = proc.communicate(timeout=120)[1]
    assert proc.returncode == 130, err
    assert "Traceback" not in err, err
    return err


def _command(box: Sandbox, which: str) -> list[str]:
    model = _relu(box.tmp / "m.onnx")
    if which == "run":
        return ["run", "--case", "constant/pad-pads-opset17", "--pass", box.cmd_pass, "--json", str(box.tmp / "r.json")]
    if which == "run --no-isolation":
        return [
            "run",
            "--case",
            "constant/pad-pads-opset17",
            "--pass",
            box.cmd_pass,
            "--no-isolation",
            "--json",
            str(box.tmp / "r.json"),
        ]
    if which == "check":
        return ["check", str(model), "--pass", box.cmd_pass, "--json", str(box.tmp / "r.json")]
    if which == "compare":
        return [
            "compare",
            str(model),
            str(_relu(box.tmp / "m2.onnx")),
            "--pass",
            box.cmd_pass,
            "--json",
            str(box.tmp / "r.json"),
        ]
    raise AssertionError(which)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
@pytest.mark.parametrize("which", ["run", "run --no-isolation", "check", "compare"])
def test_signal_while_a_cmd_pass_runs_leaves_nothing(box, which, sig):
    proc = box.start(*_command(box, which))
    _interrupt(box, proc, sig)
    box.assert_clean()
    if which != "compare":  # run and check write what they had as a partial report
        assert '"partial": true' in (box.tmp / "r.json").read_text()


@pytest.mark.parametrize("which", ["run", "check"])
def test_timeout_of_a_cmd_pass_leaves_nothing(box, which):
    argv = _command(box, which)
    if which == "run":  # a case of two forms, the fewest a case has: the timeout is waited out once per form
        argv[argv.index("constant/pad-pads-opset17")] = "optional-input/conv-bn"
    proc = box.start(*argv, "--timeout", "5")
    err = proc.communicate(timeout=600)[1]
    assert proc.returncode == 1, err  # the timeouts are findings
    assert '"timeout"' in (box.tmp / "r.json").read_text()
    box.assert_clean()


def _fifo(path: Path) -> Path:
    os.mkfifo(path)
    assert stat.S_ISFIFO(path.stat().st_mode)
    return path


def _writer_for_waiting_reader(path: Path) -> int | None:
    """Once a process has the FIFO open for reading, a write end (kept open, writing nothing, so
    the reader blocks in read until it is interrupted); None before (opening fails with ENXIO)."""
    try:
        return os.open(path, os.O_WRONLY | os.O_NONBLOCK)
    except OSError:
        return None


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
@pytest.mark.parametrize("which", ["check", "compare", "mutate", "annotations", "show"])
def test_signal_while_reading_input_exits_130(box, which, sig):
    """Every command stops the same way on either signal, even before it started any work
    (a model that is a FIFO nobody writes keeps it reading)."""
    model = _relu(box.tmp / "m.onnx")
    fifo = _fifo(box.tmp / "slow.onnx")
    args = {
        "check": ["check", str(fifo)],
        "compare": ["compare", str(model), str(fifo)],
        "mutate": ["mutate", str(fifo), "--out", str(box.tmp / "o")],
        "annotations": ["annotations", str(fifo)],
        "show": ["show", str(fifo)],
    }[which]
    proc = box.start(*args)
    writer = _until(
        lambda: _writer_for_waiting_reader(fifo) or proc.poll() is not None, 300, f"passcheck {which} to open its input"
    )
    try:
        assert proc.poll() is None, proc.stderr.read()
        proc.send_signal(sig)
        err = proc.communicate(timeout=120)[1]
    finally:
        if writer is not True:
            os.close(writer)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "interrupted" in err, err
    box.assert_clean()


def _tgkill(pid: int, tid: int, sig: int) -> None:
    """Send ``sig`` to thread ``tid`` of process ``pid`` (what the kernel may do with a signal sent
    to the process: any thread not blocking it may take it)."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    if not hasattr(libc, "tgkill"):
        pytest.skip("libc has no tgkill")
    if libc.tgkill(pid, tid, sig) != 0:
        raise OSError(ctypes.get_errno(), f"tgkill({pid}, {tid}, {sig})")


def _waiting_on(pid: int, fifo: Path) -> bool:
    """Whether process ``pid`` waits for ``fifo``: has it open, or its main thread sleeps in the
    kernel opening it (no writer yet)."""
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            if os.readlink(f"/proc/{pid}/fd/{fd}") == str(fifo):
                return True
        except OSError:
            continue
    try:
        return Path(f"/proc/{pid}/wchan").read_text() == "wait_for_partner"
    except OSError:
        return False


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
@pytest.mark.parametrize("which", ["check", "compare"])
def test_signal_taken_by_another_thread_while_reading_input_exits_130(box, which, sig):
    """The signal lands on a thread other than the main one (numpy's BLAS starts one) while the
    main thread waits for a FIFO nobody writes: Python runs the handler only when the main thread
    runs bytecode, so a main thread blocked in open() or read() in C would wait forever."""
    model = _relu(box.tmp / "m.onnx")
    fifo = _fifo(box.tmp / "slow.onnx")
    proc = box.start(*(["check", str(fifo)] if which == "check" else ["compare", str(model), str(fifo)]))
    try:
        _until(
            lambda: proc.poll() is not None or _waiting_on(proc.pid, fifo),
            300,
            f"passcheck {which} to wait for its input",
        )
        assert proc.poll() is None, proc.stderr.read()
        others = [int(t) for t in os.listdir(f"/proc/{proc.pid}/task") if int(t) != proc.pid]
        if not others:
            pytest.skip("passcheck runs a single thread here: the signal always reaches the main thread")
        _tgkill(proc.pid, others[0], sig)
        err = proc.communicate(timeout=60)[1]
    except subprocess.TimeoutExpired:
        raise AssertionError(f"passcheck {which} did not stop within 60 s of the signal") from None
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "interrupted" in err, err
    box.assert_clean()


@pytest.mark.matrix
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_matrix_signal_while_a_cmd_pass_runs_in_an_env_leaves_nothing(box, sig):
    out = box.tmp / "mx"
    proc = box.start(
        "matrix",
        "--env",
        "onnx-1.23",
        "--case",
        "optional-input/conv-bn",
        "--pass",
        box.cmd_pass,
        "--out",
        str(out),
        "--source",
        str(REPO),
        "--envs-dir",
        str(REPO / "ci" / "envs"),
        "--progress",
        "lines",
    )
    _interrupt(box, proc, sig)
    box.assert_clean()
    assert (out / "report.json").is_file()


@pytest.mark.matrix
def test_matrix_timeout_of_a_cmd_pass_leaves_nothing(box):
    out = box.tmp / "mx"
    proc = box.start(
        "matrix",
        "--env",
        "onnx-1.23",
        "--case",
        "optional-input/conv-bn",
        "--pass",
        box.cmd_pass,
        "--out",
        str(out),
        "--source",
        str(REPO),
        "--envs-dir",
        str(REPO / "ci" / "envs"),
        "--progress",
        "lines",
        "--timeout",
        "10",
    )
    err = proc.communicate(timeout=600)[1]
    assert proc.returncode == 1, err
    assert '"timeout"' in (out / "report.json").read_text()
    box.assert_clean()


@pytest.mark.matrix
def test_matrix_signal_while_uv_creates_the_environment_leaves_nothing(box):
    """Ctrl-C while uv installs the pins: uv is killed too (it runs in a session of its own, so the
    terminal's Ctrl-C would not reach it), and the half-made environment is redone next time."""
    cache = box.tmp / "cache"
    box.env["PASSCHECK_CACHE"] = str(cache)
    proc = box.start(
        "matrix",
        "--env",
        "onnx-1.23",
        "--case",
        "constant/pad-pads-opset17",
        "--out",
        str(box.tmp / "mx"),
        "--source",
        str(REPO),
        "--envs-dir",
        str(REPO / "ci" / "envs"),
        "--progress",
        "lines",
    )

    def installing() -> bool:
        return any("pip install" in log.read_text() for log in cache.glob("envs/onnx-1.23-*.log"))

    _until(lambda: installing() or proc.poll() is not None, 300, "uv to start installing")
    assert proc.poll() is None, proc.stderr.read()
    proc.send_signal(signal.SIGINT)
    err = proc.communicate(timeout=120)[1]
    assert proc.returncode == 130 and "Traceback" not in err, err
    box.assert_clean()
    assert not list(cache.glob("envs/onnx-1.23-*/.passcheck-pins")), "an interrupted environment must not look complete"


def test_a_signal_whose_interrupt_is_dropped_in_a_finalizer_still_stops_the_command(monkeypatch):
    """Python drops an exception raised in ``__del__`` (it only reports it): a Ctrl-C that lands
    there would be lost and the run would finish with exit 0/1. The latch raises it again."""
    from passcheck import interrupts

    dropped = []
    monkeypatch.setattr(sys, "unraisablehook", lambda u: dropped.append(u.exc_type))

    class SignalsItself:
        def __del__(self):
            os.kill(os.getpid(), signal.SIGTERM)
            for _ in range(10_000):  # the handler runs in here; its KeyboardInterrupt is dropped
                pass

    before = signal.getsignal(signal.SIGTERM)
    with pytest.raises(KeyboardInterrupt):
        with interrupts.handled():
            SignalsItself()
            assert dropped == [KeyboardInterrupt] and interrupts.received() == signal.SIGTERM
            interrupts.check()
    assert interrupts.received() is None and signal.getsignal(signal.SIGTERM) is before
