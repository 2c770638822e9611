"""Standalone reproducers for upstream bug reports (``passcheck repro``).

- :mod:`~passcheck.repro.source`: a model as Python source that rebuilds it with ``onnx.helper``;
- :mod:`~passcheck.repro.script`: the script (only onnx, onnxruntime, numpy) and ``REPORT.md``.
"""
