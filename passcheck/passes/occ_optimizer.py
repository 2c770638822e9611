"""onnxconverter-common's graph optimizer (``onnxconverter_common.optimizer``): the pass keras2onnx, onnxmltools and
tf2onnx-era converters ran on the graph they wrote.

``optimize_onnx_model(model, nchw_inputs=None, stop_initializers=None)`` replaces ``model.graph`` (the model is edited
in place and returned) with ``optimize_onnx_graph(graph.node, inputs=graph.input, outputs=graph.output,
initializers=graph.initializer, model_value_info=graph.value_info, target_opset=<the ai.onnx import>)``, which:

- raises for an ai.onnx opset below 9 ("Use optimize_onnx_graph for opset >= 9"): :attr:`min_opset` 9, such a model
  is ``unavailable``; a model importing no ai.onnx opset is outside it too (``next(...)`` finds no version);
- links the main graph's nodes (``LinkedNode.build_from_onnx``: one producer per value, every other read a graph
  input, an initializer or ``""``) and applies, until none finds anything, ``MatmulOptimizer``,
  ``TransposeOptimizer`` (Transpose pairs merged, a Transpose pushed through element-wise / broadcast ops, Pad,
  Squeeze, Unsqueeze, Slice), ``RedundantOptimizer`` (Identity removed), ``MergePadConvOptimizer``,
  ``MergeReshapeOptimizer``, ``MergeCastOptimizer``, ``MergePadTransposeConvOptimizer``,
  ``MergeSqueezeUnsqueezeOptimizer``, ``SwapOpOptimizer``, ``MergeCommonSequenceOptimizer`` and, from opset 9,
  ``ConvBatchNormOptimizer`` (BatchNormalization's scale and shift folded into the Conv before it) — each is a
  rewrite the module states keeps the computation;
- then ``const_folding_optimizer``: the nodes the graph outputs reach, in depth order; a node whose every input is an
  initializer or a folded value is evaluated with numpy when its op type has an ``OnnxGraphContext._On<op>``
  method (:data:`FOLDS`: 18 op types) and becomes an initializer; nodes no graph output reaches are dropped; an
  initializer read by a subgraph, or listed in ``stop_initializers``, is not folded through. If / Loop / Scan
  bodies are folded the same way, recursively. Model-local functions are not touched.

The passes (:data:`VARIANTS`): ``occ:optimize`` (the defaults) and ``occ:optimize-stop-initializers`` (every
initializer listed in ``stop_initializers``: the rewrites alone, no folding through a weight). ``nchw_inputs`` is
not offered: it inserts ``Transpose(perm=[0, 2, 3, 1])`` behind the named inputs — a statement about the caller's
layout that changes the computation, not an optimization of it. Both declare ``optimizes`` (parity of op types
between forms) and :attr:`OccOptimizerAdapter.by_type` = :data:`FOLDS` (it folds by op type alone); neither declares
``folds_constants``: the folder evaluates only those 18 op types (a constant Relu or a Shape stays by design), and
``folds_shapes`` is False (no Shape method). A missing package is ``unavailable``; so is a model holding an input-less
node other than Constant / RandomNormal / RandomUniform (the folder's stated assumption, :data:`ASSUMES`).
"""

from __future__ import annotations

import contextlib
import io
import warnings
from pathlib import Path
from typing import Any

from passcheck.passes._base import PassAdapter, PassUnsupported

PREFIX = "occ:"
#: variant -> keyword arguments of ``optimize_onnx_model`` (``stop_initializers`` True: every initializer's name).
VARIANTS: dict[str, dict[str, Any]] = {
    "optimize": {},
    "optimize-stop-initializers": {"stop_initializers": True},
}
#: The assertion ``_dfs_calc`` states its assumption with (``_opt_const_folding.py``): a node with no inputs is a
#: Constant, RandomNormal or RandomUniform. A model holding another input-less node (SequenceEmpty, a contrib or
#: local op) is outside what the folder says it handles: ``unavailable`` with the tool's words, not a finding.
ASSUMES = "Assume only the generator operation node hasn't any inputs"
#: The op types ``OnnxGraphContext.calculate`` evaluates (its ``_On<op>`` methods, onnxconverter-common 1.14–1.16).
FOLDS = frozenset(
    {
        "Identity",
        "Constant",
        "Add",
        "Cast",
        "Gather",
        "Greater",
        "Less",
        "Mul",
        "Not",
        "Transpose",
        "Range",
        "Slice",
        "Div",
        "Pow",
        "Sqrt",
        "Sub",
        "Unsqueeze",
        "Reshape",
    }
)


class OccOptimizerAdapter(PassAdapter):
    """``occ:<variant>`` (see the module docstring): the optimizer's output model.

    Attributes:
        variant: a key of :data:`VARIANTS`.

    Raises (from :meth:`apply`): :class:`~passcheck.passes._base.PassUnsupported` for the folder's stated assumption
    (:data:`ASSUMES`); whatever else the tool raises on a model within opset 9+ is recorded as ``crashed`` (its
    bare ``assert`` s, KeyErrors and IndexErrors state no limit)."""

    tools = ("onnxconverter-common", "onnx")
    optimizes = True
    folds_shapes = False
    min_opset = 9
    extra = "onnxconverter-common"
    by_type = FOLDS

    def __init__(self, variant: str):
        if variant not in VARIANTS:
            raise ValueError(f"unknown variant {variant!r}; one of {', '.join(VARIANTS)}")
        self.variant = variant
        self.id = f"{PREFIX}{variant}"
        self.options = dict(VARIANTS[variant])
        stop = ", stop_initializers=[every initializer]" if self.options.get("stop_initializers") else ""
        self.doc = f"onnxconverter_common.optimizer.optimize_onnx_model(model{stop})"

    def apply(self, model, workdir: Path):
        from onnxconverter_common.optimizer import optimize_onnx_model

        kwargs = {}
        if self.options.get("stop_initializers"):
            kwargs["stop_initializers"] = [t.name for t in model.graph.initializer]
        with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
            warnings.simplefilter("ignore")
            try:
                return optimize_onnx_model(model, **kwargs)
            except AssertionError as exc:
                if ASSUMES in str(exc):
                    raise PassUnsupported(f"onnxconverter-common's const_folding_optimizer: {exc}") from exc
                raise


ADAPTERS = tuple(OccOptimizerAdapter(v) for v in VARIANTS)
