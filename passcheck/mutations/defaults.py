"""Attributes at their default value written explicitly ↔ omitted (ONNX IR spec, "Attributes": an
omitted attribute takes the default the operator schema declares)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite, chosen, is_default_domain, node_label, opset

if TYPE_CHECKING:
    import onnx


def _defaults(node: onnx.NodeProto, version: int) -> dict[str, onnx.AttributeProto]:
    """Attribute name → the schema's default (scalars, strings and lists only)."""
    import onnx
    import onnx.defs

    if not is_default_domain(node) or node.op_type == "Constant":
        return {}
    try:
        schema = onnx.defs.get_schema(node.op_type, version, "")
    except onnx.defs.SchemaError:
        return {}
    A = onnx.AttributeProto
    keep = (A.FLOAT, A.INT, A.STRING, A.FLOATS, A.INTS, A.STRINGS)
    return {
        name: a.default_value
        for name, a in sorted(schema.attributes.items())
        if a.default_value.type in keep and a.default_value.type != A.UNDEFINED
    }


def _same(a: onnx.AttributeProto, b: onnx.AttributeProto) -> bool:
    import onnx

    return a.type == b.type and onnx.helper.get_attribute_value(a) == onnx.helper.get_attribute_value(b)


def explicit(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Write every omitted attribute that has a schema default, with that default."""
    version = opset(model)
    sites = []
    for i, n in enumerate(model.graph.node):
        if not chosen(only, node_label(n, i)):
            continue
        present = {a.name for a in n.attribute}
        missing = [d for name, d in _defaults(n, version).items() if name not in present]
        if missing:
            for d in missing:
                n.attribute.add().CopyFrom(d)
            sites.append(node_label(n, i))
    return sites


def omitted(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Remove every attribute whose value equals the schema default."""
    version = opset(model)
    sites = []
    for i, n in enumerate(model.graph.node):
        if not chosen(only, node_label(n, i)):
            continue
        defaults = _defaults(n, version)
        keep = [a for a in n.attribute if not (a.name in defaults and _same(a, defaults[a.name]))]
        if len(keep) != len(n.attribute):
            del n.attribute[:]
            n.attribute.extend(keep)
            sites.append(node_label(n, i))
    return sites


REWRITES = (
    Rewrite(
        "explicit-defaults",
        "omitted attributes → written with the schema's default value",
        explicit,
        inverse="omitted-defaults",
    ),
    Rewrite(
        "omitted-defaults", "attributes equal to the schema's default → omitted", omitted, inverse="explicit-defaults"
    ),
)
