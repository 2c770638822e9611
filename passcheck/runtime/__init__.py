"""Running models: deterministic feeds and onnxruntime sessions that observe intermediates.

Catalogue:

- :func:`synthesize`, :func:`default_bindings`, :func:`graph_symbols` — feeds from annotations.
- :func:`run_ort` → :class:`RunResult` — an unoptimized ORT run exposing chosen values.
"""

from passcheck.runtime.feeds import default_bindings, graph_symbols, runtime_inputs, synthesize
from passcheck.runtime.session import RunResult, all_node_outputs, observation_copy, run_ort

__all__ = [
    "RunResult",
    "all_node_outputs",
    "default_bindings",
    "graph_symbols",
    "observation_copy",
    "run_ort",
    "runtime_inputs",
    "synthesize",
]
