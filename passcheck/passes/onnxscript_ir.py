"""Where the installed onnxscript keeps its IR, and what its ``optimize_for_ort`` returns.

Older onnxscript ships the IR inside itself: 0.1.0 has ``onnxscript.ir`` and no ``onnx-ir``
dependency, and its ``optimize_for_ort(model)`` rewrites the ``ir.Model`` in place and returns None.
Newer releases (0.3.2 and 0.7.2 checked) import the ``onnx-ir`` distribution (``onnx_ir``) and
``optimize_for_ort`` / ``fuse_xformers`` return ``(model, fusion counts)`` (onnxscript's own
``rewriter/ort_fusions/_core.py`` in each release). Feature-detected, never keyed on a version.
"""

from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType

from passcheck._versions import tool_version

#: The IR module names, newest first: the onnx-ir distribution, then the copy older onnxscript bundles.
IR_MODULES = ("onnx_ir", "onnxscript.ir")


def ir_module_name() -> str | None:
    """The import name of the IR the installed onnxscript uses (``onnx_ir`` when the onnx-ir
    distribution is installed, else ``onnxscript.ir`` when onnxscript bundles it), or None when
    neither exists. Finds the module without importing it."""
    if tool_version("onnx-ir") is not None and importlib.util.find_spec("onnx_ir") is not None:
        return "onnx_ir"
    if tool_version("onnxscript") is not None and importlib.util.find_spec("onnxscript.ir") is not None:
        return "onnxscript.ir"
    return None


def ir_module() -> ModuleType:
    """The IR module (see :func:`ir_module_name`).

    Raises:
        ImportError: neither ``onnx_ir`` nor ``onnxscript.ir`` is installed.
    """
    name = ir_module_name()
    if name is None:
        raise ImportError("neither onnx-ir nor an onnxscript bundling onnxscript.ir is installed")
    return importlib.import_module(name)


def missing_reason() -> str | None:
    """Why onnxscript's passes cannot run here (onnxscript missing, or no IR module), or None."""
    if tool_version("onnxscript") is None:
        return "onnxscript is not installed"
    if ir_module_name() is None:
        return "onnx-ir is not installed (and this onnxscript bundles no onnxscript.ir)"
    return None


def fused_model(result, model):
    """The model ``optimize_for_ort``/``fuse_xformers`` left: the first item of the
    ``(model, counts)`` newer releases return, else ``model`` itself, rewritten in
    place (onnxscript 0.1.0 returns None)."""
    return result[0] if isinstance(result, tuple) else model


def fusion_counts(result) -> dict[str, int] | None:
    """The fusion counts ``(model, counts)`` carries, or None where the release returns none
    (onnxscript 0.1.0)."""
    return dict(result[1]) if isinstance(result, tuple) and len(result) > 1 else None
