"""Whose refusal is it: a checker refusal raised inside the op's own function body, for types its schema allows.

IR.md §Functions and Operators.md: an operator the spec defines by a function body (MeanVarianceNormalization,
LayerNormalization, CenterCropPad …) means that body, for every binding of its type constraints; onnx's
shape inference (the full checker's) and onnxruntime (when no kernel takes the types) expand the body. A body
written for one member of a constraint (a ``float`` Constant beside a ``T`` operand) refuses the others, so a
valid one-node model is refused. The generator's gate called every refusal of a pair's common form ``n/a`` (the
spelling does not apply); :func:`refused_body` verifies the other reading before the gate blames the form:

1. the model holds one node of the default domain whose schema at the model's opset has a function body
   (context-free, or context-dependent: built for the node and its input types, as onnx does);
2. the node's input element types satisfy the schema's type constraints (each formal's parameter allows the type,
   one type per parameter): the node is well typed by the schema;
3. the body alone, its attribute references bound to the node's attributes or the schema's defaults and its
   inputs typed as the node's, is refused by strict shape inference (``check_type=True``);
4. a contrast isolates the cause: the same body with the inputs rebound to a plain binding (float, int64 …) is
   accepted (the types refuse it), or the same body with the schema's defaults bound is accepted and refused
   without them (an omitted attribute's default left unbound). A body refused either way (an attribute written
   with no value, a node onnx refuses for its attributes) is not blamed.

Only then is the refusal the body's, a fact about the tool. onnxruntime expands the same body when its CPU provider has
no kernel for the types (context-dependent bodies too, which onnx's shape inference does not expand): a refusal at
load whose type error names an op of the body (``Type parameter (T) of Optype (MatMul) bound to different types``)
is the body's by the same verification (:func:`expanded_refusal`).
"""

from __future__ import annotations

import re

import onnx
import onnx.defs
import onnx.shape_inference
from onnx import helper

from passcheck.errors import WorkerDied
from passcheck.runtime import isolated_tools
from passcheck.typestr import schema_type


def _node_and_schema(model: onnx.ModelProto):
    """The one main-graph node of the default domain whose schema (at the model's opset) has a function body,
    with that schema; ``(None, None)`` when there is none or more than one (the generator's one-node models wrap
    an input of a type numpy cannot feed in Casts, which have no body)."""
    opset = next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), None)
    if opset is None:
        return None, None
    found = []
    for n in model.graph.node:
        if n.domain not in ("", "ai.onnx"):
            continue
        try:
            schema = onnx.defs.get_schema(n.op_type, opset)
        except onnx.defs.SchemaError:
            continue
        if schema.has_function or schema.has_context_dependent_function:
            found.append((n, schema))
    return found[0] if len(found) == 1 else (None, None)


def _input_types(model: onnx.ModelProto, node: onnx.NodeProto) -> list[onnx.TypeProto | None]:
    """The type of each of ``node``'s inputs (None: omitted or unknown), from lenient onnx shape inference of
    ``model`` (a value a wrapper Cast or Constant writes is typed there too)."""
    try:
        inferred = isolated_tools.infer_shapes(model)
    except (onnx.shape_inference.InferenceError, onnx.checker.ValidationError, WorkerDied):
        inferred = model
    g = inferred.graph
    known = {v.name: v.type for v in (*g.input, *g.value_info, *g.output)}
    for t in g.initializer:
        known.setdefault(t.name, helper.make_tensor_type_proto(t.data_type, list(t.dims)))
    return [known.get(name) if name else None for name in node.input]


def well_typed(schema: onnx.defs.OpSchema, types: list[onnx.TypeProto | None]) -> bool:
    """Whether tensor ``types`` (one per node input, None for an omitted one) satisfy ``schema``'s type
    constraints: each formal's parameter allows its type and binds one type (Operators.md, "Type Constraints")."""
    allowed = {c.type_param_str: set(c.allowed_type_strs) for c in schema.type_constraints}
    bound: dict[str, str] = {}
    formals = list(schema.inputs)
    for k, t in enumerate(types):
        if t is None:
            continue
        if not formals or not t.HasField("tensor_type"):
            return False
        f = formals[min(k, len(formals) - 1)]
        name = schema_type(t.tensor_type.elem_type)
        param = f.type_str
        if param.startswith("tensor("):
            if param != name:
                return False
            continue
        if name not in allowed.get(param, ()) or bound.setdefault(param, name) != name:
            return False
    return True


def _body(
    schema: onnx.defs.OpSchema, opset: int, node: onnx.NodeProto, types, newest: bool = False
) -> onnx.FunctionProto | None:
    raw = None
    if schema.has_function:
        raw = schema.get_function_with_opset_version(schema.function_opset_versions[-1] if newest else opset)
    if not raw and schema.has_context_dependent_function:
        typed = [t.SerializeToString() if t is not None else onnx.TypeProto().SerializeToString() for t in types]
        try:
            raw = schema.get_context_dependent_function_with_opset_version(opset, node.SerializeToString(), typed)
        except Exception:  # the builder refuses the node: no body to judge
            return None
    if not raw:
        return None
    f = onnx.FunctionProto()
    f.ParseFromString(raw)
    return f


def _bind(nodes, values: dict[str, onnx.AttributeProto]) -> None:
    """Replace each attribute reference (``ref_attr_name``) by the caller's value; drop those with none."""
    for n in nodes:
        for a in list(n.attribute):
            if a.ref_attr_name:
                got = values.get(a.ref_attr_name)
                n.attribute.remove(a)
                if got is not None:
                    bound = onnx.AttributeProto()
                    bound.CopyFrom(got)
                    bound.name = a.name
                    n.attribute.append(bound)
            for g in [a.g] if a.type == a.GRAPH else list(a.graphs):
                _bind(g.node, values)


#: The contrast binding's preference (:func:`plain_types`): per type parameter, the first type it allows.
PLAIN = ("float", "int64", "int32", "double", "bool", "string")


def plain_types(schema: onnx.defs.OpSchema, types: list[onnx.TypeProto | None]) -> list[onnx.TypeProto | None]:
    """``types`` with each type parameter rebound to the first :data:`PLAIN` type it allows (shapes kept; a fixed
    formal type and a parameter allowing none of them kept)."""
    allowed = {c.type_param_str: set(c.allowed_type_strs) for c in schema.type_constraints}
    formals = list(schema.inputs)
    out: list[onnx.TypeProto | None] = []
    for k, t in enumerate(types):
        f = formals[min(k, len(formals) - 1)] if formals else None
        plain = next((p for p in PLAIN if f and f"tensor({p})" in allowed.get(f.type_str, ())), None)
        if t is None or plain is None or not t.HasField("tensor_type"):
            out.append(t)
            continue
        shape = t.tensor_type.shape if t.tensor_type.HasField("shape") else None
        rebound = helper.make_tensor_type_proto(getattr(onnx.TensorProto, plain.upper()), None)
        if shape is not None:
            rebound.tensor_type.shape.CopyFrom(shape)
        out.append(rebound)
    return out


def body_model(
    model: onnx.ModelProto, defaults: bool = True, newest: bool = False, plain: bool = False
) -> onnx.ModelProto | None:
    """The op's function body as a model of its own, for ``model``'s one node (module docs, steps 1–2 and the
    binding of step 3); None when the model is no such node or the node is not well typed by its schema.
    ``defaults``: an attribute the node omits is bound to its schema default (Operators.md: an omitted attribute
    means its default); False leaves such a reference unbound, as a caller that binds only what the node writes.
    ``newest``: the schema's newest context-free body instead of the one for the model's opset (onnx's shape
    inference expands ``schema->GetFunction()``, the newest, whatever the model's opset: implementation.cc).
    ``plain``: the node's inputs rebound to :func:`plain_types` (the contrast of :func:`refused_body`)."""
    node, schema = _node_and_schema(model)
    if node is None or not (schema.has_function or schema.has_context_dependent_function):
        return None
    types = _input_types(model, node)
    if not well_typed(schema, types):
        return None
    if plain:
        types = plain_types(schema, types)
    opset = next(o.version for o in model.opset_import if o.domain in ("", "ai.onnx"))
    body = _body(schema, opset, node, types, newest)
    if body is None:
        return None
    values = {a.name: a.default_value for a in schema.attributes.values() if a.default_value.type} if defaults else {}
    values.update({a.name: a for a in node.attribute})
    nodes = [onnx.NodeProto() for _ in body.node]
    for mine, theirs in zip(nodes, body.node):
        mine.CopyFrom(theirs)
    _bind(nodes, values)
    inputs = [helper.make_value_info(n, t) for n, t in zip(body.input, types) if n and t is not None]
    outputs = [helper.make_value_info(n, onnx.TypeProto()) for n in body.output if n]
    graph = helper.make_graph(nodes, "body", inputs, outputs)
    return helper.make_model(graph, opset_imports=list(body.opset_import) or list(model.opset_import))


def _refusal(model: onnx.ModelProto | None) -> str | None:
    if model is None:
        return None
    try:
        isolated_tools.infer_shapes(model, check_type=True, strict_mode=True)
    except WorkerDied:
        raise  # no refusal read: inference died (the worker's scope records it)
    except Exception as e:  # noqa: BLE001 - any refusal by onnx (InferenceError, ValueError …); the contrasts attribute it
        return " ".join(str(e).split()) or type(e).__name__
    return None


#: :func:`refused_body`'s two readings: the body refuses the types (defaults bound), or the body is accepted with
#: the omitted attributes' schema defaults bound and refused without them (a reference left unbound).
TYPES = "the op's function body refuses a type binding its schema allows"
DEFAULTS = "the op's function body is refused with an omitted attribute's schema default left unbound"


def refused_body(model: onnx.ModelProto) -> tuple[str, str] | None:
    """Whose refusal: ``(reading, the body's refusal)`` when ``model``'s one node is well typed by its schema and
    its function body alone is refused (module docs), else None.

    ``reading`` is :data:`TYPES` when the body for the model's opset is refused with every attribute bound (the
    node's, else the schema default) and accepted with the same attributes and the inputs rebound to the plain
    binding (:func:`plain_types`: the refusal depends on the types alone); :data:`DEFAULTS` when that body or the
    schema's newest one (what onnx's shape inference expands) is accepted with every attribute bound and refused
    with only the node's own attributes bound.
    ``the body's refusal`` is strict onnx shape inference's message on the body. Raises nothing: a node with no
    body, a node the schema itself refuses, a body the builder cannot make, or one onnx inference kills its isolation
    worker on (:mod:`passcheck.runtime.isolated_tools`) is None.
    """
    try:
        if (why := _refusal(body_model(model))) and not _refusal(body_model(model, plain=True)):
            return TYPES, why
        for newest in (False, True):
            if not _refusal(body_model(model, newest=newest)) and (why := _refusal(body_model(model, False, newest))):
                return DEFAULTS, why
    except WorkerDied:  # inference died on a body (isolated_tools): no contrast is read, so no attribution
        return None
    return None


#: onnxruntime's load-time type check of a node (graph.cc): the op type it names.
_ORT_TYPE_ERROR = re.compile(r"Type parameter \(\w+\) of Optype \((\w+)\) bound to different types")


def expanded_refusal(model: onnx.ModelProto, error: str) -> tuple[str, str] | None:
    """:func:`refused_body`'s reading when onnxruntime's ``error`` on ``model`` is its load-time type check of an op
    the body holds (not the node itself: onnxruntime expanded the body), else None."""
    named = _ORT_TYPE_ERROR.search(error or "")
    if not named:
        return None
    body = body_model(model)
    if body is None or named.group(1) not in {n.op_type for n in body.graph.node}:
        return None
    return refused_body(model)
