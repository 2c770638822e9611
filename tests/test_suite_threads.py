"""The suite's processes run numpy's matrix products on one OpenBLAS thread (tests/conftest.py): a process a
test starts, like an xdist worker, inherits the setting and loads numpy with no BLAS thread pool."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

#: the threads of a fresh Python process once numpy (and its OpenBLAS) is loaded
THREADS_AFTER_NUMPY = "import os, numpy; print(len(os.listdir('/proc/self/task')))"


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="counts threads through Linux's /proc")
def test_a_process_started_from_a_test_loads_numpy_without_a_blas_thread_pool():
    if os.environ.get("OPENBLAS_NUM_THREADS", "1") != "1":
        pytest.skip(f"this run asked for OPENBLAS_NUM_THREADS={os.environ['OPENBLAS_NUM_THREADS']}")
    out = subprocess.run([sys.executable, "-c", THREADS_AFTER_NUMPY], capture_output=True, text=True, check=True)
    assert int(out.stdout) == 1
