"""Version facts the case machinery needs: opset ↔ ir_version, what onnx knows."""

from __future__ import annotations

import functools
import re

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


@functools.lru_cache(maxsize=None)
def max_supported_opset() -> int:
    """The newest default-domain opset the installed onnx knows."""
    import onnx.defs

    return onnx.defs.onnx_opset_version()
