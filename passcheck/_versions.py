"""Exact versions of the tools under test, read without importing them."""

from __future__ import annotations

import functools
import importlib.metadata
import platform
import re

TOOLS = ("onnx", "onnxruntime", "onnxscript", "onnx-ir", "numpy")


@functools.cache
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


def beyond_installed_onnx(model) -> str | None:
    """Why the installed onnx cannot represent ``model``, or None.

    A model whose ``ir_version`` is above ``onnx.IR_VERSION``, or that imports an opset of a
    domain onnx knows (``ai.onnx``, ``ai.onnx.ml``, …) above the highest version this onnx
    defines (``onnx.defs`` schema version map), was written for a newer onnx: this environment's
    checker, shape inference and the onnxruntime built against it are not expected to take it
    (ONNX IR spec, "Versioning"). Such a form is ``unavailable`` here, not a finding. Domains
    onnx does not define (``com.microsoft``, custom ones) are not bounded.
    """
    import onnx
    from onnx import defs

    if model.ir_version > onnx.IR_VERSION:
        return f"the form has IR version {model.ir_version}; onnx {onnx.__version__} here defines IR versions up to {onnx.IR_VERSION}"
    ranges = defs.C.schema_version_map()
    for imp in model.opset_import:
        domain = "" if imp.domain == "ai.onnx" else imp.domain
        if domain in ranges and imp.version > ranges[domain][1]:
            name = domain or "ai.onnx"
            return f"the form imports {name} opset {imp.version}; onnx {onnx.__version__} here defines {name} opsets up to {ranges[domain][1]}"
    return None


# Oldest IR version that allows each default-domain opset (onnx/onnx docs/Versioning.md,
# "Released Versions" table). Models use the oldest so older runtimes load them.
_OPSET_TO_IR = [(7, 3), (9, 4), (10, 5), (11, 6), (12, 7), (15, 8), (19, 9), (21, 10), (23, 11), (25, 12)]


def ir_version_for(opset: int) -> int:
    """The oldest ir_version whose release allows default-domain ``opset``.

    Raises:
        ValueError: for an opset below 7, which passcheck does not build.
    """
    if opset < 7:
        raise ValueError(f"opset {opset} is older than passcheck builds (7)")
    ir = 3
    for first_opset, version in _OPSET_TO_IR:
        if opset >= first_opset:
            ir = version
    return ir


def version_tuple(text: str) -> tuple[int, ...]:
    """``"1.23.2"`` → ``(1, 23, 2)``; pre-release and local suffixes are dropped."""
    return tuple(int(p) for p in re.findall(r"\d+", text.split("+")[0])[:3])


@functools.cache
def max_supported_opset() -> int:
    """The newest default-domain opset the installed onnx knows."""
    import onnx.defs

    return onnx.defs.onnx_opset_version()
