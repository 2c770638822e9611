"""function-body/*: every ai.onnx op with a function body, at each opset its body is written for, with every element
type its schema allows, and its defaulted attributes written out or left to their defaults (M344).

Spec freedom: Operators.md gives an op a function body ("Function") that defines its meaning; onnx's schema says for
which opsets each body is written (``OpSchema.function_opset_versions``, and
``context_dependent_function_opset_versions`` for a body built from the node's input types and attributes,
``SchemaFunctionBodyBuilder``). A body written for opset 18 on a schema that came in at opset 6 (Elu-6, Selu-6,
HardSigmoid-6, Shrink-9, Softplus-1, ...) is the op's meaning in a model importing opset 18 to the opset the next
schema starts at, so a model at any of those opsets may hold the op; the body of a context-dependent function differs
per element type. An attribute the node leaves out takes the schema's default (IR.md "Attributes", Operators.md),
so writing the default out computes the same values.

The generated set stamps each schema at its own ``since_version`` (one node per schema): no base held Elu-6 at
opset 18, where its body is in force, and a schema whose attributes the recipe leaves to their defaults met the
inliner only in that spelling, so ``passcheck coverage`` listed these bodies untriggered for ``onnx:inline-schema-
functions``.

One base per (schema with a function body, opset its body is written for at which the schema is in force, element
type of the first input's type parameter the CPU provider runs); the node is the generator's recipe
(:func:`passcheck.generate.recipe.build_node`, the domain table's inputs and attributes), one node, static shapes:

- ``common``: every attribute the schema gives a default written out at that default (the recipe's own values kept),
  each constant operand a ``Constant`` node;
- ``initializers``: the constant operands initializers (IR.md "Graphs": an initializer is a constant value; where
  the recipe has any);
- ``defaults-omitted``: the attributes whose value is the schema default left out (where the schema has any);
- ``before-body``: the common node one opset below, where the schema is in force but this body is not yet (no body,
  or an older one); not below opset 7, the oldest onnxruntime runs.

A base with a single form (no defaulted attribute, no constant operand, body at the schema's own opset: Softplus-22,
Mish-18, PRelu-16, ...) is not registered: the generated set holds that node already.
"""

from __future__ import annotations

import onnx
import onnx.defs
import onnx.helper

from passcheck.case_model import Case, Form
from passcheck.cases._registry import REGISTRY
from passcheck.generate import recipe
from passcheck.passes import DEFAULT_PASSES

FAMILY = "function-body"
#: What a selection names this family's cases by: read without importing this module
#: (:class:`passcheck.cases.sources.GatedModule`), which is imported, and its gate judged, only when one does.
SELECTED_BY = {"ids": ["function-body/*"], "tags": ["function-body", "functions"]}
PASS = "onnx:inline-schema-functions"


def body_opsets(schema: onnx.defs.OpSchema) -> list[tuple[int, str]]:
    """``(opset, kind)`` for each opset a function body of ``schema`` is written for at which ``schema`` itself is in
    force, or the schema's own opset for a body written for an earlier one (Elu-22's body is written for 18)
    (``kind``: ``function`` or ``context``), from onnx's schema registry."""
    out = []
    for kind, versions in (
        ("function", schema.function_opset_versions if schema.has_function else []),
        ("context", schema.context_dependent_function_opset_versions if schema.has_context_dependent_function else []),
    ):
        for v in versions:
            v = max(v, schema.since_version)  # a body older than the schema serves it from the schema's opset
            try:
                at = onnx.defs.get_schema(schema.name, v, schema.domain)
            except onnx.defs.SchemaError:
                continue
            if at.since_version == schema.since_version and (v, kind) not in out:
                out.append((v, kind))
    return out


def function_schemas() -> list[onnx.defs.OpSchema]:
    """Every non-deprecated ai.onnx schema (all versions) with a function body or a context-dependent one."""
    return sorted(
        (
            s
            for s in onnx.defs.get_all_schemas_with_history()
            if s.domain == "" and not s.deprecated and (s.has_function or s.has_context_dependent_function)
        ),
        key=lambda s: (s.name, s.since_version),
    )


def _defaults(schema: onnx.defs.OpSchema) -> dict[str, object]:
    """Attribute name → the schema's default value, for the attributes that state one."""
    out = {}
    for name, a in schema.attributes.items():
        if not a.required and a.default_value.type:
            out[name] = onnx.helper.get_attribute_value(a.default_value)
            if isinstance(out[name], bytes):
                out[name] = out[name].decode()
    return out


def _in_force(schema: onnx.defs.OpSchema, opset: int) -> bool:
    try:
        return onnx.defs.get_schema(schema.name, opset, schema.domain).since_version == schema.since_version
    except onnx.defs.SchemaError:
        return False


def _form(node: recipe.Node, doc: str) -> Form:
    from passcheck.generate.model import to_model

    return Form(build=lambda: to_model(node), doc=doc)


def _candidate(schema: onnx.defs.OpSchema, opset: int, kind: str, elem: int | None) -> Case | None:
    """The base for ``schema`` at ``opset`` with element type ``elem`` (module docs), or None: no recipe, or one
    spelling only."""
    try:
        node = recipe.build_node(schema, opset, main=elem)
    except recipe.NoRecipe:
        return None
    defaults = _defaults(schema)
    common = node.copy()
    for name, value in defaults.items():
        common.attrs.setdefault(name, value)
    consts = [i for i in common.inputs if i.value is not None and not i.empty]
    for i in consts:
        i.mode = "constant"
    forms = {"common": _form(common, "")}
    if consts:
        inits = common.copy()
        for i in inits.inputs:
            if i.value is not None and not i.empty:
                i.mode = "initializer"
        forms["initializers"] = _form(inits, f"{', '.join(i.name for i in consts)} an initializer, not a Constant node")
    left = [n for n, v in defaults.items() if common.attrs.get(n) == v]
    if left:
        omitted = common.copy()
        for n in left:
            del omitted.attrs[n]
        forms["defaults-omitted"] = _form(omitted, f"{', '.join(left)} left to the schema default")
    if opset - 1 >= max(schema.since_version, 7) and _in_force(schema, opset - 1):
        before = common.copy()
        before.opset = opset - 1
        forms["before-body"] = _form(before, f"the node at opset {opset - 1}, before this body is in force")
    if len(forms) < 2:
        return None
    body = "context-dependent function body" if kind == "context" else "function body"
    elem_name = recipe.type_name(elem if elem is not None else node.main_elem())
    name = f"{FAMILY}/{schema.name.lower()}-{schema.since_version}.opset-{opset}.{elem_name}"
    return Case(
        id=name,
        forms=forms,
        doc=f"""{schema.name}-{schema.since_version} at opset {opset}, where its {body} is written for (onnx
schema), {elem_name}; defaulted attributes written out ({", ".join(defaults) or "none"}).

Uncommon: {"; ".join(f"{k}: {f.doc}" for k, f in forms.items() if k != "common")}.
Valid: opset {min(opset, schema.since_version)} to {opset} (Operators.md {schema.name}, "Function").""",
        opset=opset,
        passes=tuple(dict.fromkeys((*DEFAULT_PASSES, PASS))),
        tags=frozenset({"functions", "function-body"}),
    )


def _elems(schema: onnx.defs.OpSchema) -> list[int | None]:
    """The element types the first input's type parameter allows that the CPU provider runs; ``[None]`` (the
    recipe's own) for an op whose first input has a fixed type or that has no input."""
    first = schema.inputs[0].type_str if schema.inputs else "tensor("
    return (recipe.allowed(schema, first) or [None]) if not first.startswith(("tensor(", "seq(")) else [None]


def _parts() -> tuple:
    """The gate's cache key parts: the generator's hash (its recipes, domain table and the onnx / onnxruntime
    versions) and this module's text."""
    from pathlib import Path

    from passcheck.generate import generator_hash

    return (generator_hash(), Path(__file__))


def gate_key() -> str:
    """The verdicts' cache key (16 hex, :func:`passcheck.cases.schema_gate.gate_key` of :func:`_parts`):
    ``<cache>/function-body/<key>/``."""
    from passcheck.cases import schema_gate

    return schema_gate.gate_key(_parts())


def _gated(cases: list[Case]) -> list[Case]:
    """The candidates with the forms that pass the schema-built families' gate
    (:func:`passcheck.cases.schema_gate.gate_cases`: the full checker, onnxruntime on each binding's feeds agreeing
    with the common form, annotations holding on the values observed, the reference evaluator agreeing or lacking the
    op; every tool in passcheck's isolation worker); a base keeps its common form and one more, or is left out. Judged
    once per :func:`gate_key` (``<cache>/function-body/<key>/index.json``)."""
    from passcheck.cases import schema_gate

    return schema_gate.gate_cases(FAMILY, cases, _parts())


_CANDIDATES = [
    c
    for _schema in function_schemas()
    for _opset, _kind in body_opsets(_schema)
    for _elem in _elems(_schema)
    if (c := _candidate(_schema, _opset, _kind, _elem)) is not None
]
for _case in _gated(_CANDIDATES):
    REGISTRY.register(_case)
