"""Omitted trailing optional inputs ↔ empty names (ONNX IR spec, "Optional inputs and outputs":
an optional input may be left off the end of the input list or written as ``""``; seed 003 §1)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite, chosen, is_default_domain, node_label, opset
from passcheck.mutations._graph_edit import trim_trailing_empty

if TYPE_CHECKING:
    import onnx


def _next_slot_optional(node: onnx.NodeProto, version: int) -> bool:
    import onnx.defs

    try:
        schema = onnx.defs.get_schema(node.op_type, version, "")
    except onnx.defs.SchemaError:
        return False
    formal = schema.inputs
    k = len(node.input)
    return k < len(formal) and formal[k].option == onnx.defs.OpSchema.FormalParameterOption.Optional


def empty_name(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Write the first omitted trailing optional input of every node as ``""``."""
    version = opset(model)
    sites = []
    for i, n in enumerate(model.graph.node):
        if (
            chosen(only, node_label(n, i))
            and is_default_domain(n)
            and (not n.input or n.input[-1])
            and _next_slot_optional(n, version)
        ):
            n.input.append("")
            sites.append(node_label(n, i))
    return sites


def omitted(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Drop every trailing ``""`` input."""
    sites = []
    for i, n in enumerate(model.graph.node):
        if n.input and not n.input[-1] and chosen(only, node_label(n, i)):
            trim_trailing_empty(n.input)
            sites.append(node_label(n, i))
    return sites


REWRITES = (
    Rewrite(
        "empty-optional-input",
        'an omitted trailing optional input → an explicit empty name ""',
        empty_name,
        inverse="omitted-optional-input",
    ),
    Rewrite(
        "omitted-optional-input",
        'trailing empty-name ("") optional inputs → omitted',
        omitted,
        inverse="empty-optional-input",
    ),
)
