"""Graph optimizers shipped as Python packages, called through their Python API in the pass worker.

The same tools as the ``cmd+fold:onnxsim`` / ``cmd+fold:onnxslim`` recipes, without a process, a
file round trip and an interpreter start per model: a crash still costs one cell (the adapters
run in the isolation worker like every pass), and the worker is reused across cells. Each tool is
an extra install (``pip install onnxsim`` …; pins in ``ci/tool-envs/``): missing, its pass is
``unavailable`` with that command, never a finding.
"""

from __future__ import annotations

from pathlib import Path

from passcheck.passes._base import PassAdapter


class OnnxsimAdapter(PassAdapter):
    """``onnxsim:simplify``: ``onnxsim.simplify(model)`` with its defaults (constant folding with
    onnxruntime, shape inference, onnxoptimizer's fusions). Its own check (random inputs) is not a
    verdict here: the oracles compare the output with the unoptimized run on the cell's feeds."""

    id = "onnxsim:simplify"
    tools = ("onnxsim",)
    extra = "onnxsim"
    folds_constants = True
    optimizes = True
    doc = "onnxsim.simplify(model) with its defaults (Python API; pip install onnxsim)"

    def apply(self, model, workdir: Path):
        import onnxsim

        simplified, _check = onnxsim.simplify(model)
        return simplified


class OnnxslimAdapter(PassAdapter):
    """``onnxslim:slim``: ``onnxslim.slim(model)`` with its defaults (constant folding, dead-node
    elimination, pattern fusions, shape inference)."""

    id = "onnxslim:slim"
    tools = ("onnxslim",)
    extra = "onnxslim"
    folds_constants = True
    optimizes = True
    doc = "onnxslim.slim(model) with its defaults (Python API; pip install onnxslim)"

    def apply(self, model, workdir: Path):
        import onnxslim

        return onnxslim.slim(model)


class OnnxoptimizerAdapter(PassAdapter):
    """``onnxoptimizer:optimize``: ``onnxoptimizer.optimize(model)`` with its default passes (the
    fuse-and-eliminate set: no-op elimination, Transpose/BatchNormalization/Pad fusions, …)."""

    id = "onnxoptimizer:optimize"
    tools = ("onnxoptimizer",)
    extra = "onnxoptimizer"
    optimizes = True
    doc = "onnxoptimizer.optimize(model) with its default passes (Python API; pip install onnxoptimizer)"

    def apply(self, model, workdir: Path):
        import onnxoptimizer

        return onnxoptimizer.optimize(model)


ADAPTERS = (OnnxsimAdapter(), OnnxslimAdapter(), OnnxoptimizerAdapter())
