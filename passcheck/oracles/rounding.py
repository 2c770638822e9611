"""Whether a float32 output's difference is within the model's own rounding (M194).

The numeric oracle's tolerance is relative to the result (``|a - e| <= atol + rtol * |e|``). A sum of huge terms
that cancel (a Conv's terms summing to -1.1e35 from ``Σ|t| = 5.1e38``) carries a rounding error bounded by
``n · u · Σ|t|`` (IEEE 754 binary32, unit roundoff ``u = 2^-24``; Higham, *Accuracy and Stability*, §3.1), not by the
result: a pass that reorders or fuses such a sum differs from the unoptimized run far beyond ``rtol`` and is right.

:func:`judge` is asked only where a comparison already failed. It evaluates the unoptimized model again in
float64 (onnx's reference evaluator on a copy whose float32 tensors, types, Casts and constants are float64:
:func:`widened`) as the exact value ``x``, and estimates the model's own float32 rounding at each position as the
larger of

- the unoptimized float32 output's own error ``|e - x|``, and
- the spread of :data:`DRAWS` float64 evaluations whose float feeds, initializers and Constant values are each
  multiplied by ``1 + δ``, ``δ`` uniform in ``[-u, u]`` (one float32 rounding of every value the model reads:
  the computation's condition times ``u``, Monte Carlo arithmetic, Parker 1997).

A position is within the model's rounding when ``|a - x| <= atol + rtol · |x| + SLACK · rounding`` (the dtype's
tolerances of :mod:`passcheck.oracles.numeric`, ``SLACK`` covering a worst case that one realization of rounding
does not show). Every failing position within it: the difference is the model's rounding (checked, not reported);
any outside: a wrong result. Where the float64 evaluation is impossible (an op the reference evaluator has no
float64 implementation of, a non-tensor output, a non-finite position) the verdict stays the tolerance's, with the
reason."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

import numpy as np

#: float32's unit roundoff (IEEE 754 binary32: a 24-bit significand).
UNIT = 2.0**-24
#: Perturbed float64 evaluations per binding.
DRAWS = 4
#: Models with more main-graph nodes are not evaluated in float64: onnx's reference evaluator is pure Python and a
#: judgement is 1 + :data:`DRAWS` whole-model runs per failing binding (light_resnet50, 415 nodes: 38 s; DenseNet-121,
#: 1,746 nodes: 94 s, measured on 2 cores). The tolerance's verdict stands for them, with this reason.
MAX_NODES = 200
#: The factor on the estimated rounding (one realization, or :data:`DRAWS` samples, under-reads the worst case).
SLACK = 16.0

_FLOAT, _DOUBLE = 1, 11  # onnx TensorProto.FLOAT, DOUBLE


@dataclasses.dataclass(frozen=True)
class Judgement:
    """``within``: every failing position is within the model's own rounding (None: not judged, see ``detail``)."""

    within: bool | None
    detail: str


def widened(model: Any) -> Any:
    """A copy of ``model`` computing in float64 where it computes in float32: every FLOAT tensor type (graph inputs,
    outputs, value_info, bodies), initializer, Constant / ConstantOfShape value and ``Cast``/``to``, ``dtype``
    attribute becomes DOUBLE. Other element types are left as they are."""
    import onnx

    wide = onnx.ModelProto()
    wide.CopyFrom(model)
    _widen_graph(wide.graph)
    for f in wide.functions:
        _widen_nodes(f.node)
    return wide


def _widen_graph(g: Any) -> None:
    for v in (*g.input, *g.output, *g.value_info):
        _widen_type(v.type)
    for t in g.initializer:
        _widen_tensor(t)
    _widen_nodes(g.node)


def _widen_type(t: Any) -> None:
    kind = t.WhichOneof("value")
    if kind == "tensor_type" and t.tensor_type.elem_type == _FLOAT:
        t.tensor_type.elem_type = _DOUBLE
    elif kind in ("sequence_type", "optional_type"):
        _widen_type(getattr(t, kind).elem_type)
    elif kind == "map_type":
        _widen_type(t.map_type.value_type)


def _widen_tensor(t: Any) -> None:
    if t.data_type != _FLOAT:
        return
    from onnx import numpy_helper

    t.CopyFrom(numpy_helper.from_array(numpy_helper.to_array(t).astype(np.float64), t.name))


def _widen_nodes(nodes: Any) -> None:
    for n in nodes:
        for a in n.attribute:
            if a.name in ("to", "dtype") and a.i == _FLOAT:
                a.i = _DOUBLE
            if a.HasField("t"):
                _widen_tensor(a.t)
            if a.HasField("g"):
                _widen_graph(a.g)
            for g in a.graphs:
                _widen_graph(g)


def _perturbed(wide: Any, feeds: Mapping[str, Any], rng: np.random.Generator) -> tuple[Any, dict[str, Any]]:
    """``wide`` and ``feeds`` with every float64 initializer, Constant value and feed times ``1 + δ``, |δ| <= u."""
    import onnx
    from onnx import numpy_helper

    def jiggle(a: np.ndarray) -> np.ndarray:
        return a * (1.0 + rng.uniform(-UNIT, UNIT, a.shape)) if a.dtype == np.float64 else a

    model = onnx.ModelProto()
    model.CopyFrom(wide)
    tensors = [*model.graph.initializer, *(a.t for n in model.graph.node for a in n.attribute if a.HasField("t"))]
    for t in tensors:
        if t.data_type == _DOUBLE:
            t.CopyFrom(numpy_helper.from_array(jiggle(numpy_helper.to_array(t)), t.name))
    return model, {k: jiggle(v) if isinstance(v, np.ndarray) else v for k, v in feeds.items()}


def _evaluate(model: Any, feeds: Mapping[str, Any]) -> dict[str, Any]:
    from onnx.reference import ReferenceEvaluator

    with np.errstate(all="ignore"):
        got = ReferenceEvaluator(model).run(None, dict(feeds))
    return dict(zip((o.name for o in model.graph.output), got))


def float64_runs(model: Any, feeds: Mapping[str, Any], seed: int = 0) -> tuple[dict[str, Any], list[dict], str]:
    """(the float64 outputs, :data:`DRAWS` perturbed float64 outputs, "") of ``model`` on ``feeds`` (float32 feeds
    widened), or ({}, [], why) when onnx's reference evaluator cannot run the widened model or ``model`` has more
    than :data:`MAX_NODES` main-graph nodes. Never raises."""
    if len(model.graph.node) > MAX_NODES:
        return (
            {},
            [],
            (
                f"not evaluated in float64: {len(model.graph.node)} main-graph nodes, more than {MAX_NODES} (onnx's "
                "reference evaluator is pure Python)"
            ),
        )
    wide = widened(model)
    feeds64 = {
        k: v.astype(np.float64) if isinstance(v, np.ndarray) and v.dtype == np.float32 else v for k, v in feeds.items()
    }
    rng = np.random.default_rng(seed)
    try:
        exact = _evaluate(wide, feeds64)
        draws = [_evaluate(*_perturbed(wide, feeds64, rng)) for _ in range(DRAWS)]
    except Exception as exc:  # noqa: BLE001 - an op with no float64 reference implementation: not judged
        return {}, [], f"onnx's reference evaluator cannot run it in float64: {type(exc).__name__}: {exc}"[:300]
    return exact, draws, ""


def said(judged: Judgement) -> str:
    """The message's words for a judgement that does not forgive: the float64 figures, or that none were made (the
    reason is the finding's ``details["float64"]``)."""
    return f"float64: {judged.detail}" if judged.within is not None else "not judged in float64 (details: float64)"


def judge(
    runs: tuple[dict[str, Any], list[dict], str],
    name: str,
    got: Any,
    expected: Any,
    rtol: float,
    atol: float,
    spared: Any = None,
) -> Judgement:
    """Whether pass output ``got`` (float32, the shape of ``expected``) is within the model's own rounding of the
    float64 value at every position where it fails ``|got - expected| <= atol + rtol · |expected|``, given
    :func:`float64_runs`' ``runs`` of the unoptimized model (module docstring: the bound). ``spared``: a boolean
    mask of positions left out (the input's own overflow, :mod:`passcheck.oracles.overflow`). Any other
    non-finite value is not judged here (a NaN or ±inf position is judged by position, not by rounding)."""
    exact, draws, why = runs
    if why:
        return Judgement(None, why)
    a, e, x = np.asarray(got), np.asarray(expected), exact.get(name)
    if not isinstance(x, np.ndarray) or x.dtype != np.float64 or x.shape != e.shape or a.shape != e.shape:
        return Judgement(None, f"output {name!r} has no float64 tensor of its shape in the widened model")
    keep = np.ones(e.shape, bool) if spared is None else ~np.asarray(spared, bool)
    a64, e64, x = (np.where(keep, v.astype(np.float64), 0.0) for v in (a, e, x))
    if not (np.isfinite(a64).all() and np.isfinite(e64).all() and np.isfinite(x).all()):
        return Judgement(None, "a non-finite value: judged by positions, not by rounding")
    with np.errstate(all="ignore"):
        spread = np.max([np.abs(np.where(keep, np.asarray(d[name], np.float64), 0.0) - x) for d in draws], axis=0)
    if not np.isfinite(spread).all():
        return Judgement(None, "a perturbed float64 evaluation is not finite: the rounding is not estimated")
    rounding = np.maximum(np.abs(e64 - x), spread)
    failing = np.abs(a64 - e64) > atol + rtol * np.abs(e64)
    if not failing.any():  # the comparison failed on something else: not this judge's to forgive
        return Judgement(None, "no failing finite position to judge")
    off = np.abs(a64 - x)
    allowed = atol + rtol * np.abs(x) + SLACK * rounding
    out = failing & (off > allowed)
    k = int(np.argmax(np.where(failing, off - allowed, -np.inf)))
    at = list(map(int, np.unravel_index(k, a.shape)))
    said = (
        f"float64 value {x.flat[k]:.6g} at {at}: the pass output is {off.flat[k]:.3g} from it, the unoptimized "
        f"float32 run {abs(e64.flat[k] - x.flat[k]):.3g}, its rounding estimated at {rounding.flat[k]:.3g} "
        f"(allowed {allowed.flat[k]:.3g} = atol + rtol·|x| + {SLACK:g}× rounding)"
    )
    if out.any():
        return Judgement(
            False, f"{int(out.sum())} of {int(failing.sum())} failing positions beyond the model's own rounding; {said}"
        )
    return Judgement(
        True,
        f"all {int(failing.sum())} failing positions within the model's own float32 rounding "
        f"(checked in float64); {said}",
    )
