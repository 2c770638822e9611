"""After SIGINT/SIGTERM, an exception a finalizer raises at teardown is reported in one line, not as a
traceback (passcheck/interrupts.py): a signal landing inside multiprocessing's ``Finalize`` constructor
leaves a callback that raises AttributeError when its object dies (seen under load in
tests/reliability/test_resume.py)."""

from __future__ import annotations

import subprocess
import sys

SCRIPT = """
import signal, weakref
from passcheck import interrupts

class Watched:
    pass

def broken(_ref):
    raise AttributeError("'Finalize' object has no attribute '_key'")

with interrupts.handled():
    try:
        signal.raise_signal(signal.SIGTERM)
    except KeyboardInterrupt:
        pass
    obj = Watched()
    ref = weakref.ref(obj, broken)
    del obj  # the callback fails: an unraisable exception
"""


def test_an_exception_a_finalizer_raises_after_an_interrupt_is_one_line():
    r = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr, r.stderr
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("passcheck: while stopping: ") and "_key" in lines[0], lines


def test_without_an_interrupt_python_s_own_report_stands():
    script = SCRIPT.replace("signal.raise_signal(signal.SIGTERM)", "pass")
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert "Traceback" in r.stderr and "passcheck: while stopping" not in r.stderr, r.stderr
