"""What a native library writes to the process's standard-error file descriptor during a block
(:func:`passcheck.passes.ort_log.stderr_fd`, kept here under its old name for the coverage modules)."""

from passcheck.passes.ort_log import stderr_fd

__all__ = ["stderr_fd"]
