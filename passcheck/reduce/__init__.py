"""Reduce a finding's pair of forms to a minimal pair that still shows it (``passcheck reduce``).

- :mod:`~passcheck.reduce.pair`: the steps (rewrite sites, nodes, initializer values);
- :mod:`~passcheck.reduce.sources`: how a set of kept nodes becomes a candidate pair;
- :mod:`~passcheck.reduce.predicates` and :mod:`~passcheck.reduce.signature`: whether a
  candidate still shows the finding;
- :mod:`~passcheck.reduce.sites`: fewest rewrite sites; :mod:`~passcheck.reduce.initializers`:
  simpler initializer values;
- :mod:`~passcheck.reduce.cut`: keep a subset of nodes of a form; cut edges become graph inputs
  (or initializers, for values computable from initializers alone);
- :mod:`~passcheck.reduce.ddmin`: delta debugging over a list, bounded by a deadline;
- :mod:`~passcheck.reduce.case_module`: the reduced pair as a case module.
"""
