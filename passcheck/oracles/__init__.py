"""Oracles: judge pass outcomes and runs; return findings, never raise for one.

Catalogue (module — kind of finding):

- :mod:`~passcheck.oracles.validity` — ``invalid-model``: the checker rejects the pass output;
  ``validity-disagreement``: the checker rejects a form that onnxruntime runs.
- :mod:`~passcheck.oracles.acceptance` — ``rejected``: the pass declined/crashed on a valid form.
- :mod:`~passcheck.oracles.numeric` — ``wrong-result``: outputs differ from the unoptimized run.
- :mod:`~passcheck.oracles.annotations` — ``annotation-violated``: seed 000 semantics, via
  :mod:`~passcheck.oracles.shape_annotations` and :mod:`~passcheck.oracles.binding`.
- :mod:`~passcheck.oracles.folding` — ``missed-optimization``: a static-shape value left unfolded.
- :mod:`~passcheck.oracles.parity` — ``missed-optimization`` / ``less-precise`` across forms.
- :mod:`~passcheck.oracles.expectations` — ``expectation-failed``: a case's own statements.
- :mod:`~passcheck.oracles.runtime` — ``rejected``: onnxruntime cannot run a form itself.
- :mod:`~passcheck.oracles.agreement` — ``wrong-result``: a form computes other numbers than ``common``.
- :mod:`~passcheck.oracles.pass_contract` — ``input-mutated``: a pass changed the model it was given;
  ``description-dropped``: its output lost a doc_string / metadata / denotation of the interface
  (:mod:`~passcheck.oracles.descriptions`).
- :mod:`~passcheck.oracles.conformance` — ``spec-violation``: a value outside a documented domain the
  checker does not enforce (rules in :mod:`~passcheck.oracles.spec_table`).
- :mod:`~passcheck.oracles.checker_probes` — ``validity-disagreement``: the checker accepts a form broken in one
  IR rule (an undefined graph output, a payload one element short or long).
- :mod:`~passcheck.oracles.inference_probes` — ``validity-disagreement``: strict shape inference accepts a form
  broken in one documented range (an ``axis`` past the end, TopK's K zero, GatherND's ``batch_dims`` negative).
- :mod:`~passcheck.oracles.payloads` — ``spec-violation``: a tensor the pass wrote holds another count of elements
  than its dims say.

The contract is :class:`~passcheck.oracles._contract.Oracle`; the engine applies every oracle of
:mod:`~passcheck.oracles.registry` (pass cells and input cells alike).
"""

from passcheck.oracles import (
    acceptance,
    agreement,
    annotations,
    conformance,
    expectations,
    folding,
    numeric,
    parity,
    pass_contract,
    registry,
    runtime,
    shape_annotations,
    validity,
)
from passcheck.oracles._context import FormRun, op_counts
from passcheck.oracles._contract import Cells, Oracle

__all__ = [
    "Cells",
    "FormRun",
    "Oracle",
    "acceptance",
    "agreement",
    "annotations",
    "conformance",
    "expectations",
    "folding",
    "numeric",
    "op_counts",
    "parity",
    "pass_contract",
    "registry",
    "runtime",
    "shape_annotations",
    "validity",
]
