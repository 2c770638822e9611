"""Type annotations inside a model-local function body (issue 27). ONNX spec: IR.md §Functions and
onnx.proto FunctionProto.value_info (IR >= 10): a function may carry the types of its values — its
inputs, outputs and intermediate values — or none; they are annotations, not part of what the body
computes. A function is polymorphic (its call sites may pass different types), so annotating it
fixes one type per value: valid only while every call site passes that type.

- ``function-value-info``: a model-local function whose call sites are all in the main graph and
  all pass the same input types (as shape inference knows them) gets the types onnx shape
  inference gives its values for those inputs (its body inferred as a graph, the call's attributes
  substituted for ``ref_attr_name``); the IR version is raised to 10 when lower.
- ``function-value-info-stripped``: every function's value_info removed.

Sites: the function names (``DOMAIN:NAME``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite, chosen
from passcheck.mutations._freedom import Freedom
from passcheck.mutations._shapes import known
from passcheck.mutations.ir_version import raise_ir
from passcheck.runtime import isolated_tools

if TYPE_CHECKING:
    import onnx

IR_FUNCTION_VALUE_INFO = 10


def _resolved_body(f: onnx.FunctionProto, call: onnx.NodeProto) -> list[onnx.NodeProto]:
    """The body's nodes with each ``ref_attr_name`` replaced by the call's attribute or the
    function's default (dropped when neither is given)."""
    import onnx

    given = {a.name: a for a in call.attribute} | {
        a.name: a for a in f.attribute_proto if a.name not in {b.name for b in call.attribute}
    }
    nodes = []
    for n in f.node:
        m = onnx.NodeProto()
        m.CopyFrom(n)
        attrs = []
        for a in m.attribute:
            if not a.ref_attr_name:
                attrs.append(a)
            elif a.ref_attr_name in given:
                b = onnx.AttributeProto()
                b.CopyFrom(given[a.ref_attr_name])
                b.name = a.name
                attrs.append(b)
        del m.attribute[:]
        m.attribute.extend(attrs)
        nodes.append(m)
    return nodes


def _inferred_types(model: onnx.ModelProto, f: onnx.FunctionProto, call: onnx.NodeProto, types) -> list | None:
    """The value infos shape inference gives ``f``'s values when called as ``call``, or None."""
    import onnx

    inputs = []
    for formal, actual in zip(f.input, call.input, strict=False):
        k = types.get(actual) if actual else None
        if k is None or not k.elem_type:
            return None
        inputs.append(onnx.helper.make_tensor_value_info(formal, k.elem_type, None if k.dims is None else list(k.dims)))
    if len(call.input) != len(f.input):
        return None
    outputs = [onnx.helper.make_value_info(o, onnx.TypeProto()) for o in f.output]
    graph = onnx.helper.make_graph(_resolved_body(f, call), "body", inputs, outputs)
    probe = onnx.helper.make_model(graph, opset_imports=list(f.opset_import) or list(model.opset_import))
    probe.functions.extend(model.functions)
    probe.ir_version = model.ir_version
    try:
        g = isolated_tools.infer_shapes(probe, strict_mode=True).graph
    except Exception:  # noqa: BLE001 - a body shape inference cannot type is not a site
        return None
    found = [v for v in [*g.input, *g.value_info, *g.output] if v.type.tensor_type.elem_type]
    names = {x for n in f.node for x in [*n.input, *n.output] if x} | set(f.input) | set(f.output)
    return [v for v in found if v.name in names]


def monomorphic_types(model: onnx.ModelProto, f: onnx.FunctionProto, types: dict | None = None) -> list | None:
    """The value infos onnx shape inference gives ``f``'s inputs, outputs and body values when every
    call of ``f`` is a main-graph node and all calls agree on them; None otherwise (no call, a call
    in a subgraph or a function body, a body inference cannot type, or calls that differ).

    ``types`` is :func:`passcheck.mutations._shapes.known` of ``model`` (computed when None)."""
    nested = {(n.domain, n.op_type) for h in model.functions for n in h.node}
    calls = [n for n in model.graph.node if (n.domain, n.op_type) == (f.domain, f.name)]
    if not calls or (f.domain, f.name) in nested or _called_in_subgraphs(model.graph, f):
        return None
    types = known(model) if types is None else types
    typed = [_inferred_types(model, f, c, types) for c in calls]
    first = typed[0]
    if not first or any(t != first for t in typed[1:]):
        return None
    return first


def annotate(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Each monomorphically called model-local function → the value_info of its body's values."""
    types, sites = None, []
    for f in model.functions:
        label = f"{f.domain}:{f.name}"
        if len(f.value_info) or not chosen(only, label):
            continue
        types = known(model) if types is None else types
        found = monomorphic_types(model, f, types)
        if found is None:
            continue
        f.value_info.extend(found)
        sites.append(label)
    if sites and model.ir_version < IR_FUNCTION_VALUE_INFO:
        raise_ir(model, IR_FUNCTION_VALUE_INFO)
    return sites


def _called_in_subgraphs(g: onnx.GraphProto, f: onnx.FunctionProto) -> bool:
    from passcheck.mutations._base import subgraphs

    def walk(h: onnx.GraphProto) -> bool:
        return any((n.domain, n.op_type) == (f.domain, f.name) or any(walk(s) for s in subgraphs(n)) for n in h.node)

    return any(walk(s) for n in g.node for s in subgraphs(n))


def strip(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Every model-local function's value_info removed."""
    sites = []
    for f in model.functions:
        label = f"{f.domain}:{f.name}"
        if len(f.value_info) and chosen(only, label):
            del f.value_info[:]
            sites.append(label)
    return sites


REWRITES = (
    Rewrite(
        "function-value-info",
        "a model-local function called with one set of input types → its body's values typed (IR >= 10)",
        annotate,
        inverse="function-value-info-stripped",
        detail="functions",
    ),
    Rewrite(
        "function-value-info-stripped",
        "a model-local function's value_info → none",
        strip,
        inverse="function-value-info",
        detail="functions",
    ),
)

FREEDOMS = (
    Freedom(
        "function-value-info",
        "functions",
        "IR.md §Functions; onnx.proto FunctionProto.value_info (IR >= 10: optional types of the values in a body)",
        "A function body may carry type annotations of its values or none (functions may be polymorphic).",
        ("function-value-info", "function-value-info-stripped"),
        "model-local functions called from the main graph only, every call with the same input types (a "
        "polymorphic use is left alone); the IR raised to 10 when lower; at depth 2 after node-as-local-function",
    ),
)
