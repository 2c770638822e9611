"""Reduce a finding's pair of forms to a minimal pair that still shows it (``passcheck reduce``).

- :mod:`~passcheck.reduce.cut`: keep a subset of nodes of a form; cut edges become graph inputs
  (or initializers, for values computable from initializers alone);
- :mod:`~passcheck.reduce.ddmin`: delta debugging over a list, bounded by a deadline.
"""
