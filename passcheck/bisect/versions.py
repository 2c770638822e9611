"""Released versions of a package in a range, read from the package index pip is configured for."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Sequence

from passcheck.errors import PasscheckError

#: The packages whose versions a finding can be bisected over (the tools under test).
PACKAGES = ("onnxruntime", "onnx", "onnxscript", "onnx-ir")


def in_range(available: Sequence[str], lo: str | None, hi: str | None) -> list[str]:
    """Final releases of ``available`` with ``lo`` ≤ version ≤ ``hi``, oldest first.

    A bound with fewer parts is a prefix: ``--from 1.20 --to 1.32`` keeps 1.20.0 … 1.32.x.
    Pre-releases, dev and local versions are left out.

    Raises:
        PasscheckError: a bound is not a version.
    """
    from packaging.version import InvalidVersion, Version

    def bound(text: str | None, upper: bool):
        if text is None:
            return None
        try:
            v = Version(text)
        except InvalidVersion:
            raise PasscheckError(f"{'--to' if upper else '--from'} {text!r}: not a version") from None
        return (v.release + (10**9,)) if upper else v.release

    low, high = bound(lo, False), bound(hi, True)
    keep = []
    for text in available:
        try:
            v = Version(text)
        except InvalidVersion:
            continue
        if v.is_prerelease or v.is_devrelease or v.local:
            continue
        if (low is None or v.release >= low) and (high is None or v.release <= high):
            keep.append(v)
    return [str(v) for v in sorted(set(keep))]


def released(package: str) -> list[str]:
    """Every version of ``package`` the configured index offers for this Python, newest first
    (``pip index versions``, so pip.conf / PIP_INDEX_URL / find-links apply).

    Raises:
        PasscheckError: pip could not list them (no index reachable, unknown package); the
            message says to give ``--versions`` instead.
    """
    try:
        p = subprocess.run(
            [sys.executable, "-m", "pip", "index", "versions", package], capture_output=True, text=True, timeout=300
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise PasscheckError(
            f"cannot list the versions of {package} ({exc}); give them with --versions A,B,C"
        ) from None
    m = re.search(r"^Available versions:\s*(.+)$", p.stdout, re.MULTILINE)
    if p.returncode or not m:
        last = (p.stderr.strip().splitlines() or [f"exit {p.returncode}"])[-1]
        raise PasscheckError(
            f"cannot list the versions of {package} with pip ({last}); give them with --versions A,B,C"
        )
    return [v.strip() for v in m.group(1).split(",") if v.strip()]


def pinned(package: str, envs_dir=None) -> list[str]:
    """The versions of ``package`` the pinned environments name (``ci/envs/*.txt``, or ``envs_dir``), oldest
    first: what ``passcheck triage --bisect`` bisects over, so only environments the matrix already builds are built.

    Raises:
        PasscheckError: there is no pinned environments folder.
    """
    from packaging.utils import canonicalize_name
    from packaging.version import Version

    from passcheck.matrix.envs import load_all

    found = set()
    for spec in load_all(envs_dir):
        for pin in spec.pins:
            name, sep, version = pin.partition("==")
            if sep and canonicalize_name(name) == canonicalize_name(package):
                found.add(version)
    return sorted(found, key=Version)
