"""What one onnxruntime run of a model cannot show, completed from elsewhere: annotated
initializers the feeds do not override are read from the model itself (:func:`initializer_observations`:
a graph input with a default, a value_info naming a weight), and values inside subgraphs
(If/Loop/Scan bodies) and model-local functions, which onnxruntime cannot expose
(:func:`_unobservable_by_ort` says why), come from one reference-evaluator run on the same feeds
(:func:`with_subscopes`); what the evaluator cannot produce either stays unobservable, with why.
:mod:`passcheck.runtime.observe` uses these after its run; the names are importable from there too.
"""

from __future__ import annotations

import collections
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from passcheck.runtime import profile as _prof
from passcheck.runtime.lru import kept
from passcheck.runtime.plan import AnnotationPlan, Observed, plan_of
from passcheck.runtime.profile import TensorMeta

if TYPE_CHECKING:
    import onnx


def _unobservable_by_ort(model: onnx.ModelProto, plan: AnnotationPlan | None = None) -> dict[str, str]:
    out = {}
    for key, _name, _tp, _role, scope, _kind, _rule in (plan or plan_of(model)).steps:
        if scope.startswith("function"):
            out[key] = (
                f"inside {scope}: onnxruntime inlines functions and cannot expose their values; use --engine reference"
            )
        elif scope:
            out[key] = f"inside subgraph {scope}: onnxruntime cannot expose subgraph values; use --engine reference"
    return out


def _initializer_values(model: onnx.ModelProto, keys: set[str], feeds: Mapping[str, Any]) -> dict[str, Any]:
    out = {}
    for t in model.graph.initializer:
        if (name := t.name) in keys and name not in feeds:
            out[name] = TensorMeta(tuple(t.dims), _prof.np_dtype(t.data_type))
    return out


def initializer_observations(
    model: onnx.ModelProto,
    feeds: Mapping[str, Any],
    values: Iterable[str],
    shapes: Iterable[str],
    digest: bytes | None = None,
) -> dict[str, Any]:
    """The annotated initializers of ``values`` (as arrays) and ``shapes`` (as TensorMeta) that
    ``feeds`` does not override: a graph input with a default, or a value_info naming a weight,
    is a value of known shape in every run (seed 000: a value supplied as a model input).

    ``digest``: the sha256 of ``model``'s bytes, when known: with no ``values``, the TensorMeta
    of ``shapes`` are kept under it and the names for the last :data:`_METAS_KEPT` such calls (a
    second binding, a repeated check), so the initializers are not walked again."""
    from onnx import numpy_helper

    from passcheck.execution.payloads import whole_tensor

    values, shapes = set(values) - set(feeds), set(shapes) - set(feeds)
    if not values and not shapes:
        return {}
    if digest is not None and not values:
        key = (digest, frozenset(shapes))
        return dict(kept(_METAS, key, lambda: _initializer_values(model, shapes, feeds), _METAS_KEPT))
    out = {}
    for t in model.graph.initializer if values else ():
        if t.name in values:
            try:
                out[t.name] = numpy_helper.to_array(whole_tensor(t))
            except Exception:  # noqa: BLE001 - data not loaded (external): left unobserved, never checked
                pass
    out.update(_initializer_values(model, shapes - out.keys(), feeds))
    return out


#: :func:`initializer_observations`' TensorMeta by (model digest, names asked).
_METAS: collections.OrderedDict[tuple, dict[str, TensorMeta]] = collections.OrderedDict()
_METAS_KEPT = 8


def departs(model: onnx.ModelProto, observed: Mapping[str, Any], outputs: Mapping[str, Any]) -> str | None:
    """How the reference evaluator's graph outputs (``outputs``) depart from onnxruntime's run of the same
    model on the same feeds (``observed``: arrays, or :class:`TensorMeta` where only shapes were kept), or
    None: a differing shape or dtype, or values outside a loose tolerance (rtol 1e-3, atol 1e-5, NaN
    equal to NaN) where both sides hold numeric arrays. Outputs either side lacks are not compared."""
    import numpy as np

    for o in model.graph.output:
        if o.name not in observed or o.name not in outputs:
            continue
        a, b = observed[o.name], outputs[o.name]
        if isinstance(b, (list, dict)) or isinstance(a, (list, dict)) or b is None or a is None:
            continue  # a sequence, map or absent optional: not compared here
        b = np.asarray(b)
        shape, dtype = (a.shape, a.dtype) if isinstance(a, TensorMeta) else (np.shape(a), np.asarray(a).dtype)
        if tuple(shape) != b.shape or np.dtype(dtype) != b.dtype:
            return f"output {o.name!r}: {b.dtype}{list(b.shape)} vs onnxruntime's {np.dtype(dtype)}{list(shape)}"
        if isinstance(a, TensorMeta) or b.dtype.kind not in "biufc":
            continue
        if not np.allclose(np.asarray(a), b, rtol=1e-3, atol=1e-5, equal_nan=True):
            return f"output {o.name!r}: other values"
    return None


def with_subscopes(
    model: onnx.ModelProto,
    feeds: Mapping[str, Any],
    observed: dict[str, Any],
    unobservable: Mapping[str, str],
    outputs: Mapping[str, Any] | None = None,
) -> tuple[dict[str, Any], dict[str, str]]:
    """Complete an ``ort`` observation with the values ``unobservable`` names (subgraph and
    function values), read from one reference-evaluator run on the same feeds (in the enclosing
    :func:`~passcheck.runtime.isolated_tools.within` block's worker, else here: M409, a form that kills the evaluator
    costs that run and its values stay unobservable, with why); ``outputs``: onnxruntime's
    graph outputs of the run, when ``observed`` lacks them.

    Returns:
        (observed, unobservable): ``observed`` with every subscope value the evaluator produced
        (a value of a branch that never ran stays absent: not produced in this run); what is still
        unobservable, with why (the evaluator failed, e.g. an op it does not implement, or its graph
        outputs depart from onnxruntime's, :func:`departs`: a run the two runtimes disagree on is no
        evidence for values only one of them shows).
    """
    if not unobservable:
        return observed, {}
    from passcheck.records import brief
    from passcheck.runtime.isolated_tools import run_reference  # in the front door's worker (M409)

    try:
        r = run_reference(model, feeds)
        error = r.error
    except Exception as exc:  # noqa: BLE001 - the evaluator is a tool passcheck uses; its failure limits coverage
        r, error = None, f"{type(exc).__name__}: {exc}"
    if error:
        note = f"the reference evaluator could not run the model: {brief(error, 160)}"
        return observed, {k: f"{v.split('; use --engine')[0]}; {note}" for k, v in unobservable.items()}
    if why := departs(model, {**(outputs or {}), **observed}, r.outputs):
        note = f"the reference evaluator departs from onnxruntime on this run ({why}): its values are no evidence"
        return observed, {k: f"{v.split('; use --engine')[0]}; {note}" for k, v in unobservable.items()}
    merged = Observed(observed, plan=getattr(observed, "plan", None), of=getattr(observed, "of", None))
    merged.update({k: r.observed[k] for k in unobservable if k in r.observed})
    return merged, {}
