"""Attribution: which part of the tool under test is responsible for a finding.

- :mod:`~passcheck.attribution.ort` names the onnxruntime graph transformer(s) or rewrite rule(s)
  behind an ``ort:*`` missed-optimization finding, by bisecting ``disabled_optimizers``;
- :mod:`~passcheck.attribution.forms` rebuilds the two forms a stored finding compared.

Attribution costs onnxruntime sessions, so it is computed on demand (``passcheck attribute``),
never during ``check``/``run``; the names land in :attr:`passcheck.records.Finding.attribution`.
"""
