"""value_info stripped ↔ filled by shape inference (ONNX IR spec, "Graphs": value_info is optional
information about intermediate values, in every graph, If/Loop/Scan bodies included; it does not change
what the graph computes). Sites are value names (unique model-wide, IR.md §Nodes); function bodies'
value_info is :mod:`passcheck.mutations.function_types`'."""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite, chosen
from passcheck.mutations._scopes import scopes
from passcheck.runtime import isolated_tools

if TYPE_CHECKING:
    import onnx


def strip(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Remove every value_info entry of the main graph and of each subgraph (sites: the value names)."""
    names = []
    for scope in scopes(model, functions=False):
        g = scope.body
        names += [v.name for v in g.value_info if chosen(only, v.name)]
        keep = [v for v in g.value_info if not chosen(only, v.name)]
        del g.value_info[:]
        g.value_info.extend(keep)
    return names


def infer(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Add value_info for every value of the main graph and of each subgraph that onnx shape inference types
    and the graph does not annotate (a subgraph's entries go into that subgraph)."""

    try:
        inferred = isolated_tools.infer_shapes(model)
    except Exception:  # noqa: BLE001 - inference fails on this model: nothing to add
        return []
    names = []
    for scope, done in zip(scopes(model, functions=False), scopes(inferred, functions=False), strict=True):
        g = scope.body
        have = {v.name for v in [*g.value_info, *g.input, *g.output]} | {t.name for t in g.initializer}
        new = [v for v in done.body.value_info if v.name not in have and chosen(only, v.name)]
        g.value_info.extend(new)
        names += [v.name for v in new]
    return names


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
