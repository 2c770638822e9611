"""Where passcheck keeps what it builds once (generated cases, onnx's node tests).

``$PASSCHECK_CACHE``, else ``$XDG_CACHE_HOME/passcheck``, else ``~/.cache/passcheck``.
"""

from __future__ import annotations

import os
from pathlib import Path


def cache_root() -> Path:
    """The cache folder passcheck's built sets live under (not necessarily present)."""
    return Path(
        os.environ.get("PASSCHECK_CACHE")
        or os.path.join(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache", "passcheck")
    )
