"""A node ↔ a call of a model-local function whose body is that node (IR.md §Functions: a
model-local function is an operator whose meaning is its body; a runtime may inline it; attribute
parameters are referenced in the body by ``ref_attr_name`` and, from IR 9, may have defaults in
``attribute_proto``).

- ``node-as-local-function``: a default-domain node without graph attributes → a call of a
  function (domain ``org.passcheck.local``) whose one body node is the original op, each
  attribute passed from the call site (a function with attribute parameters). One function per op
  signature (op type, which slots are given, attribute names). IR raised to 8 when lower.
- ``node-as-local-function-defaults``: the same, with the node's attribute values as the
  function's defaults (``attribute_proto``; IR raised to 9 when lower) and the call site giving none.
- ``node-as-local-function-all-attributes``: as ``node-as-local-function``, every attribute the op's schema
  gives a default (at the model's opset) and the node leaves out written at the call site with that default, so
  the body reads it by reference too (Operators.md: an omitted attribute means its default; session 29, round 9c:
  a converter adapter that rewrites an attribute meets it as a reference only this way).
- ``inline-local-functions``: calls of model-local functions → the function body in place
  (onnx.inliner), the functions and their import removed.

Sites: node labels of the main graph and subgraphs (see :mod:`passcheck.mutations._scopes`); for
``inline-local-functions``, function names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite, chosen, is_default_domain, opset
from passcheck.mutations._freedom import Freedom
from passcheck.mutations._graph_edit import set_list
from passcheck.mutations._scopes import scopes
from passcheck.mutations.ir_version import raise_ir

if TYPE_CHECKING:
    import onnx

DOMAIN = "org.passcheck.local"


def _function(model, n: onnx.NodeProto, name: str, defaults: bool) -> onnx.FunctionProto:
    import onnx

    ins = [f"x{k}" if x else "" for k, x in enumerate(n.input)]
    outs = [f"y{k}" if y else "" for k, y in enumerate(n.output)]
    body = onnx.helper.make_node(n.op_type, ins, outs, name="body")
    refs = []
    for a in n.attribute:
        ref = onnx.AttributeProto(name=a.name, type=a.type, ref_attr_name=a.name)
        refs.append(ref)
    body.attribute.extend(refs)
    f = onnx.helper.make_function(
        DOMAIN,
        name,
        [x for x in ins if x],
        [y for y in outs if y],
        [body],
        [onnx.helper.make_opsetid("", opset(model))],
        attributes=[] if defaults else [a.name for a in n.attribute],
    )
    if defaults:
        f.attribute_proto.extend(n.attribute)
    return f


def _signature(n: onnx.NodeProto) -> tuple:
    return (
        n.op_type,
        tuple(bool(x) for x in n.input),
        tuple(bool(y) for y in n.output),
        tuple(sorted(a.name for a in n.attribute)),
    )


def _with_defaults(model: onnx.ModelProto, n: onnx.NodeProto) -> None:
    """``n`` given every attribute its schema (at ``model``'s opset) defaults and it leaves out, with that value."""
    import onnx

    try:
        schema = onnx.defs.get_schema(n.op_type, opset(model), "")
    except Exception:  # noqa: BLE001 - SchemaError: no schema at this opset, nothing to write
        return
    have = {a.name for a in n.attribute}
    for name, spec in sorted(schema.attributes.items()):
        d = spec.default_value
        if name in have or d is None or d.type == onnx.AttributeProto.UNDEFINED:
            continue
        a = onnx.AttributeProto()
        a.CopyFrom(d)
        a.name = name
        n.attribute.append(a)


def _wrap(model: onnx.ModelProto, only: frozenset[str] | None, defaults: bool, explicit: bool = False) -> list[str]:
    import onnx

    need = 9 if defaults else 8
    if model.ir_version < need:
        if len(model.training_info):
            return []
        raise_ir(model, need)  # initializers of an IR < 4 model stay constants (see raise_ir)
    if any(o.domain == DOMAIN for o in model.opset_import):
        return []  # already wrapped: the names would clash
    made: dict[tuple, str] = {}
    sites = []
    for scope in scopes(model, functions=False):
        for i, n in enumerate(scope.body.node):
            if (
                not is_default_domain(n)
                or any(a.type in (onnx.AttributeProto.GRAPH, onnx.AttributeProto.GRAPHS) for a in n.attribute)
                or not chosen(only, label := scope.label(n, i))
            ):
                continue
            if explicit:
                _with_defaults(model, n)
            key = (_signature(n), i, label) if defaults else _signature(n)
            if key not in made:
                made[key] = f"{n.op_type}_fn{len(made)}"
                model.functions.append(_function(model, n, made[key], defaults))
            call = onnx.helper.make_node(
                made[key], [x for x in n.input if x], [y for y in n.output if y], name=n.name, domain=DOMAIN
            )
            if not defaults:
                call.attribute.extend(n.attribute)
            n.CopyFrom(call)
            sites.append(label)
    if sites:
        model.opset_import.append(onnx.helper.make_opsetid(DOMAIN, 1))
    return sites


def as_function(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Each eligible node → a call of a model-local function holding it, attributes passed at the call."""
    return _wrap(model, only, defaults=False)


def as_function_defaults(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Each eligible node → a call of its own model-local function, its attributes the function's defaults."""
    return _wrap(model, only, defaults=True)


def as_function_all_attributes(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Each eligible node → a call of a model-local function holding it, every schema-defaulted attribute written at
    the call and passed by reference."""
    return _wrap(model, only, defaults=False, explicit=True)


def inline(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Calls of model-local functions → their bodies."""
    import onnx.inliner

    names = [f.name for f in model.functions if chosen(only, f.name)]
    if not names:
        return []
    ids = [(f.domain, f.name) for f in model.functions if f.name in names]
    done = onnx.inliner.inline_selected_functions(model, ids)
    left = {f.domain for f in done.functions}
    used = {n.domain for s in scopes(done) for n in s.body.node}
    set_list(done.opset_import, [o for o in done.opset_import if o.domain in left | used | {"", "ai.onnx"}])
    model.CopyFrom(done)
    return names


REWRITES = (
    Rewrite(
        "node-as-local-function",
        "a node → a call of a model-local function whose body is that node (attributes passed by reference; IR >= 8)",
        as_function,
        inverse="inline-local-functions",
    ),
    Rewrite(
        "node-as-local-function-defaults",
        "a node → a call of a model-local function with the node's "
        "attributes as "
        "its defaults (attribute_proto; IR >= 9)",
        as_function_defaults,
        inverse="inline-local-functions",
    ),
    Rewrite(
        "node-as-local-function-all-attributes",
        "a node → a call of a model-local function whose body is that node, every attribute the schema defaults "
        "written at the call and passed by reference (IR >= 8)",
        as_function_all_attributes,
        inverse="inline-local-functions",
    ),
    Rewrite(
        "inline-local-functions",
        "calls of model-local functions → the function bodies in place (onnx.inliner)",
        inline,
        inverse="node-as-local-function",
        detail="functions",
    ),
)

FREEDOMS = (
    Freedom(
        "inline-or-local-function",
        "functions",
        "IR.md §Functions (a model-local function means its body; a runtime may inline it), §Models (functions)",
        "A computation may be written inline or as a call of a model-local function with the same body.",
        ("node-as-local-function", "inline-local-functions"),
        "default-domain nodes without graph attributes, main graph and subgraphs; one function per op signature "
        "(several call sites share it); the rewrites inside bodies (rename-values, reverse-topo-order-bodies, "
        "all-empty-optional-inputs, …) then reach function bodies at depth 2.",
    ),
    Freedom(
        "function-attribute-parameters",
        "functions",
        "IR.md §Functions (attribute, attribute_proto), §Attributes (ref_attr_name)",
        "A function's attribute may be given at every call site, or be a default in the function (IR >= 9) that the "
        "call omits; the body refers to it by ref_attr_name either way.",
        (
            "node-as-local-function",
            "node-as-local-function-defaults",
            "node-as-local-function-all-attributes",
            "inline-local-functions",
        ),
        "as inline-or-local-function; the defaults spelling makes one function per call site; the all-attributes "
        "spelling passes the attributes the node leaves to the schema default too.",
    ),
)
