"""Standalone reproducers for upstream bug reports (``passcheck repro``).

- :mod:`~passcheck.repro.source`: a model as Python source that rebuilds it with ``onnx.helper``;
- :mod:`~passcheck.repro.script`: the script of an ``ort:<level>`` missed optimization (only onnx,
  onnxruntime, numpy) and its ``REPORT.md``;
- :mod:`~passcheck.repro.claims`: what the script of any other finding checks (the oracle's claim);
- :mod:`~passcheck.repro.tools`: the tool call of each pass, as the adapter makes it;
- :mod:`~passcheck.repro.generic`: that script (embedded feeds, the oracle's judging functions) and ``REPORT.md``;
- :mod:`~passcheck.repro.plan`: which findings are scripted, their feeds, and the run that checks a script;
- :mod:`~passcheck.repro.bisected`: ``REPORT.md``'s first bad version.
"""
