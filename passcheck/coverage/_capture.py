"""What a native library writes to the process's standard-error file descriptor during a block.

onnxruntime's logger writes to ``std::cerr`` (fd 2), which Python's ``sys.stderr`` never sees;
the block redirects fd 2 itself to a temporary file and restores it after."""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from collections.abc import Iterator


@contextlib.contextmanager
def stderr_fd() -> Iterator[list[str]]:
    """Yield a list that holds, once the block ends, the text written to fd 2 during it."""
    out: list[str] = []
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as f:
        os.dup2(f.fileno(), 2)
        try:
            yield out
        finally:
            sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)
            f.seek(0)
            out.append(f.read().decode("utf-8", "replace"))
