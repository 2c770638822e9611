"""Observe the annotated values of one run, with onnxruntime (fast) or the reference evaluator.

- ``ort``: one unoptimized session (:func:`passcheck.runtime.run_ort`) with every annotated
  main-graph intermediate exposed as an extra graph output. Values inside subgraphs (If/Loop/Scan
  bodies) and model-local functions cannot be exposed this way: they are reported unobservable.
- ``reference``: :func:`passcheck.runtime.reference.run_reference`, which sees every value of
  every scope, once per iteration or call.

Annotated initializers (a graph input with a default, or a value_info naming an initializer)
are observed from the model itself when not fed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from passcheck.errors import PasscheckError
from passcheck.oracles.shape_annotations import annotated_values

if TYPE_CHECKING:
    import onnx

ENGINES = ("ort", "reference")


class RunFailed(PasscheckError):
    """The model could not be run on the given feeds, so nothing could be observed."""


def _unobservable_by_ort(model: "onnx.ModelProto") -> dict[str, str]:
    out = {}
    for a in annotated_values(model):
        if a.scope.startswith("function"):
            out[a.key] = f"inside {a.scope}: onnxruntime inlines functions and cannot expose their values; use --engine reference"
        elif a.scope:
            out[a.key] = f"inside subgraph {a.scope}: onnxruntime cannot expose subgraph values; use --engine reference"
    return out


def _initializer_values(model: "onnx.ModelProto", keys: set[str], feeds: Mapping[str, Any]) -> dict[str, Any]:
    from onnx import numpy_helper

    return {t.name: numpy_helper.to_array(t) for t in model.graph.initializer if t.name in keys and t.name not in feeds}


def _untyped_outputs(model: "onnx.ModelProto") -> "onnx.ModelProto":
    """A copy whose graph outputs carry no type: a wrong output annotation must not stop the load."""
    import onnx

    m = onnx.ModelProto()
    m.CopyFrom(model)
    for vi in m.graph.output:
        vi.ClearField("type")
    return m


def observe(model: "onnx.ModelProto", feeds: Mapping[str, Any], engine: str = "ort") -> tuple[dict[str, Any], dict[str, str]]:
    """Run ``model`` once on ``feeds`` and return what was observed of its annotated values.

    Args:
        model: the model (not modified; its annotations do not influence the run).
        feeds: input name → value.
        engine: ``ort`` (fast; main graph only) or ``reference`` (every scope).

    Returns:
        (observed, unobservable): observation key → value (see
        :func:`passcheck.oracles.shape_annotations.check`), and key → why it could not be observed.

    Raises:
        PasscheckError: an unknown engine.
        RunFailed: the model failed to load or run on ``feeds``.
    """
    if engine not in ENGINES:
        raise PasscheckError(f"--engine {engine}: unknown engine; use one of {', '.join(ENGINES)}")
    keys = {a.key for a in annotated_values(model)}
    if engine == "reference":
        from passcheck.runtime.reference import run_reference

        r = run_reference(model, feeds)
        if r.error:
            raise RunFailed(f"the reference evaluator could not run the model on these feeds: {r.error.splitlines()[0]}")
        return r.observed, {}
    from passcheck.runtime.session import run_ort

    produced = {o for n in model.graph.node for o in n.output if o}
    r = run_ort(_untyped_outputs(model), feeds, expose=[k for k in keys if k in produced])
    if r.error:
        raise RunFailed(f"onnxruntime could not run the model on these feeds: {r.error.splitlines()[0]}")
    observed = dict(r.observed)
    observed.update(_initializer_values(model, keys, feeds))
    return observed, _unobservable_by_ort(model)
