"""The coverage functions that run inside the isolation worker (``IsolatedExecutor.call``): they
import the tools under test, open sessions and patch tool classes for the duration of a call, so
passcheck's own process never does.

Each function takes a model first (``call``'s contract); the catalogue readers use it as the
small model the tools are asked about (their lists do not depend on it).
"""

from __future__ import annotations

import importlib
import traceback
from typing import Any

#: Tool → module of :mod:`passcheck.coverage` holding its ``triggers(model)``.
MODULES = {
    "onnxruntime": "passcheck.coverage.ort",
    "onnxscript": "passcheck.coverage.onnxscript",
    "onnx-shape-inference": "passcheck.coverage.shapes",
    "onnx-version-converter": "passcheck.coverage.converter",
    "ort-symbolic-shape-infer": "passcheck.coverage.symbolic",
    "onnx-ir": "passcheck.coverage.onnx_ir",
    "onnx-inliner": "passcheck.coverage.inliner",
    "ort-transformers": "passcheck.coverage.ort_fusions",
    "onnxslim": "passcheck.coverage.onnxslim",
    "onnxoptimizer": "passcheck.coverage.onnxoptimizer",
    "ort-precision": "passcheck.coverage.ort_precision",
}


def read_catalogue(model, tools: list[str]) -> dict[str, Any]:
    """Tool → list of entry dicts (or ``{"error": text}`` when the tool cannot be read here)."""
    from passcheck.coverage import onnxscript, ort, ort_fusions

    out: dict[str, Any] = {}
    for tool in tools:
        try:
            mod = importlib.import_module(MODULES[tool])
            if tool == "onnxruntime":
                entries = ort.catalogue(ort.logged_names(model))
            elif tool == "onnxscript":
                entries = onnxscript.catalogue(onnxscript.fusion_names())
            elif tool == "ort-transformers":
                entries = ort_fusions.catalogue(ort_fusions.fusions(model))
            else:
                entries = mod.catalogue()
            out[tool] = [e.to_json() for e in entries]
        except Exception as exc:  # noqa: BLE001 - a tool missing or failing here: its catalogue is unavailable, with why
            out[tool] = {"error": f"{type(exc).__name__}: {exc}"}
    return out


def observe(model, tools: list[str], others: list[bytes] = ()) -> list[dict[str, dict[str, str]]]:
    """For ``model`` then each serialized model of ``others``: tool → {entry key: effect}; a tool
    that raised on a model gives ``{"!error": text}`` for it."""
    import onnx

    out = []
    for m in [model, *(onnx.ModelProto.FromString(b) for b in others)]:
        per: dict[str, dict[str, str]] = {}
        for tool in tools:
            try:
                per[tool] = importlib.import_module(MODULES[tool]).triggers(m)
            except Exception as exc:  # noqa: BLE001 - the base does not load in this tool: no evidence, and why
                last = traceback.extract_tb(exc.__traceback__)[-1:]
                where = f" ({last[0].name})" if last else ""
                first = str(exc).splitlines()[0][:200] if str(exc) else ""
                per[tool] = {"!error": f"{type(exc).__name__}: {first}{where}"}
        out.append(per)
    return out


def tiny_model():
    """The one-node model the catalogue readers are given (Identity, opset 13, IR 8)."""
    from onnx import TensorProto, helper

    x, y = (helper.make_tensor_value_info(n, TensorProto.FLOAT, [2]) for n in "xy")
    graph = helper.make_graph([helper.make_node("Identity", ["x"], ["y"])], "g", [x], [y])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=8)
