"""Observe one run of a model: what the oracles asked for, or its annotated values.

:func:`observe_run` is the path of every judged run (``run``, ``check``, ``compare``, the
exporters, ``passcheck.testing`` and the pytest plugin): one onnxruntime run
(:func:`run_observing`) exposing the main-graph values whose data an
:class:`~passcheck.runtime.plan.ObservationPlan` asks for and reading the shape and element type
of its shape-only tensors from onnxruntime's profile of that run (as ``ort`` below), completed by
the model's own initializers and by the reference evaluator for values inside subgraphs and
functions. :func:`observe` reads only the shape and element type of every annotated value
(``passcheck annotations``), with:

- ``ort``: one unoptimized session (the options of :func:`passcheck.runtime.session.session_options`).
  Annotated tensors produced by main-graph nodes are read from onnxruntime's own per-node profile
  (each kernel's output shapes and element types, after it ran), so they are neither kept alive
  nor copied: the run allocates and reuses memory as a plain run does. Graph outputs come from
  the run itself, as OrtValues (shape and element type only). Values the profile cannot vouch for
  (Constant outputs, non-tensor annotations) are exposed as extra graph outputs of the same run.
  When onnxruntime rewrote the graph (for example a Cast inserted around a float16 kernel it
  lacks), the profile no longer describes the model's own nodes, and the run is repeated with
  every annotated intermediate exposed. Subgraph nodes are tagged apart, and their kernels'
  events skipped, so a model with If/Loop/Scan keeps the profile for its main graph. Values
  inside subgraphs (If/Loop/Scan bodies) and model-local functions cannot be observed this way:
  they are reported unobservable.
- ``reference``: :func:`passcheck.runtime.reference.run_reference`, which sees every value of
  every scope, once per iteration or call.
- ``auto`` (the default): ``ort`` for the main graph; when the model has subgraphs or
  model-local functions, the reference evaluator for their values (:func:`with_subscopes`).

Annotated initializers (a graph input with a default, a value_info naming an initializer) are
observed from the model itself when not fed. The profile reading is :mod:`passcheck.runtime.profile`;
reading initializers and subscope values is :mod:`passcheck.runtime.completion`."""

from __future__ import annotations

import dataclasses
import glob
import itertools
import os
import tempfile
import threading
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from passcheck.errors import PasscheckError
from passcheck.runtime import profile as _prof
from passcheck.runtime.completion import (
    _initializer_values,
    _unobservable_by_ort,
    initializer_observations,
    with_subscopes,
)
from passcheck.runtime.feeds import session_inputs
from passcheck.runtime.plan import ObservationPlan, Observed, node_label, plan_of
from passcheck.runtime.profile import TensorMeta  # noqa: F401 - observations are TensorMeta
from passcheck.runtime.profile import Untrusted as _Untrusted
from passcheck.runtime.profile import copy_bytes as _copy_bytes
from passcheck.runtime.profile import ort_copy as _ort_copy
from passcheck.runtime.profile import profiled as _profiled
from passcheck.runtime.profile import subgraph_nodes as _subgraph_nodes
from passcheck.runtime.session import RunResult, run_ort, session_options

if TYPE_CHECKING:
    import onnx

ENGINES = ("auto", "ort", "reference")

_TRACES = itertools.count()


class RunFailed(PasscheckError):
    """The model could not be run on the given feeds, so nothing could be observed."""


def _run_failed(exc: BaseException, model: onnx.ModelProto) -> RunFailed:
    """The failure, naming nodes as the user knows them (not by the session copy's tags)."""
    nodes = model.graph.node
    text = _prof.TAGGED.sub(
        lambda m: node_label(nodes[int(m.group(1))], int(m.group(1))), str(exc).strip().splitlines()[0]
    )
    if _prof.SUB_TAG in text:
        inner = _subgraph_nodes(model.graph)
        text = _prof.SUBTAGGED.sub(lambda m: node_label(inner[int(m.group(1))], int(m.group(1))), text)
    return RunFailed(f"onnxruntime could not run the model on these feeds: {type(exc).__name__}: {text}")


def _run(
    model: onnx.ModelProto,
    feeds: Mapping[str, Any],
    expose: list[str],
    profile: list[tuple[str, ...]] | None,
    values: bool = False,
    model_key: bytes | None = None,
) -> tuple[dict[str, Any], dict[str, TensorMeta]]:
    """One session and run: (graph outputs and ``expose`` → TensorMeta, profiled node outputs).

    ``profile``: the outputs of each main-graph node to read from the run's profile, or None.
    ``values``: fetch values as :func:`run_ort` does (numpy; graph outputs keep their declared
    element type), not TensorMeta. ``model_key``: sha256 of ``model``'s bytes, when known: the
    session copy's bytes are then made once per model and observed names (:func:`passcheck.runtime.profile.copy_bytes`).

    Raises:
        RunFailed: the model failed to load or run.
        _Untrusted: a fetched value is not a tensor, or the profile is not of the model's nodes.
    """
    import onnxruntime as ort

    if not values and any(
        np.asarray(x).dtype.kind in "OSU"
        for v in feeds.values()
        for x in (v if isinstance(v, list) else [v])
        if x is not None
    ):
        raise _Untrusted("a STRING input: onnxruntime takes strings from numpy only, not as OrtValues")
    so = session_options()
    prefix = os.path.join(tempfile.gettempdir(), f"passcheck-ort-{os.getpid()}-{threading.get_ident()}-{next(_TRACES)}")
    if profile is not None:
        so.enable_profiling = True
        so.profile_file_prefix = prefix
        so.log_severity_level = 4  # a session that fails to load logs an error for the profile it cannot write
    sess, trace = None, ""
    try:
        data = _copy_bytes(model, expose, profile is not None, not values, model_key)
        sess = ort.InferenceSession(data, so, providers=["CPUExecutionProvider"])
        wanted = session_inputs(sess)
        names = [o.name for o in sess.get_outputs()]
        if values:
            fetched = sess.run(names, {k: v for k, v in feeds.items() if k in wanted})
        else:
            fetched = sess.run_with_ort_values(
                names, {k: ort.OrtValue.ortvalue_from_numpy(np.asarray(v)) for k, v in feeds.items() if k in wanted}
            )
    except Exception as exc:  # noqa: BLE001 - reported as RunFailed
        raise _run_failed(exc, model) from None
    finally:
        if profile is not None and sess is not None:
            trace = _prof.end_profiling(sess)
        elif profile is not None:  # the session failed to load: its profile file was created, never written
            for path in glob.glob(glob.escape(prefix) + "*.json"):
                os.unlink(path)
    profiled = _profiled(profile, trace) if profile is not None else {}
    if values:
        return dict(zip(names, fetched)), profiled
    if not all(v.is_tensor() for v in fetched):
        raise _Untrusted("a fetched value is not a tensor")
    return {n: _prof.meta(v.shape(), v.element_type()) for n, v in zip(names, fetched)}, profiled


def _run_exposed(
    model: onnx.ModelProto, feeds: Mapping[str, Any], expose: list[str], tensors_only: bool
) -> dict[str, Any]:
    """Every value of ``expose`` and the graph outputs from one run; numpy values unless all are tensors."""
    if tensors_only:
        try:
            return _run(model, feeds, expose, profile=None)[0]
        except _Untrusted:
            pass
    r = run_ort(_ort_copy(model, []), feeds, expose=expose)
    if r.error:
        raise RunFailed(f"onnxruntime could not run the model on these feeds: {r.error.splitlines()[0]}")
    return {k: v for k, v in r.observed.items() if k not in feeds}


def _kernel_outputs(model: onnx.ModelProto, model_key: bytes | None = None) -> tuple[list[tuple[str, ...]], set[str]]:
    """(the non-empty outputs of each main-graph node, in node order; the outputs of Constant
    nodes, which onnxruntime turns into initializers: no kernel runs, so no profile event).
    With ``model_key`` (sha256 of the model's bytes) read once for the last model (the caller
    does not change what it gets)."""
    if model_key is not None:
        if _KERNELS and _KERNELS[0] == model_key:
            return _KERNELS[1]
        _KERNELS[:] = [model_key, _kernel_outputs(model)]
        return _KERNELS[1]
    node_outputs, constants = [], set()
    for n in model.graph.node:
        node_outputs.append(outs := tuple(filter(None, n.output)))
        if n.op_type == "Constant" and n.domain in ("", "ai.onnx"):
            constants.update(outs)
    return node_outputs, constants


#: [digest, _kernel_outputs(model)] of the last model run with a digest.
_KERNELS: list = []


def _observe_ort(model: onnx.ModelProto, feeds: Mapping[str, Any], main: list[tuple[str, str]]) -> dict[str, Any]:
    """``main``: (name, TypeProto kind) of every annotated main-graph value."""
    node_outputs, constants = _kernel_outputs(model)
    produced = {o for outs in node_outputs for o in outs}
    wanted = list(dict.fromkeys(k for k, _ in main if k in produced))
    not_tensor = {k for k, kind in main if kind != "tensor_type"}
    outputs = {o.name for o in model.graph.output}
    skip = not_tensor | outputs | constants
    by_profile = {k for k in wanted if k not in skip}
    if by_profile and not not_tensor:
        expose = [k for k in wanted if k not in by_profile]
        try:
            observed, profiled = _run(model, feeds, expose, profile=node_outputs)
            if by_profile <= profiled.keys() and all(profiled[k] == observed[k] for k in outputs & profiled.keys()):
                observed.update({k: profiled[k] for k in by_profile})
                return observed
        except _Untrusted:
            pass
    return _run_exposed(model, feeds, wanted, tensors_only=not not_tensor)


def run_observing(
    model: onnx.ModelProto,
    feeds: Mapping[str, Any],
    *,
    expose: Iterable[str] = (),
    shapes: Iterable[str] = (),
    model_key: bytes | None = None,
) -> RunResult:
    """Run ``model`` on ``feeds`` once with onnxruntime (CPU, unoptimized, as :func:`run_ort`),
    observing ``expose`` whole and the shape and element type of ``shapes``.

    ``shapes`` produced by main-graph kernels are read from onnxruntime's per-node profile of the run, so they are
    neither exposed, kept alive nor copied; the others (Constant outputs) are exposed. Subgraph nodes are tagged too, so
    their kernels' events are told apart and skipped. When the profile cannot vouch for them (onnxruntime rewrote the
    graph, e.g. inlined a model-local function; a value is not a tensor; the profile disagrees with the fetched
    outputs), or the profiled run fails, the run is :func:`run_ort` exposing both (which also gives the failure its
    usual text). ``model_key``: sha256 of ``model``'s bytes, when known (:func:`run_ort`).

    Args:
        model: the model to run; not modified (its annotations do not influence the run).
        feeds: input name → value.
        expose: main-graph values to observe with their data.
        shapes: main-graph values whose shape and element type only are wanted.

    Returns:
        A :class:`RunResult` as :func:`run_ort` gives: graph outputs and ``expose`` as values,
        ``shapes`` (other than graph inputs and outputs) as :class:`TensorMeta` when they are
        tensors; a failure in ``error``, never raised.
    """
    expose = list(dict.fromkeys(expose))
    whole = set(expose)
    shapes = [k for k in dict.fromkeys(shapes) if k not in whole]
    outputs = [o.name for o in model.graph.output]
    node_outputs, constants = _kernel_outputs(model, model_key) if shapes else ([], set())
    skip = set(outputs) | constants | set(feeds)
    by_profile = {k for outs in node_outputs for k in outs if k not in skip} & set(shapes)
    if by_profile:
        try:
            fetched, profiled = _run(
                model,
                feeds,
                expose + [k for k in shapes if k not in by_profile],
                profile=node_outputs,
                values=True,
                model_key=model_key,
            )
            if by_profile <= profiled.keys() and all(
                profiled[k] == _meta_of(fetched[k]) for k in profiled.keys() & set(outputs)
            ):
                observed = {k: v for k, v in fetched.items() if k not in feeds}
                observed.update({k: profiled[k] for k in by_profile})
                observed.update(feeds)
                return _shapes_only(  # the profiled ones are TensorMeta already
                    RunResult({k: fetched[k] for k in outputs if k in fetched}, observed),
                    model,
                    [k for k in shapes if k not in by_profile],
                )
        except (_Untrusted, RunFailed):
            pass
    return _shapes_only(run_ort(model, feeds, expose=expose + shapes, model_key=model_key), model, shapes)


def _meta_of(value: Any) -> TensorMeta | None:
    return TensorMeta(tuple(value.shape), value.dtype) if isinstance(value, np.ndarray) else None


def _shapes_only(run: RunResult, model: onnx.ModelProto, shapes: list[str]) -> RunResult:
    """``run`` with each tensor of ``shapes`` (not a graph input or output) as its TensorMeta."""
    keep = {o.name for o in model.graph.output} | {i.name for i in model.graph.input}
    for k in shapes:
        if k not in keep and isinstance(value := run.observed.get(k), np.ndarray):
            run.observed[k] = _meta_of(value)
    return run


def observe(
    model: onnx.ModelProto, feeds: Mapping[str, Any], engine: str = "auto"
) -> tuple[dict[str, Any], dict[str, str]]:
    """Run ``model`` on ``feeds`` and return what was observed of its annotated values.

    Args:
        model: the model (not modified; its annotations do not influence the run).
        feeds: input name → value.
        engine: ``auto`` (``ort``, plus the reference evaluator for subgraph and function
            values), ``ort`` (fast; main graph only) or ``reference`` (every scope).

    Returns:
        (observed, unobservable): observation key → value (see
        :func:`passcheck.oracles.shape_annotations.check`; tensors from ``ort`` are
        :class:`TensorMeta`), and key → why it could not be observed. With ``ort``, ``observed``
        is an :class:`~passcheck.runtime.plan.Observed` carrying the model's
        annotation plan, so ``check`` on the same model object does not read it again.

    Raises:
        PasscheckError: an unknown engine.
        RunFailed: the model failed to load or run on ``feeds``.
    """
    if engine not in ENGINES:
        raise PasscheckError(f"--engine {engine}: unknown engine; use one of {', '.join(ENGINES)}")
    if engine == "reference":
        from passcheck.runtime.isolated_tools import run_reference  # in the front door's worker (M409)

        r = run_reference(model, feeds)
        if r.error:
            raise RunFailed(
                f"the reference evaluator could not run the model on these feeds: {r.error.splitlines()[0]}"
            )
        return r.observed, {}
    plan = plan_of(model)
    main = [(key, kind) for key, _name, _tp, _role, scope, kind, _rule in plan.steps if not scope]
    observed = Observed(_observe_ort(model, feeds, main), plan=plan, of=model)
    observed.update(feeds)
    rest = {k for k, _ in main if k not in observed}
    if rest:  # an annotated initializer not fed (an overridable default, or value_info on a weight)
        observed.update(_initializer_values(model, rest, feeds))
    blind = _unobservable_by_ort(model, plan) if plan.nested else {}
    if engine == "auto":
        return with_subscopes(model, feeds, observed, blind)
    return observed, blind


#: ``(model, feeds, expose=names[, shapes=names]) -> RunResult``: how a model is run
#: (:func:`run_observing` in process by default; the isolation worker's ``run_model`` keeps a
#: crashing run from ending passcheck). ``shapes`` is passed only when the plan has some.
Runner = Any


def observe_run(
    model: onnx.ModelProto, feeds: Mapping[str, Any], plan: ObservationPlan, runner: Runner | None = None
) -> RunResult:
    """Run ``model`` on ``feeds`` once, observing what ``plan`` asks for.

    One unoptimized onnxruntime run (:func:`run_observing`, or ``runner``): the plan's main-graph
    values whose data is read (:attr:`ObservationPlan.main`) are exposed as extra graph outputs;
    those whose shape only is read (:attr:`ObservationPlan.main_shapes`) come from onnxruntime's
    profile of the run where it can vouch for them. If exposing is what makes the run fail
    (onnxruntime refuses some values as graph outputs, e.g. a sparse Constant), the model is run
    again observing only its graph outputs, so observing never turns into a finding against the
    model. Initializers the plan names and the feeds do not override are read from the model.
    Values of subgraphs and functions the plan names come from one reference-evaluator run on the
    same feeds; those no engine could see are in ``unobservable`` with why.

    With an isolation worker's ``runner`` (which knows the model's digest), ``observed`` is an
    :class:`~passcheck.runtime.plan.Observed` carrying the model's annotation plan
    (:func:`~passcheck.runtime.plan.plan_of` by that digest), so the annotation check of the same
    model object does not fingerprint it again.

    Returns:
        A :class:`~passcheck.runtime.session.RunResult`; a failed run is returned in ``error``,
        never raised.
    """
    run = runner or run_observing
    shapes = plan.main_shapes
    r = run(model, feeds, expose=plan.main, shapes=shapes) if shapes else run(model, feeds, expose=plan.main)
    if r.error:
        plain = run(model, feeds)
        if not plain.error:
            r = plain
    if r.error:
        return r
    digest_of = getattr(getattr(runner, "__self__", None), "digest", None)  # an isolation worker's
    digest = digest_of(model) if digest_of is not None else None
    seen = r.observed  # only what the run did not observe is looked for among the initializers
    inits = initializer_observations(
        model, feeds, [k for k in plan.main if k not in seen], [k for k in shapes if k not in seen], digest
    )
    r.observed.update(inits)
    if digest is not None and shapes:  # annotated tensors asked for: their plan, found by the digest, goes along
        r.observed = Observed(r.observed, plan=plan_of(model, digest), of=model)
    if not plan.scoped:
        return r
    blind = {k: why for k, why in _unobservable_by_ort(model).items() if k in plan.scoped}
    observed, unobservable = with_subscopes(model, feeds, r.observed, blind, r.outputs)
    return dataclasses.replace(r, observed=observed, unobservable=unobservable)
