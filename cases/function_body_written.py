"""body-written/*: every ai.onnx op with a function body, written as its body's nodes, with the op node as the
other form; and the same body with every commutative node's operands swapped (M350).

Spec freedom: IR.md "Functions" (an operator may be defined as a composition of other operators) and Operators.md
"Function": a node of such an op computes what its body computes, so the body's nodes, inlined, are another spelling
of the op. Add, Mul, Sum, Max, Min, Equal, And, Or and Xor are commutative (Operators.md; opset >= 7 broadcasting is
symmetric), so a body with their operands swapped computes the same values again.

Fusion rules recognise exactly such bodies: onnxscript's ``HardSwishFusionFromHardSigmoid``
(``rewriter/rules/common/_fuse_hardswish.py``) matches ``Mul(HardSigmoid<alpha=1/6, beta=0.5>(x), x)``, which is
HardSwish-14's body, and its rule set is built with ``commute=True``, so onnxscript adds the rule with the Mul's
operands the other way round (``RewriteRuleSet(..., commute=True)``, ``RewriteRule.commute``: the catalogue's
``HardSwishFusionFromHardSigmoid#2``). Before this family no base's first form held an op's body written out (the
hand-written ``functions/*`` cases write a few as their *uncommon* form, and the coverage map observes first forms
only), so ``passcheck coverage`` listed both untriggered.

One base per (schema with a function body, opset its body is written for at which the schema is in force), from
``function-body/*``'s schema walk (:func:`function_body_opsets.body_opsets`) and the generator's recipe
(:func:`passcheck.generate.recipe.build_node`: the domain table's inputs and attributes, the first element type the
CPU provider runs), every defaulted attribute written out (a body reads attributes by reference):

- ``common``: the op node expanded into its body's nodes (the ``expand-function-ops`` rewrite,
  :func:`passcheck.mutations.function_bodies.expand_function_ops`, which inlines with ``onnx.inliner``);
- ``op``: the op node itself.

The two forms differ in their ops by construction, so parity compares their status and annotation precision only
(``Case.parity``: no ``ops``): a pass that fuses the body, or expands the op, differently is not a finding here.

And, where the body holds a commutative node with two distinct operands, a second base ``<id>.commuted`` whose
common form is the body with every such node's first two operands swapped
(:func:`passcheck.mutations.commute.swap`). Each base is kept where its forms pass the schema-built families'
gate (:func:`passcheck.cases.schema_gate.gate_cases`: the full checker, onnxruntime on each binding's feeds agreeing
with the common form, annotations that hold, the reference evaluator agreeing or lacking the op, all in the isolation
worker), judged once per generator hash and module text and cached under ``<cache>/body-written/<key>/``.
"""

from __future__ import annotations

import dataclasses

import onnx
import onnx.defs

from passcheck._library.function_body_opsets import _defaults, body_opsets, function_schemas
from passcheck.case_model import Case, Form
from passcheck.cases._registry import REGISTRY
from passcheck.generate import recipe
from passcheck.mutations.commute import swap
from passcheck.mutations.function_bodies import expand_function_ops
from passcheck.passes import DEFAULT_PASSES

FAMILY = "body-written"
#: What a selection names this family's cases by: read without importing this module
#: (:class:`passcheck.cases.sources.GatedModule`), which is imported, and its gate judged, only when one does.
SELECTED_BY = {"ids": ["body-written/*"], "tags": ["body-written", "functions"]}
#: The fusion rules that recognise bodies are onnxscript's opt-in rules and onnxruntime's fusions (``ort:all``).
PASSES = tuple(dict.fromkeys((*DEFAULT_PASSES, "onnxscript:rewrite-opt-in", "ort:all")))


def _op_model(node: recipe.Node) -> onnx.ModelProto:
    from passcheck.generate.model import to_model

    return to_model(node)


def written(node: recipe.Node, commuted: bool = False) -> onnx.ModelProto | None:
    """The one-node model of ``node`` with the node expanded into its schema function body (``commuted``: then every
    commutative node's operands swapped), or None when the rewrite finds no body (or, commuted, nothing to swap)."""
    model = _op_model(node)
    if not expand_function_ops(model):
        return None
    if commuted and not swap(model):
        return None
    return model


def _candidates(schema: onnx.defs.OpSchema, opset: int) -> list[Case]:
    """The base for ``schema`` at ``opset`` and its commuted twin (module docs); none without a recipe or a body."""
    try:
        node = recipe.build_node(schema, opset)
    except recipe.NoRecipe:
        return []
    for name, value in _defaults(schema).items():
        node.attrs.setdefault(name, value)
    out = []
    for commuted in (False, True):
        if written(node, commuted) is None:
            continue
        suffix = ".commuted" if commuted else ""
        how = ", every commutative node's operands swapped" if commuted else ""
        out.append(
            Case(
                id=f"{FAMILY}/{schema.name.lower()}-{schema.since_version}.opset-{opset}{suffix}",
                forms={
                    "common": Form(build=lambda n=node, c=commuted: written(n, c), doc=""),
                    "op": Form(build=lambda n=node: _op_model(n), doc=f"the {schema.name} node"),
                },
                doc=f"""{schema.name}-{schema.since_version} at opset {opset} written as its function body's nodes{how}
({recipe.type_name(node.main_elem())}; defaulted attributes written out).

Uncommon: op: the {schema.name} node (IR.md "Functions"; Operators.md {schema.name}, "Function"{
                    "; Add, Mul, ... commutative" if commuted else ""
                }).
Valid: opset {opset}.""",
                opset=opset,
                passes=PASSES,
                tags=frozenset({"functions", FAMILY}),
                # one op against its body differ in ops by construction: a pass that fuses the body (or expands the
                # op) is not one that missed anything the spec asks for; status and precision parity stay
                parity=frozenset({"status", "precision"}),
            )
        )
    return out


def _parts() -> tuple:
    from pathlib import Path

    from passcheck.generate import generator_hash  # its recipes, domain table, onnx / onnxruntime versions

    return (generator_hash(), Path(__file__))


def gate_key() -> str:
    """The verdicts' cache key (:func:`passcheck.cases.schema_gate.gate_key`): ``<cache>/body-written/<key>/``."""
    from passcheck.cases import schema_gate

    return schema_gate.gate_key(_parts())


def _gated(cases: list[Case]) -> list[Case]:
    """The candidates whose every form passes the schema-built families' gate
    (:func:`passcheck.cases.schema_gate.gate_cases`), judged once per :func:`gate_key`."""
    from passcheck.cases import schema_gate

    return schema_gate.gate_cases(FAMILY, cases, _parts(), every=True)


_CANDIDATES = [c for _s in function_schemas() for _o, _k in body_opsets(_s) for c in _candidates(_s, _o)]
for _case in _gated(_CANDIDATES):
    REGISTRY.register(dataclasses.replace(_case))
