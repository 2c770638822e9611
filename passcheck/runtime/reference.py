"""Run a model with ``onnx.reference.ReferenceEvaluator`` and observe every value, subgraphs included.

Works on every pinned onnx (1.16 … 1.23): the evaluator is subclassed so that each ``run`` of the
main graph, of an If/Loop/Scan body, or of a model-local function records what it computed
(``intermediate=True`` where the installed evaluator has that keyword; onnx 1.16 lacks it: there each
node's ``run`` is wrapped to record the outputs it returns, :func:`_values_by_node`). Nested
evaluators are created through ``run_params['evaluator_cls']``
(``self.__class__``), so they are recorders too. Each nested graph is matched to its scope
(:func:`passcheck.runtime.plan.graph_scopes`) by its serialized bytes; two
byte-identical subgraphs are attributed to the first. A value inside a subgraph or function is
recorded once per iteration or call, as :class:`~passcheck.runtime.plan.Repeated`.
"""

from __future__ import annotations

import collections
import functools
import hashlib
import inspect
import time
import warnings
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from passcheck.execution.process import record
from passcheck.runtime.lru import kept
from passcheck.runtime.plan import Repeated, graph_scopes, scope_key
from passcheck.runtime.reference_pool import new_ops
from passcheck.runtime.session import RunResult

if TYPE_CHECKING:
    import onnx


#: The start of a run's ``error`` when the exception was raised in this module's own code (the
#: recorder's call of the evaluator, e.g. a keyword the installed onnx lacks): passcheck's fault,
#: not the evaluator's, so callers that judge the tools (the generator's gate) count it as passcheck's.
RUNNER_FAULT = "passcheck's reference runner: "


def _raised_here(exc: BaseException) -> bool:
    """Whether ``exc`` was raised in this module's frames (its innermost frame is here)."""
    import traceback

    frames = traceback.extract_tb(exc.__traceback__)
    return bool(frames) and frames[-1].filename == __file__


#: The ``PASSCHECK_TIMINGS`` line of one reference-evaluator run made in this process (a run the cache
#: below did not hold): onnx's evaluator at work, which ``bench/check_mutations.py`` counts with the tools' jobs.
REFERENCE_LABEL = "reference run"

#: A reference-evaluator run is a :class:`~passcheck.runtime.session.RunResult` (the name is kept for callers).
ReferenceRun = RunResult


def _digest(g: Any) -> str:
    return hashlib.sha256(g.SerializeToString(deterministic=True)).hexdigest()


@functools.lru_cache(maxsize=1)
def has_intermediate() -> bool:
    """Whether the installed ``ReferenceEvaluator.run`` takes ``intermediate`` (onnx 1.16 lacks it)."""
    from onnx.reference import ReferenceEvaluator

    return "intermediate" in inspect.signature(ReferenceEvaluator.run).parameters


def _values_by_node(ev: Any, run, output_names, feed_inputs, attributes, kwargs) -> tuple[list, dict[str, Any]]:
    """``run(output_names, feed_inputs, …)`` on an evaluator without ``intermediate``: every
    runtime node's ``run`` is wrapped for the call, so the values it returns are recorded by its
    output names. Returns (the run's return value, name → value of inputs, initializers and node outputs)."""
    results: dict[str, Any] = {**ev.rt_inits_, **feed_inputs}
    wrapped = []
    for node in ev.rt_nodes_:
        inner = node.run

        def recording(*args, _inner=inner, _names=tuple(node.output), **kw):
            out = _inner(*args, **kw)
            results.update((n, v) for n, v in zip(_names, out, strict=False) if n)
            return out

        node.run = recording
        wrapped.append(node)
    try:
        returned = run(output_names, feed_inputs, attributes=attributes, **kwargs)
    finally:
        for node in wrapped:
            del node.run  # the instance attribute: the class's run again
    return returned, results


def _recorder_class():
    from onnx.reference import ReferenceEvaluator

    class Recorder(ReferenceEvaluator):
        """A ReferenceEvaluator whose runs (and its nested evaluators' runs) report their values."""

        sink: dict[str, Any] | None = None
        scopes: dict[str, str] = {}
        function_scopes: dict[tuple[str, str], str] = {}

        def _own_scope(self) -> str | None:
            import onnx

            proto = self.proto_
            if isinstance(proto, onnx.ModelProto):
                return ""
            if isinstance(proto, onnx.FunctionProto):
                return self.function_scopes.get((proto.domain, proto.name))
            if isinstance(proto, onnx.GraphProto):
                if not hasattr(self, "_passcheck_scope"):
                    self._passcheck_scope = self.scopes.get(_digest(proto))
                return self._passcheck_scope
            return None

        def _produced(self) -> list[str]:
            return list(self.input_names) + list(self.rt_inits_) + [o for n in self.nodes_ for o in n.output if o]

        def run(self, output_names, feed_inputs, attributes=None, intermediate=False, **kwargs):
            sink, scope = type(self).sink, self._own_scope()
            if sink is None or scope is None:
                extra = {"intermediate": intermediate} if intermediate else {}
                return super().run(output_names, feed_inputs, attributes=attributes, **extra, **kwargs)
            if not has_intermediate():  # onnx 1.16: no keyword (and its callers never pass intermediate=True)
                returned, results = _values_by_node(self, super().run, output_names, feed_inputs, attributes, kwargs)
                self._record(sink, scope, results)
                return returned
            results = super().run(None, feed_inputs, attributes=attributes, intermediate=True, **kwargs)
            self._record(sink, scope, results)
            if intermediate:
                return results
            return [results[n] for n in (output_names or self.output_names)]

        def _record(self, sink: dict[str, Any], scope: str, results: Mapping[str, Any]) -> None:
            for name in self._produced():
                if name not in results:
                    continue
                if scope:
                    sink.setdefault(scope_key(scope, name), Repeated()).append(results[name])
                else:
                    sink[name] = results[name]

    return Recorder


#: The raw results of the last runs, by (computation, feeds, scopes, evaluator): a model whose computation another
#: one shares (a shape-inference pass's output adds value_info only; onnxruntime's ``disabled`` output is the
#: same graph re-serialized) is not evaluated again on the same feeds. At most RUNS_KEPT runs and
#: RUNS_KEPT_BYTES of their arrays are kept, the least recently used dropped first (:func:`passcheck.runtime.lru.kept`).
#: An entry: (outputs, recorded values, error, bytes of their arrays).
_RUNS: collections.OrderedDict[tuple, tuple[dict, dict, str | None, int]] = collections.OrderedDict()
RUNS_KEPT = 8
RUNS_KEPT_BYTES = 256 << 20


def _computation(model: onnx.ModelProto) -> str:
    """sha256 of ``model`` without what cannot change a value it computes: the value_info of every graph and
    function (annotations, IR.md §Graphs: informational), doc strings, the producer and metadata."""
    import onnx

    from passcheck.runtime.plan import graph_scopes

    bare = onnx.ModelProto()
    bare.CopyFrom(model)
    bare.doc_string, bare.producer_name, bare.producer_version = "", "", ""
    del bare.metadata_props[:]
    for _, g in graph_scopes(bare):
        if hasattr(g, "value_info"):  # a FunctionProto has it from IR 10 (onnx 1.16) on
            del g.value_info[:]
        g.doc_string = ""
    return _digest(bare)


def _feeds_digest(feeds: Mapping[str, Any]) -> str:
    """sha256 of the feeds' names, kinds, dtypes, shapes and bytes (arrays, sequences, maps, None)."""
    h = hashlib.sha256()

    def add(v: Any) -> None:
        if v is None:
            h.update(b"N")
        elif isinstance(v, dict):
            h.update(b"D%d" % len(v))
            for k in sorted(v, key=repr):
                h.update(repr(k).encode())
                add(v[k])
        elif isinstance(v, (list, tuple)):
            h.update(b"L%d" % len(v))
            for x in v:
                add(x)
        else:
            a = np.asarray(v)
            h.update(f"A{a.dtype.str}{a.shape}".encode())
            h.update(a.tobytes() if a.dtype != object else repr(a.tolist()).encode())

    for name in sorted(feeds):
        h.update(name.encode() + b"\0")
        add(feeds[name])
    return h.hexdigest()


def _nbytes(values: Mapping[str, Any]) -> int:
    total = 0
    for v in values.values():
        for x in v if isinstance(v, (list, tuple)) else [v]:
            total += getattr(x, "nbytes", 0)
    return total


def _evaluated(model, feeds, cls, scopes, fscopes) -> tuple[dict, dict, str | None]:
    """(outputs, recorded values, error) of one evaluator run, before any post-processing."""
    sink: dict[str, Any] = {}
    Recorder = type("Recorder", (cls,), {"sink": sink, "scopes": scopes, "function_scopes": fscopes})
    try:
        # NaN/inf values are results here, not news for the terminal
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore", RuntimeWarning)
            ev = Recorder(model, new_ops=new_ops())  # nested evaluators get them through run_params
            values = ev.run(None, dict(feeds))
    except Exception as exc:  # noqa: BLE001 - a failing run is a result, not our error
        prefix = RUNNER_FAULT if _raised_here(exc) else ""
        return {}, sink, f"{prefix}{type(exc).__name__}: {str(exc).strip()[:2000]}"
    return dict(zip(ev.output_names, values, strict=False)), sink, None


def run_reference(model: onnx.ModelProto, feeds: Mapping[str, Any]) -> RunResult:
    """Run ``model`` on ``feeds`` with the reference evaluator, observing every value.

    Args:
        model: the model (not modified); its annotations are not enforced by the evaluator.
        feeds: input name → value (array, list for a sequence, None for an absent optional, dict).

    Returns:
        A :class:`~passcheck.runtime.session.RunResult`; a load or run failure is returned in ``error``, never raised.
    """
    from passcheck.execution.payloads import whole

    model = whole(model)  # a pass output hollowed in this process: evaluated with its payloads
    cls = _recorder_class()
    scopes, fscopes = {}, {}
    for scope, g in graph_scopes(model):
        if scope.startswith("function") and "/" not in scope:
            fscopes[(g.domain, g.name)] = scope
        elif scope:
            scopes.setdefault(_digest(g), scope)
    from onnx.reference import ReferenceEvaluator

    evaluator = (ReferenceEvaluator.run, has_intermediate())  # the evaluator that would run it
    key = (_computation(model), _feeds_digest(feeds), frozenset(scopes.values()), frozenset(fscopes.items()), evaluator)

    def evaluated() -> tuple[dict, dict, str | None, int]:
        start, cpu = time.perf_counter(), time.process_time()
        try:
            outputs, sink, error = _evaluated(model, feeds, cls, scopes, fscopes)
        finally:  # a tool's run made in this process: timed as a worker's jobs are (PASSCHECK_TIMINGS)
            record(REFERENCE_LABEL, start, cpu)
        return outputs, sink, error, _nbytes(outputs) + _nbytes(sink)

    raw_outputs, raw_sink, error, _ = kept(_RUNS, key, evaluated, RUNS_KEPT)
    while _RUNS and sum(run[3] for run in _RUNS.values()) > RUNS_KEPT_BYTES:
        _RUNS.popitem(last=False)
    sink = dict(raw_sink)  # the post-processing below replaces entries, never the kept run's
    if error is not None:
        return RunResult({}, sink, error=error)
    outputs = dict(raw_outputs)
    for name in _not_sequences(model) & set(outputs):
        if isinstance(outputs[name], list) and len(outputs[name]) == 1:
            outputs[name] = sink[name] = _unwrapped(outputs[name])
    for key in _declared_tensors(model) & set(sink):
        if isinstance(sink[key], Repeated):
            sink[key] = Repeated(_unwrapped(v) for v in sink[key])
        elif key not in outputs:
            sink[key] = _unwrapped(sink[key])
    return RunResult(outputs, sink)


def _not_sequences(model: onnx.ModelProto) -> set[str]:
    """Graph outputs declared a tensor or an optional tensor: the evaluator holds an optional's
    value as a one-element list (its Optional returns ``[x]``, and OptionalGetElement passes that
    list on), which is unwrapped so the value has the declared type's form, as onnxruntime's."""
    return {o.name for o in model.graph.output if _tensor_like(o.type)}


def _declared_tensors(model: onnx.ModelProto) -> set[str]:
    """Observation keys (:func:`~passcheck.runtime.plan.scope_key`) of every value declared a tensor or an
    optional tensor in any graph, subgraph or function (inputs, outputs, value_info): the same one-element
    lists as :func:`_not_sequences`'s, where an If branch or a Loop body passes an optional's value on."""
    out = set()
    for scope, g in graph_scopes(model):
        for vi in [*g.input, *g.output, *getattr(g, "value_info", [])]:
            if not isinstance(vi, str) and _tensor_like(vi.type):
                out.add(scope_key(scope, vi.name))
    return out


def _tensor_like(t: onnx.TypeProto) -> bool:
    if t.HasField("optional_type"):
        t = t.optional_type.elem_type
    return t.HasField("tensor_type")


def _unwrapped(value: Any) -> Any:
    """A value declared a tensor (or optional tensor) out of the evaluator's one-element lists: one per
    Optional it went through (``Optional(OptionalGetElement(Optional(x)))`` holds ``[[x]]``)."""
    while isinstance(value, list) and not isinstance(value, Repeated) and len(value) == 1:
        value = value[0]
    return value
