""":func:`passcheck.oracles.ort_levels.registered` reads onnxruntime's verbose log (file descriptor 2)
in an isolation worker: the calling process's standard error is never redirected, so what it writes
during the probe (a front door's progress lines) reaches its stderr."""

from __future__ import annotations

import re
import subprocess
import sys

#: A fresh interpreter (its own cache, its own fd 2): a thread writes numbered lines to stderr while
#: ``registered()`` runs; prints (lines written, lines written during the probe, probe answered).
#: The writer's short wait only paces it (a few hundred lines, not millions); nothing depends on it.
PROBE = """
import sys, threading
from passcheck.oracles import ort_levels

stop, probing = threading.Event(), threading.Event()
written, during = [], []


def write():
    i = 0
    while not stop.is_set():
        sys.stderr.write(f"progress {i}\\n")
        sys.stderr.flush()
        written.append(i)
        if probing.is_set():
            during.append(i)
        i += 1
        stop.wait(0.002)


probing.set()
writer = threading.Thread(target=write)
writer.start()
got = ort_levels.registered()
probing.clear()
stop.set()
writer.join()
print(len(written), len(during), got is not None)
"""


def test_stderr_written_by_the_caller_during_the_probe_is_kept():
    proc = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    written, during, answered = proc.stdout.split()
    assert answered == "True" and int(during) >= 1
    seen = {int(n) for n in re.findall(r"^progress (\d+)$", proc.stderr, re.M)}
    assert seen == set(range(int(written))), f"lost: {sorted(set(range(int(written))) - seen)[:20]}"
    assert "GraphTransformer" not in proc.stderr  # the sessions' verbose log stays in the worker


def test_the_probe_is_read_once_per_onnxruntime_version():
    from passcheck.oracles import ort_levels

    first = ort_levels.registered()
    assert first is not None and first == ort_levels.registered()
    assert ort_levels._registered.cache_info().currsize == 1
    assert ort_levels._registered(None) is None  # no onnxruntime: nothing concluded, no worker
