"""Exact versions of the tools under test, read without importing them."""

from __future__ import annotations

import functools
import importlib.metadata
import platform

TOOLS = ("onnx", "onnxruntime", "onnxscript", "onnx-ir", "numpy")


@functools.lru_cache(maxsize=None)
def tool_version(dist: str) -> str | None:
    """Return the installed version of distribution ``dist``, or None when absent."""
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None


def environment() -> dict[str, str | None]:
    """The versions recorded with every result: python, passcheck and each tool in TOOLS."""
    from passcheck import __version__

    env: dict[str, str | None] = {"python": platform.python_version(), "passcheck": __version__}
    env.update({t: tool_version(t) for t in TOOLS})
    return env
