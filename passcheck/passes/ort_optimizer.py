"""ONNX Runtime graph optimization at one level, read back from the model ORT saves.

Uses ``SessionOptions.graph_optimization_level`` and ``optimized_model_filepath``
(onnxruntime docs, "Graph optimizations"). Levels: disabled, basic, extended, all (``all`` adds
layout optimizations such as NCHWc, which write hardware-specific ops).
"""

from __future__ import annotations

from pathlib import Path

from passcheck.passes._base import PassAdapter, PassDeclined

LEVELS = {
    "disabled": "ORT_DISABLE_ALL",
    "basic": "ORT_ENABLE_BASIC",
    "extended": "ORT_ENABLE_EXTENDED",
    "all": "ORT_ENABLE_ALL",
}


class OrtOptimizerAdapter(PassAdapter):
    tools = ("onnxruntime",)
    #: ``optimized_model_filepath`` saves ``Graph::ToGraphProto()``, which is the loaded GraphProto itself while no
    #: transformer modified the graph (``core/graph/graph.cc``: ``if (!GraphProtoSyncNeeded()) return
    #: *graph_proto``); only a rewritten graph is written from its NodeArgs, whose types carry onnxruntime's inference.
    writes_given_unchanged = True
    #: Session config entries (``SessionOptions.add_session_config_entry``) set before the session is made, and
    #: transformer / rule names passed as ``disabled_optimizers``: none at a plain level
    #: (:mod:`passcheck.passes.ort_config` sets them).
    config: tuple[tuple[str, str], ...] = ()
    disabled: tuple[str, ...] = ()

    def __init__(self, level: str):
        self.level = level
        self.id = f"ort:{level}"
        self.doc = f"onnxruntime graph optimization level {LEVELS[level]}, optimized model saved"

    @property
    def folds_constants(self) -> bool:  # type: ignore[override]
        return self.level != "disabled"

    @property
    def optimizes(self) -> bool:  # type: ignore[override]
        return self.level != "disabled"

    def apply(self, model, workdir: Path):
        import onnx
        import onnxruntime as ort

        out = Path(workdir) / f"ort-{self.level}.onnx"
        so = ort.SessionOptions()
        so.graph_optimization_level = getattr(ort.GraphOptimizationLevel, LEVELS[self.level])
        so.optimized_model_filepath = str(out)
        ort.set_default_logger_severity(4)  # failures are returned as the outcome's error
        so.log_severity_level = 4
        so.intra_op_num_threads = 1
        for key, value in self.config:
            so.add_session_config_entry(key, value)
        try:
            ort.InferenceSession(
                model.SerializeToString(),
                so,
                providers=["CPUExecutionProvider"],
                disabled_optimizers=list(self.disabled) or None,
            )
        except Exception as exc:  # ORT reports every load failure as a generic exception type
            raise PassDeclined(f"{type(exc).__name__}: {exc}") from exc
        return onnx.load(str(out))
