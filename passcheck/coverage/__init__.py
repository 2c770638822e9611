"""What each pass can do (the catalogue, per tool and installed version), which bases make it
happen (evidence, checked by effect), and the coverage map the hunt steers by.

- :mod:`.entry` — :class:`Entry` (one thing a tool does) and :class:`Evidence` (a base triggered it: the effect seen);
- one module per tool, each a ``catalogue()`` and a ``triggers(model)`` run in the isolation worker:
  :mod:`.ort` (graph transformers from the verbose log, rewrite rules by ``disabled_optimizers``),
  :mod:`.onnxscript` (rules, fusions, constant folding per op), :mod:`.shapes` (inference and data
  propagation per (op, since_version)), :mod:`.converter` (adapters op from → to), :mod:`.symbolic`
  (onnxruntime's symbolic shape inference handlers), :mod:`.onnx_ir` (onnx_ir's common pass
  classes), :mod:`.inliner` (onnx's inliner: local functions, schema function bodies),
  :mod:`.ort_fusions` (the ``Fusion`` classes of onnxruntime's transformer optimizer), :mod:`.onnxslim` (onnxslim's
  pattern registry and its any-op steps), :mod:`.onnxoptimizer` (onnxoptimizer's passes, each run alone),
  :mod:`.ort_precision` (float16 conversion's block list and always-float
  inputs, the dynamic quantizer's registry);
- :mod:`.worker` — the functions the worker runs; :mod:`.map` — the map and its computation;
  :mod:`.cache` — per tool version; :mod:`.library` — the map of passcheck's own bases;
  :mod:`.report` — totals, reasons, JSON; :mod:`.recheck` — one evidence record observed again.
"""

from passcheck.coverage.entry import TOOLS, Entry, Evidence
from passcheck.coverage.map import CoverageMap, catalogue, compute

__all__ = ["TOOLS", "CoverageMap", "Entry", "Evidence", "catalogue", "compute"]
