"""Where in the tool a crash happened: the innermost frame of the pass's own package in the
traceback, written into a crashed outcome's error (a line ``  tool frame: <module>:<function> (line N)``,
:data:`passcheck.signature.TOOL_FRAME`) so that a crash's signature tells two crashes with the same
message apart (:func:`passcheck.signature.crash_error`).

"The pass's own package" is the first distribution of the adapter's ``tools`` (``onnxscript`` for
``onnxscript:optimize``, ``onnxruntime`` for ``ort:*``), as the import names it installs
(:func:`importlib.metadata.packages_distributions`, read once per process).
"""

from __future__ import annotations

import functools
import importlib.metadata
import re
import traceback
from collections.abc import Sequence

from passcheck.signature import TOOL_FRAME


@functools.cache
def _modules_of() -> dict[str, frozenset[str]]:
    """Normalized distribution name → the top-level import names it installs."""
    out: dict[str, set[str]] = {}
    for module, dists in importlib.metadata.packages_distributions().items():
        for d in dists:
            out.setdefault(_norm(d), set()).add(module)
    return {k: frozenset(v) for k, v in out.items()}


def _norm(dist: str) -> str:
    return re.sub(r"[-_.]+", "-", dist).lower()


def packages(dist: str) -> frozenset[str]:
    """The top-level import names of distribution ``dist`` (``onnx-ir`` → ``{"onnx_ir"}``); its name
    spelled as a module when the installed metadata does not say (an absent tool)."""
    return _modules_of().get(_norm(dist)) or frozenset({dist.replace("-", "_").replace(".", "_")})


def tool_frame(chain: Sequence[BaseException], modules: frozenset[str]) -> str:
    """``module:function (line N)`` of the innermost frame whose module belongs to ``modules``, in the
    traceback of the innermost exception of ``chain`` that has one (``chain`` runs outermost to
    innermost, as :func:`passcheck.passes._base._describe` builds it); ``""`` when none does."""
    for exc in reversed(chain):
        found = ""
        for frame, line in traceback.walk_tb(exc.__traceback__):
            module = str(frame.f_globals.get("__name__", ""))
            if module.split(".", 1)[0] in modules:
                code = frame.f_code
                found = f"{module}:{getattr(code, 'co_qualname', code.co_name)} (line {line})"
        if found:
            return found
    return ""


def frame_line(chain: Sequence[BaseException], tools: Sequence[str]) -> str:
    """The ``tool frame`` line for a crash of a pass whose ``tools`` are given (first: its own
    package), with its newline; ``""`` when the pass names no tool or no frame of it is in the traceback."""
    if not tools:
        return ""
    found = tool_frame(chain, packages(tools[0]))
    return f"  {TOOL_FRAME}{found}\n" if found else ""
