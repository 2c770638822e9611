"""Mutations: rewrite a real model into equivalent uncommon forms (metamorphic testing).

Catalogue (module — rewrite ids, each pair the inverse of the other):

- :mod:`~passcheck.mutations.optional_inputs` — ``empty-optional-input`` / ``omitted-optional-input``.
- :mod:`~passcheck.mutations.shape_slice` — ``shape-start-end`` / ``shape-then-slice``.
- :mod:`~passcheck.mutations.constants` — ``constant-typed-attr`` / ``constant-value-tensor``.
- :mod:`~passcheck.mutations.initializers` — ``initializer-to-constant`` / ``constant-to-initializer``.
- :mod:`~passcheck.mutations.raw_data` — ``typed-data`` / ``raw-data``.
- :mod:`~passcheck.mutations.axes` — ``negative-axes`` / ``positive-axes``.
- :mod:`~passcheck.mutations.defaults` — ``explicit-defaults`` / ``omitted-defaults``.
- :mod:`~passcheck.mutations.topo_order` — ``reverse-topo-order``.
- :mod:`~passcheck.mutations.value_info` — ``no-value-info`` / ``inferred-value-info``.
- :mod:`~passcheck.mutations.identity` — ``identity-edges``.
- :mod:`~passcheck.mutations.commute` — ``commute-operands``.
- :mod:`~passcheck.mutations.broadcast` — ``explicit-broadcast`` / ``implicit-broadcast``.
- :mod:`~passcheck.mutations.keepdims` — ``keepdims-unsqueeze`` / ``unsqueeze-keepdims``.
- :mod:`~passcheck.mutations.reduce_squeeze` — ``keepdims-squeeze`` / ``squeeze-keepdims``.
- :mod:`~passcheck.mutations.scalar_operand` — ``operand-ones-as-scalar`` / ``operand-scalar-as-one``.
- IR-level freedoms (every scope where the freedom exists: main graph, subgraphs, function bodies):
  :mod:`~passcheck.mutations.names`, :mod:`~passcheck.mutations.docs_meta`,
  :mod:`~passcheck.mutations.list_order`, :mod:`~passcheck.mutations.graph_inputs`,
  :mod:`~passcheck.mutations.domains`, :mod:`~passcheck.mutations.ir_version`,
  :mod:`~passcheck.mutations.optional_slots`, :mod:`~passcheck.mutations.outer_scope`,
  :mod:`~passcheck.mutations.local_functions`, :mod:`~passcheck.mutations.graph_outputs`,
  :mod:`~passcheck.mutations.value_types`, :mod:`~passcheck.mutations.sparse_constant`.
- Schema-walk spellings: :mod:`~passcheck.mutations.schema_forms` (Transpose perm, Relu as Max/Clip,
  Split sizes), :mod:`~passcheck.mutations.reshape_dims`, :mod:`~passcheck.mutations.variadic`,
  :mod:`~passcheck.mutations.function_bodies` (an op as its schema function body),
  :mod:`~passcheck.mutations.loop_carried`, :mod:`~passcheck.mutations.neutral_select`,
  :mod:`~passcheck.mutations.function_types`, :mod:`~passcheck.mutations.function_overloads`,
  :mod:`~passcheck.mutations.training_info`, :mod:`~passcheck.mutations.attribute_inputs`,
  :mod:`~passcheck.mutations.transpose_split` (one Transpose as two), :mod:`~passcheck.mutations.concat_nested`
  (one Concat as two), :mod:`~passcheck.mutations.slice_per_axis` (a Slice one axis at a time),
  :mod:`~passcheck.mutations.text_attrs` (the attribute freedoms only an attribute's schema text states, every domain:
  :mod:`~passcheck.mutations.attr_text`).

The full list, with the spec section each freedom rests on and the freedoms no rewrite can produce,
is the spelling catalogue (:mod:`~passcheck.mutations.catalogue`, ``docs/spellings.md``): a rewrite
module declares ``FREEDOMS`` beside ``REWRITES`` and is listed, one line, in
:data:`~passcheck.mutations.registry.MODULES`.

Each rewrite applies at *sites* (nodes, values, initializers) and can be limited to some of them
(:meth:`Rewrite.apply` ``sites=``); a form is named ``ID`` (every site), ``ID@SITE`` (one site) or
``A+B`` (B applied to A's result), see :func:`~passcheck.mutations.registry.iter_mutants`.

Machinery: :mod:`~passcheck.mutations._base` (:class:`Rewrite`, :class:`Applied`),
:mod:`~passcheck.mutations.registry` (:data:`REWRITES`, :func:`mutants` / :func:`iter_mutants`, :func:`build_form`),
:mod:`~passcheck.mutations.equivalence` (:func:`verify_equivalent`, the gate every mutant passes),
:mod:`~passcheck.mutations.subject` (:func:`mutation_subject`: original + verified mutants as one
:class:`~passcheck.engine.Subject`).
"""

from passcheck.mutations._base import Applied, Rewrite
from passcheck.mutations.equivalence import check_input, verify_equivalent
from passcheck.mutations.registry import REWRITES, build_form, get_rewrite, iter_mutants, mutants, parse_form
from passcheck.mutations.subject import mutation_subject, verified_mutants

__all__ = [
    "REWRITES",
    "Applied",
    "Rewrite",
    "build_form",
    "check_input",
    "get_rewrite",
    "iter_mutants",
    "mutants",
    "mutation_subject",
    "parse_form",
    "verified_mutants",
    "verify_equivalent",
]
