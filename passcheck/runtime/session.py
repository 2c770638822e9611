"""Run a model on feeds with onnxruntime, optionally observing intermediate values.

The session is unoptimized (``ORT_DISABLE_ALL``, one intra-op thread): it runs exactly the
graph it is given. For observation, the model's own annotations are removed from the session's
copy (value_info dropped, graph input and output shapes cleared) so that a wrong annotation can
neither stop the model from loading nor change what runs; the annotations are judged afterwards
against what was observed (seed 000).
"""

from __future__ import annotations

import collections
import dataclasses
import hashlib
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from passcheck.runtime.feeds import session_inputs

if TYPE_CHECKING:
    import onnx
    import onnxruntime


@dataclasses.dataclass
class RunResult:
    """One run of a model, by onnxruntime or the reference evaluator (the one run-result type).

    Attributes:
        outputs: graph output name → value, in graph order.
        observed: observation key → value: the feeds and every value the run exposed (main-graph
            names); ``scope::name`` → :class:`~passcheck.runtime.plan.Repeated` for values of
            subgraphs and functions when observed by the reference evaluator.
        error: the runtime's error text when the run failed (outputs then empty).
        unobservable: observation key asked for → why no engine could observe it.
    """

    outputs: dict[str, Any]
    observed: dict[str, Any]
    error: str | None = None
    unobservable: dict[str, str] = dataclasses.field(default_factory=dict)


def observation_copy(model: onnx.ModelProto, expose: Iterable[str]) -> tuple[onnx.ModelProto, list[str]]:
    """A copy of ``model`` with annotations cleared and ``expose`` added as graph outputs.

    Names that are graph inputs, initializers or already outputs are not added.
    Returns the copy and the names added.
    """
    import onnx

    m = onnx.ModelProto()
    m.CopyFrom(model)
    g = m.graph
    del g.value_info[:]
    for vi in list(g.input) + list(g.output):
        if vi.type.HasField("tensor_type"):
            vi.type.tensor_type.ClearField("shape")
    skip = {v.name for v in g.input} | {t.name for t in g.initializer} | {o.name for o in g.output}
    produced = {o for n in g.node for o in n.output if o}
    added = []
    for name in dict.fromkeys(expose):
        if name in skip or name not in produced:
            continue
        g.output.append(onnx.ValueInfoProto(name=name))
        added.append(name)
    return m, added


def all_node_outputs(model: onnx.ModelProto) -> list[str]:
    """Every value produced by a node of the main graph, in node order."""
    return [o for n in model.graph.node for o in n.output if o]


def session_options() -> onnxruntime.SessionOptions:
    """The options of every passcheck session: unoptimized (``ORT_DISABLE_ALL``), one intra-op thread, errors only."""
    import onnxruntime as ort

    ort.set_default_logger_severity(4)  # run errors come back in RunResult.error, not on stderr
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    so.log_severity_level = 4
    so.intra_op_num_threads = 1
    return so


#: The last session made, by sha256 of the bytes it loads: a model is usually run on one feed set
#: per binding right after another, and a session costs several times a small run.
_SESSIONS: collections.OrderedDict[bytes, onnxruntime.InferenceSession] = collections.OrderedDict()
_SESSIONS_KEPT = 1


def _session(data: bytes, key: bytes | None = None, load: Any = None) -> onnxruntime.InferenceSession:
    """An unoptimized CPU session (:func:`session_options`) for the model ``data``, reused while it
    is among the last :data:`_SESSIONS_KEPT` loaded (a session holds no state between runs).

    ``key`` and ``load`` (a callable giving the bytes) instead of ``data``: the session kept under
    ``key``, or one made from ``load()`` and kept under it.

    Raises:
        whatever onnxruntime raises loading the model (nothing is kept then).
    """
    import onnxruntime as ort

    key = key if key is not None else hashlib.sha256(data).digest()
    sess = _SESSIONS.get(key)
    if sess is None:
        sess = ort.InferenceSession(
            load() if load is not None else data, session_options(), providers=["CPUExecutionProvider"]
        )
        _SESSIONS[key] = sess
        while len(_SESSIONS) > _SESSIONS_KEPT:
            _SESSIONS.popitem(last=False)
    _SESSIONS.move_to_end(key)
    return sess


def run_ort(
    model: onnx.ModelProto, feeds: Mapping[str, Any], *, expose: Iterable[str] = (), model_key: bytes | None = None
) -> RunResult:
    """Run ``model`` on ``feeds`` with onnxruntime (CPU, unoptimized).

    Args:
        model: the model to run; not modified.
        feeds: input name → array (or list of arrays for sequences).
        expose: intermediate value names to observe as extra outputs.
        model_key: the sha256 digest of ``model``'s bytes when the caller has it: the kept session
            is then found by it and ``expose``, without serializing the observation copy.

    Returns:
        A :class:`RunResult`; a load or run failure is returned in ``error``, never raised.
    """
    expose = list(expose)
    try:
        if model_key is None:
            sess = _session(observation_copy(model, expose)[0].SerializeToString())
        else:  # a session of these model bytes observing these names: no copy serialized or hashed to find it
            sess = _session(
                b"",
                key=model_key + repr(expose).encode(),
                load=lambda: observation_copy(model, expose)[0].SerializeToString(),
            )
        names = [o.name for o in sess.get_outputs()]
        wanted = session_inputs(sess)
        values = sess.run(None, {k: v for k, v in feeds.items() if k in wanted})
    except Exception as exc:  # noqa: BLE001 - a failing run is a result, not our error
        return RunResult({}, {}, error=f"{type(exc).__name__}: {str(exc).strip()[:2000]}")
    by_name = dict(zip(names, values))
    graph_outputs = [o.name for o in model.graph.output]
    observed = {k: v for k, v in by_name.items() if k not in wanted}
    observed.update({k: v for k, v in feeds.items()})
    return RunResult({k: by_name[k] for k in graph_outputs if k in by_name}, observed)
