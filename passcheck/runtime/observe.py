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

import dataclasses
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from passcheck.errors import PasscheckError
from passcheck.oracles.shape_annotations import annotated_values
from passcheck.runtime.session import observation_copy

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
    import onnx.helper

    return {t.name: TensorMeta(tuple(t.dims), np.dtype(onnx.helper.tensor_dtype_to_np_dtype(t.data_type)))
            for t in model.graph.initializer if t.name in keys and t.name not in feeds}


@dataclasses.dataclass(frozen=True)
class TensorMeta:
    """A tensor as the checker needs it: ``shape`` and numpy ``dtype``, without its data."""

    shape: tuple[int, ...]
    dtype: np.dtype


def _ort_copy(model: "onnx.ModelProto", expose: list[str]) -> "onnx.ModelProto":
    """The session's model: annotations cleared, ``expose`` added as outputs, outputs untyped.

    Graph outputs carry no type, so a wrong output annotation cannot stop the model from loading.
    """
    copy, _ = observation_copy(model, expose)
    for vi in copy.graph.output:
        vi.ClearField("type")
    return copy


def _all_tensors(model: "onnx.ModelProto") -> bool:
    return all(a.type.WhichOneof("value") == "tensor_type" for a in annotated_values(model) if not a.scope)


def _run_ort_meta(model: "onnx.ModelProto", feeds: Mapping[str, Any], expose: list[str]) -> dict[str, Any]:
    """One unoptimized ORT run keeping outputs as OrtValues: only shape and elem_type are read."""
    import onnx.helper
    import onnxruntime as ort

    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    so.log_severity_level = 3
    so.intra_op_num_threads = 1
    try:
        sess = ort.InferenceSession(_ort_copy(model, expose).SerializeToString(), so, providers=["CPUExecutionProvider"])
        wanted = {i.name for i in sess.get_inputs()}
        ins = {k: ort.OrtValue.ortvalue_from_numpy(np.asarray(v)) for k, v in feeds.items() if k in wanted}
        values = sess.run_with_ort_values([o.name for o in sess.get_outputs()], ins)
    except Exception as exc:  # noqa: BLE001 - reported as RunFailed by the caller
        raise RunFailed(f"onnxruntime could not run the model on these feeds: {type(exc).__name__}: {str(exc).strip().splitlines()[0]}") from None
    out: dict[str, Any] = {}
    for o, v in zip(sess.get_outputs(), values):
        if v.is_tensor():
            out[o.name] = TensorMeta(tuple(v.shape()), np.dtype(onnx.helper.tensor_dtype_to_np_dtype(v.element_type())))
        else:
            out[o.name] = v.numpy()
    return out


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
    expose = [k for k in keys if k in produced]
    if _all_tensors(model):
        observed = _run_ort_meta(model, feeds, expose)
    else:
        r = run_ort(_ort_copy(model, []), feeds, expose=expose)
        if r.error:
            raise RunFailed(f"onnxruntime could not run the model on these feeds: {r.error.splitlines()[0]}")
        observed = dict(r.observed)
    observed.update(feeds)
    observed.update(_initializer_values(model, keys, feeds))
    return observed, _unobservable_by_ort(model)
