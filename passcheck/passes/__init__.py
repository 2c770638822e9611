"""Pass adapters: the tools under test, each behind an id a user types.

Catalogue:

- ``ort:disabled|basic|extended|all`` — :class:`OrtOptimizerAdapter` (the optimized model ORT saves).
- ``onnx:infer-shapes``, ``onnx:infer-shapes-strict``, ``onnx:infer-shapes-data-prop`` —
  :class:`OnnxShapeInferenceAdapter`.
- ``onnxscript:optimize`` — :class:`OnnxscriptOptimizerAdapter`; ``onnxscript:rewrite`` —
  :class:`OnnxscriptRewriteAdapter`; ``onnxscript:optimize-for-ort`` — :class:`OnnxscriptOrtFusionAdapter`.
  ``onnxscript:onnx-fusions`` — :class:`~passcheck.passes.onnxscript_onnx_fusions.OnnxscriptOnnxFusionsAdapter`
  (RMSNormalization / RotaryEmbedding / Attention at opset 23).
- ``ort:symbolic-shape-infer`` — :class:`OrtSymbolicShapeInferAdapter`.
- ``onnx:convert-opset-N`` — :class:`VersionConverterAdapter`; ``onnx:convert-opset-down|up`` —
  the neighbouring opset boundary of each model.
- ``ort-format:disabled|basic|extended|all`` — :class:`~passcheck.passes.ort_format.OrtFormatAdapter`: the model
  saved as onnxruntime's ORT format at a level, loaded back, and saved as ONNX by onnxruntime.
- ``cmd:'TOOL {in} {out}'`` — :class:`CommandAdapter`; recipes ``cmd+fold:onnxsim``,
  ``cmd+fold:onnxslim`` (extra install).
- ``PASS+external-data`` — :class:`~passcheck.passes.external_data.ExternalDataAdapter`: ``PASS`` given its
  model with the initializers in an external data file (the tools declaring ``carries_external_data``).
- ``onnx:load-external-data`` — :class:`~passcheck.passes.onnx_external_load.LoadExternalDataAdapter`: every
  raw-data tensor (attributes and model-local functions included) written out, read back by onnx's loader.
- Python callables and onnx_ir passes — :class:`FunctionAdapter` + :func:`register_pass`.
- Other packages' adapters — the ``passcheck.passes`` entry-point group (:mod:`.plugins`).

Each adapter declares :class:`Capabilities` (optimizing, folding, feeds, opset range, extra
install); :meth:`PassAdapter.why_not` is the one precondition check, and :meth:`PassAdapter.run`
records a pass that changes the model it was given (judged by
:mod:`passcheck.oracles.pass_contract`).

The tools under test are imported only inside these adapters.
"""

from passcheck.passes._base import (
    FAILED,
    STATUSES,
    Capabilities,
    PassAdapter,
    PassDeclined,
    PassOutcome,
    run_in_process,
)
from passcheck.passes._registry import (
    BASELINE,
    DEFAULT_PASSES,
    boundary_passes,
    conversion,
    get_pass,
    imports_of,
    known_pass_ids,
    parametrized_pass_ids,
    register_pass,
    unregister_pass,
)
from passcheck.passes.command import CommandAdapter
from passcheck.passes.function import FunctionAdapter
from passcheck.passes.onnx_shape_inference import OnnxShapeInferenceAdapter
from passcheck.passes.onnxscript_optimizer import (
    OnnxscriptOptimizerAdapter,
    OnnxscriptOrtFusionAdapter,
    OnnxscriptRewriteAdapter,
)
from passcheck.passes.ort_optimizer import OrtOptimizerAdapter
from passcheck.passes.ort_symbolic_shape_infer import OrtSymbolicShapeInferAdapter
from passcheck.passes.version_converter import VersionConverterAdapter

__all__ = [
    "BASELINE",
    "DEFAULT_PASSES",
    "FAILED",
    "STATUSES",
    "Capabilities",
    "CommandAdapter",
    "FunctionAdapter",
    "OnnxShapeInferenceAdapter",
    "OnnxscriptOptimizerAdapter",
    "OnnxscriptOrtFusionAdapter",
    "OnnxscriptRewriteAdapter",
    "OrtOptimizerAdapter",
    "OrtSymbolicShapeInferAdapter",
    "PassAdapter",
    "PassDeclined",
    "PassOutcome",
    "VersionConverterAdapter",
    "boundary_passes",
    "conversion",
    "get_pass",
    "imports_of",
    "known_pass_ids",
    "parametrized_pass_ids",
    "register_pass",
    "run_in_process",
    "unregister_pass",
]
