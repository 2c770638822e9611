"""An op written as the nodes of its schema's function body (issue 27, schema walk). ONNX spec:
IR.md §Functions ("a function ... is a way to define an operator as a composition of other
operators": a node of a function op means its body) and onnx.proto OpSchema function bodies; ops
with a body at some opset include LayerNormalization-17, Gelu-20, MeanVarianceNormalization-13,
Softmax/LogSoftmax-13, Celu, Mish, Softplus, LeakyRelu-16, PRelu-16, HardSwish, Shrink,
ReduceL1/L2/SumSquare-18, GreaterOrEqual/LessOrEqual-16 and more (``OpSchema.has_function`` or a
context-dependent function built for the node's attributes and input types).

The body for the highest function version <= the model's opset is taken only when each op it
uses has the same schema at the model's opset (its stamp does not move), the call's omitted
attributes are given their schema defaults first (a body reads them by ``ref_attr_name``), and the
nodes are inlined with ``onnx.inliner`` (fresh value names). Random ops (Bernoulli) and ops with
graph attributes (SequenceMap) are left alone. Main graph only (a context-dependent body needs the
input types, which shape inference gives for the main graph); one way (recognising a body is a
fusion pass's job). Sites are the expanded nodes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite, chosen, is_default_domain, node_label, opset
from passcheck.mutations._opsets import schema
from passcheck.mutations._shapes import known
from passcheck.mutations.catalogue import Freedom

if TYPE_CHECKING:
    import onnx

DOMAIN = "passcheck.expanded"
#: Ops whose body draws random numbers: a second run is not the same computation.
RANDOM = frozenset({"Bernoulli", "Dropout", "RandomNormal", "RandomUniform", "RandomNormalLike", "RandomUniformLike"})


def _body(n: onnx.NodeProto, version: int, types) -> onnx.FunctionProto | None:
    """The schema's function body for ``n`` at opset ``version`` (defaults filled into ``n``), or None."""
    import onnx

    s = schema(n.op_type, version)
    if s is None or not (s.has_function or s.has_context_dependent_function):
        return None
    given = {a.name for a in n.attribute}
    for name, a in s.attributes.items():
        if name not in given and a.default_value.type:
            n.attribute.append(a.default_value)
    versions = s.function_opset_versions if s.has_function else s.context_dependent_function_opset_versions
    usable = [v for v in versions if v <= version]
    if not usable:
        return None
    at = max(usable)
    try:
        if s.has_function:
            raw = s.get_function_with_opset_version(at)
        else:
            ins = []
            for x in n.input:
                k = types.get(x) if x else None
                if x and (k is None or not k.elem_type):
                    return None
                ins.append(onnx.helper.make_tensor_type_proto(k.elem_type if x else 0, None).SerializeToString())
            raw = s.get_context_dependent_function_with_opset_version(at, n.SerializeToString(), ins)
    except Exception:  # noqa: BLE001 - no body for this node (the builder refused it): not a site
        return None
    if not raw:
        return None
    f = onnx.FunctionProto()
    f.ParseFromString(raw)
    body_opset = {o.domain: o.version for o in f.opset_import}.get("", at)
    for m in f.node:
        if m.domain not in ("", "ai.onnx") or any(a.g.node or a.graphs for a in m.attribute):
            return None
        if not _same_meaning(m.op_type, body_opset, version):
            return None
    for o in f.opset_import:  # the body reads the same at the model's opset (checked above)
        if o.domain in ("", "ai.onnx"):
            o.version = version
    return f


def _same_meaning(op: str, a: int, b: int) -> bool:
    """Whether a node of ``op`` written for opset ``a`` reads the same at opset ``b`` >= ``a``: every
    schema in between keeps the inputs, outputs and attributes (with their defaults) of the first,
    adds only optional attributes with defaults and only widens the element types (e.g. Cast-19's
    ``saturate``, which acts on float8 targets only, and the float8 / bfloat16 type additions)."""
    first = schema(op, a)
    if first is None:
        return False
    base = {k: v.default_value.SerializeToString(deterministic=True) for k, v in first.attributes.items()}
    io = [(p.name, p.option) for p in (*first.inputs, *first.outputs)]
    types = {t.type_param_str: set(t.allowed_type_strs) for t in first.type_constraints}
    for v in range(a + 1, b + 1):
        s = schema(op, v)
        if s is None or [(p.name, p.option) for p in (*s.inputs, *s.outputs)] != io:
            return False
        attrs = {k: x.default_value.SerializeToString(deterministic=True) for k, x in s.attributes.items()}
        if any(attrs.get(k) != d for k, d in base.items()):
            return False
        if any(s.attributes[k].required for k in attrs.keys() - base.keys()):
            return False
        later = {t.type_param_str: set(t.allowed_type_strs) for t in s.type_constraints}
        if any(not allowed <= later.get(k, set()) for k, allowed in types.items()):
            return False
    return True


def expand_function_ops(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Each main-graph node of an op with a schema function body → the body's nodes, inlined."""
    import onnx
    import onnx.inliner

    g, version, types = model.graph, opset(model), None
    calls, sites = [], []
    for i, n in enumerate(g.node):
        if (
            not is_default_domain(n)
            or n.op_type in RANDOM
            or any(a.HasField("g") or a.graphs for a in n.attribute)
            or not chosen(only, node_label(n, i))
        ):
            continue
        s = schema(n.op_type, version)
        if s is None or not (s.has_function or s.has_context_dependent_function):
            continue
        types = known(model) if types is None else types
        call = onnx.NodeProto()
        call.CopyFrom(n)
        f = _body(call, version, types)
        if f is None:
            continue
        name = f"{n.op_type}_{i}"
        f.domain, f.name = DOMAIN, name
        del f.attribute[:]
        f.attribute.extend(a.name for a in call.attribute)
        call.domain, call.op_type = DOMAIN, name
        sites.append(node_label(n, i))
        n.CopyFrom(call)
        model.functions.append(f)
        calls.append((DOMAIN, name))
    if not calls:
        return []
    model.opset_import.add(domain=DOMAIN, version=1)
    inlined = onnx.inliner.inline_selected_functions(model, calls, exclude=False)
    kept = [o for o in inlined.opset_import if o.domain != DOMAIN]
    del inlined.opset_import[:]
    inlined.opset_import.extend(kept)
    funcs = [f for f in inlined.functions if f.domain != DOMAIN]
    del inlined.functions[:]
    inlined.functions.extend(funcs)
    model.CopyFrom(inlined)
    return sites


REWRITES = (
    Rewrite(
        "expand-function-ops",
        "a node of an op with a schema function body → the body's nodes (LayerNormalization, Gelu, Softmax-13, …)",
        expand_function_ops,
    ),
)

FREEDOMS = (
    Freedom(
        "op-as-function-body",
        "functions",
        "IR.md §Functions (an operator may be defined as a function: a composition of other operators); "
        "Operators.md: each op's 'Function' body (e.g. LayerNormalization-17, Gelu-20, Softmax-13, "
        "MeanVarianceNormalization-13)",
        "A node of an op the spec defines by a function body may be written as the body's nodes instead.",
        ("expand-function-ops",),
        "main-graph nodes of such ops (context-dependent bodies need known input element types); only where "
        "every op of the body keeps its schema at the model's opset; random ops and ops with graph attributes "
        "left alone; one way (recognising the body is a fusion pass's job); composes at depth 2 (then "
        "node-as-local-function wraps body ops, or another rewrite edits them)",
    ),
)
