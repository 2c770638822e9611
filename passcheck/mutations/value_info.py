"""value_info stripped ↔ filled by shape inference (ONNX IR spec, "Graphs": value_info is optional
information about intermediate values; it does not change what the graph computes)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite

if TYPE_CHECKING:
    import onnx


def strip(model: "onnx.ModelProto") -> list[str]:
    """Remove every value_info entry of the main graph."""
    names = [v.name for v in model.graph.value_info]
    del model.graph.value_info[:]
    return names


def infer(model: "onnx.ModelProto") -> list[str]:
    """Add value_info for every main-graph value onnx shape inference types and the model does not annotate."""
    import onnx

    try:
        inferred = onnx.shape_inference.infer_shapes(model)
    except Exception:  # noqa: BLE001 - inference fails on this model: nothing to add
        return []
    g = model.graph
    have = {v.name for v in list(g.value_info) + list(g.input) + list(g.output)} | {t.name for t in g.initializer}
    new = [v for v in inferred.graph.value_info if v.name not in have]
    g.value_info.extend(new)
    return [v.name for v in new]


REWRITES = (
    Rewrite("no-value-info", "value_info entries → stripped", strip, inverse="inferred-value-info", detail="values"),
    Rewrite("inferred-value-info", "unannotated intermediate values → value_info filled by onnx shape inference", infer, inverse="no-value-info", detail="values"),
)
