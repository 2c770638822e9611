"""gemm-written/*: every Gemm schema from opset 7 at each ``transA`` / ``transB``, written as the ops its
definition names, with the Gemm node as the other form (M388).

Spec freedom: Operators.md Gemm (opset 7+) defines ``Y = alpha * A' * B' + beta * C`` with ``A' = transpose(A)`` when
``transA`` and ``B' = transpose(B)`` when ``transB``; at ``alpha = beta = 1`` and rank-2 operands that is
``Add(MatMul(A', B'), C)`` with each ``A'`` / ``B'`` a ``Transpose`` whose ``perm`` is ``[1, 0]`` (Operators.md
Transpose: the default ``perm`` reverses the dims, so writing it out is the same op; Add's multidirectional broadcast
of a ``[N]`` C over ``[M, N]`` is Gemm's unidirectional one). onnxscript's opt-in rules
``TransAMatMulAddToGemm``, ``TransBMatMulAddToGemm`` and ``TransABMatMulAddToGemm``
(``rewriter/rules/common/_matmul_add_to_gemm.py``) match exactly that, with ``perm=[1, 0]`` written; the hunt's
``gemm-to-matmul`` rewrite writes the Transpose without ``perm`` and the coverage map observes first forms only, so
before this family no base triggered the three rules.

One base per (Gemm since_version >= 7, transA, transB), from the generator's recipe
(:func:`passcheck.generate.recipe.build_node`: the domain table's shapes ``A [3, 4]``, ``B [4, 5]``, ``C [5]``, the
transposed operand's shape reversed):

- ``common``: the Gemm expanded by :func:`passcheck.mutations.gemm.to_matmul`, every Transpose's ``perm`` written
  out (:func:`passcheck.mutations.schema_forms.transpose_perm_explicit`);
- ``gemm``: the Gemm node.

The forms differ in ops by construction, so parity compares status and annotation precision only. Each base is kept
where both forms pass the schema-built families' gate (:func:`passcheck.cases.schema_gate.gate_cases`), judged once
per generator hash and module text.
"""

from __future__ import annotations

import dataclasses

import onnx
import onnx.defs

from passcheck.case_model import Case, Form
from passcheck.cases._registry import REGISTRY
from passcheck.generate import recipe
from passcheck.mutations.gemm import MIN_OPSET, to_matmul
from passcheck.mutations.schema_forms import transpose_perm_explicit
from passcheck.passes import DEFAULT_PASSES

FAMILY = "gemm-written"
#: What a selection names this family's cases by: read without importing this module
#: (:class:`passcheck.cases.sources.GatedModule`), which is imported, and its gate judged, only when one does.
SELECTED_BY = {"ids": ["gemm-written/*"], "tags": ["gemm-written", "fusion"]}
PASSES = tuple(dict.fromkeys((*DEFAULT_PASSES, "onnxscript:rewrite-opt-in", "ort:all")))
#: (transA, transB) and the id suffix
TRANSPOSES = {(0, 0): "plain", (1, 0): "trans-a", (0, 1): "trans-b", (1, 1): "trans-ab"}


def _node(schema: onnx.defs.OpSchema, trans_a: int, trans_b: int) -> recipe.Node:
    node = recipe.build_node(schema, schema.since_version)
    for i, (flag, attr) in enumerate(((trans_a, "transA"), (trans_b, "transB"))):
        if flag:
            node.inputs[i].shape = tuple(reversed(node.inputs[i].shape))
            node.attrs[attr] = 1
    return node


def _gemm(node: recipe.Node) -> onnx.ModelProto:
    from passcheck.generate.model import to_model

    return to_model(node)


def written(node: recipe.Node) -> onnx.ModelProto | None:
    """The Gemm of ``node`` as Transpose(perm written) / MatMul / Add, or None when the rewrite does not apply."""
    model = _gemm(node)
    if not to_matmul(model):
        return None
    transpose_perm_explicit(model)
    return model


def _candidates(schema: onnx.defs.OpSchema) -> list[Case]:
    out = []
    for (ta, tb), suffix in TRANSPOSES.items():
        try:
            node = _node(schema, ta, tb)
        except recipe.NoRecipe:
            return []
        if written(node) is None:
            continue
        out.append(
            Case(
                id=f"{FAMILY}/gemm-{schema.since_version}.{suffix}",
                forms={
                    "common": Form(build=lambda n=node: written(n), doc=""),
                    "gemm": Form(build=lambda n=node: _gemm(n), doc=f"Gemm<transA={ta}, transB={tb}>"),
                },
                doc=f"""Gemm-{schema.since_version} (transA={ta}, transB={tb}) as [Transpose(perm=[1, 0])], MatMul, Add.

Uncommon: gemm: the Gemm node (Operators.md Gemm: Y = alpha * A' * B' + beta * C; Transpose's perm written out).
Valid: opset {schema.since_version}.""",
                opset=schema.since_version,
                passes=PASSES,
                tags=frozenset({FAMILY, "fusion"}),
                parity=frozenset({"status", "precision"}),
            )
        )
    return out


def _parts() -> tuple:
    from pathlib import Path

    from passcheck.generate import generator_hash

    return (generator_hash(), Path(__file__))


def gate_key() -> str:
    """The verdicts' cache key (:func:`passcheck.cases.schema_gate.gate_key` of :func:`_parts`)."""
    from passcheck.cases import schema_gate

    return schema_gate.gate_key(_parts())


def _gated(cases: list[Case]) -> list[Case]:
    from passcheck.cases import schema_gate

    return schema_gate.gate_cases(FAMILY, cases, _parts(), every=True)


_SCHEMAS = [
    s
    for s in onnx.defs.get_all_schemas_with_history()
    if s.name == "Gemm" and s.domain == "" and s.since_version >= MIN_OPSET
]
for _case in _gated([c for _s in _SCHEMAS for c in _candidates(_s)]):
    REGISTRY.register(dataclasses.replace(_case))
