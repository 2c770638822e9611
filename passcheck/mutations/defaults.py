"""Attributes at their default value written explicitly ↔ omitted (ONNX IR spec, "Attributes": an
omitted attribute takes the default the operator schema declares).

``explicit-defaults`` / ``omitted-defaults`` edit the main graph; ``body-explicit-defaults`` /
``body-omitted-defaults`` every other scope (If/Loop/Scan bodies, nested ones, and model-local function
bodies at the function's own opset import; IR.md §Graphs: a subgraph is a graph, §Functions: a body node is
a node of the operator it names). An attribute given by reference (``ref_attr_name``) carries the caller's
value, never the default's, and stays."""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite, chosen, is_default_domain, node_label, opset
from passcheck.mutations._freedom import Freedom
from passcheck.mutations._scopes import opset_of, scopes

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


def _main(model: onnx.ModelProto, only: frozenset[str] | None, edit) -> list[str]:
    version = opset(model)
    return [
        node_label(n, i) for i, n in enumerate(model.graph.node) if chosen(only, node_label(n, i)) and edit(n, version)
    ]


def explicit(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Write every omitted attribute that has a schema default, with that default."""
    return _main(model, only, _write_defaults)


def omitted(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Remove every attribute whose value equals the schema default."""
    return _main(model, only, _drop_defaults)


def _bodies(model: onnx.ModelProto, only: frozenset[str] | None, edit) -> list[str]:
    sites = []
    for scope in scopes(model):
        if scope.kind == "main":
            continue
        version = opset_of(model, scope)
        for i, n in enumerate(scope.body.node):
            label = scope.label(n, i)
            if chosen(only, label) and edit(n, version):
                sites.append(label)
    return sites


def _write_defaults(n: onnx.NodeProto, version: int) -> bool:
    present = {a.name for a in n.attribute}
    missing = [d for name, d in _defaults(n, version).items() if name not in present]
    for d in missing:
        n.attribute.add().CopyFrom(d)
    return bool(missing)


def _drop_defaults(n: onnx.NodeProto, version: int) -> bool:
    defaults = _defaults(n, version)
    keep = [a for a in n.attribute if a.ref_attr_name or not (a.name in defaults and _same(a, defaults[a.name]))]
    if len(keep) == len(n.attribute):
        return False
    del n.attribute[:]
    n.attribute.extend(keep)
    return True


def body_explicit(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """In every subgraph and function body: each omitted attribute with a schema default → written with it."""
    return _bodies(model, only, _write_defaults)


def body_omitted(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """In every subgraph and function body: each literal attribute equal to its schema default → omitted."""
    return _bodies(model, only, _drop_defaults)


#: Rewrites that move main-graph nodes into an If branch or a function body, where these rewrites then have sites.
_INTO_BODIES = ("node-in-if-opaque", "chain-in-if-opaque", "node-as-local-function", "region-as-local-function")

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
    Rewrite(
        "body-explicit-defaults",
        "omitted attributes of subgraph and function-body nodes → written with the schema's default value",
        body_explicit,
        inverse="body-omitted-defaults",
        after=_INTO_BODIES,
    ),
    Rewrite(
        "body-omitted-defaults",
        "literal attributes of subgraph and function-body nodes equal to the schema's default → omitted",
        body_omitted,
        inverse="body-explicit-defaults",
        after=_INTO_BODIES,
    ),
)

FREEDOMS = (
    Freedom(
        "attribute-default-in-bodies",
        "attributes",
        "IR.md §Attributes, §Graphs (a subgraph is a graph), §Functions (a body node calls its operator); each op's "
        "schema (attribute defaults) at the opset the scope imports",
        "Inside an If/Loop/Scan body or a model-local function body, an attribute the schema gives a default may be "
        "written with that value or left out, as in the main graph (attribute-default).",
        ("body-explicit-defaults", "body-omitted-defaults"),
        "default-domain nodes of every subgraph (nested too) and every function body (the function's own opset "
        "import); attributes given by ref_attr_name stay; in the hunt also at depth 2 after node-in-if-opaque, "
        "chain-in-if-opaque, node-as-local-function and region-as-local-function (Rewrite.after)",
    ),
)
