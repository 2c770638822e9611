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
"""

from passcheck.oracles import acceptance, annotations, expectations, folding, numeric, parity, shape_annotations, validity
from passcheck.oracles._context import FormRun, op_counts

#: Oracles applied to each form's run, in report order.
PER_FORM = (validity, numeric, annotations, folding)
#: Oracles applied across the forms of a case.
ACROSS_FORMS = (acceptance, parity)

__all__ = ["ACROSS_FORMS", "PER_FORM", "FormRun", "acceptance", "annotations", "expectations", "folding", "numeric", "op_counts", "parity", "shape_annotations", "validity"]
