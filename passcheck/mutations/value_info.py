"""value_info stripped ↔ filled by shape inference (ONNX IR spec, "Graphs": value_info is optional
information about intermediate values; it does not change what the graph computes)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite, chosen

if TYPE_CHECKING:
    import onnx


def strip(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Remove every value_info entry of the main graph (sites: the value names)."""
    g = model.graph
    names = [v.name for v in g.value_info if chosen(only, v.name)]
    keep = [v for v in g.value_info if not chosen(only, v.name)]
    del g.value_info[:]
    g.value_info.extend(keep)
    return names


def infer(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Add value_info for every main-graph value onnx shape inference types and the model does not annotate."""
    import onnx

    try:
        inferred = onnx.shape_inference.infer_shapes(model)
    except Exception:  # noqa: BLE001 - inference fails on this model: nothing to add
        return []
    g = model.graph
    have = {v.name for v in list(g.value_info) + list(g.input) + list(g.output)} | {t.name for t in g.initializer}
    new = [v for v in inferred.graph.value_info if v.name not in have and chosen(only, v.name)]
    g.value_info.extend(new)
    return [v.name for v in new]


REWRITES = (
    Rewrite("no-value-info", "value_info entries → stripped", strip, inverse="inferred-value-info", detail="values"),
    Rewrite(
        "inferred-value-info",
        "unannotated intermediate values → value_info filled by onnx shape inference",
        infer,
        inverse="no-value-info",
        detail="values",
    ),
)
