"""passcheck's verdict on tensor values equals onnx's reference check (onnx >= 1.23).

Models: every model.onnx the onnx wheel ships under backend/test/data/*/ (with its own
test_data_set_0 feeds) and every light/*.onnx CNN. For each, the correct annotations and one
deliberately wrong annotation per rule (dim_value, rank, elem_type, conflicting symbol) plus
annotations that must hold (shared symbol, anonymous dim, rank unknown) are added to one
intermediate value, and both checkers judge the same run.

Bounded runtime: small models run ``ReferenceEvaluator(check_shape_annotations=True)`` end to
end; the light CNNs take 1–25 s each in the reference evaluator, so for them the values come from
one onnxruntime run and onnx's own per-value check
(``shape_annotation_checker.check_value_against_type``) is driven in graph order, exactly as the
evaluator does (inputs, then each node's outputs, then graph outputs); one light model (AlexNet)
is also run end to end to show the two agree.

Differences by design (not compared here, see test_shape_annotations.py): passcheck also checks
sequences, optionals, maps and sparse tensors, where the reference check skips non-tensor values;
and it reports every violation where the reference stops at the first.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import pytest

upstream = pytest.importorskip(
    "onnx.reference.shape_annotation_checker", reason="onnx < 1.23 has no reference shape check"
)

from onnx.reference import ReferenceEvaluator  # noqa: E402

from passcheck.oracles import shape_annotations as sa  # noqa: E402
from passcheck.runtime import all_node_outputs, run_ort  # noqa: E402
from passcheck.runtime.feed_files import read_feeds  # noqa: E402
from passcheck.runtime.reference import run_reference  # noqa: E402

DATA = Path(onnx.__file__).parent / "backend/test/data"
SMALL = sorted(DATA.glob("*/*/model.onnx"))
LIGHT = sorted(DATA.glob("light/*.onnx"))
MUTATIONS = (
    "as-is",
    "exact",
    "dim-value",
    "rank",
    "elem-type",
    "symbol-conflict",
    "symbol-shared",
    "anonymous",
    "rank-unknown",
)


def _target(model: onnx.ModelProto, observed: dict) -> str | None:
    """A deterministic intermediate tensor (not a graph output) with rank >= 2, else >= 1."""
    outs = {o.name for o in model.graph.output}
    cands = [
        n
        for n in all_node_outputs(model)
        if n not in outs and isinstance(observed.get(n), np.ndarray) and observed[n].dtype.kind in "fiub"
    ]
    for rank in (2, 1):
        pick = [n for n in cands if observed[n].ndim >= rank]
        if pick:
            return pick[len(pick) // 2]
    return None


def _mutate(model: onnx.ModelProto, name: str, value: np.ndarray, how: str) -> onnx.ModelProto | None:
    m = onnx.ModelProto()
    m.CopyFrom(model)
    if how == "as-is":
        return m
    shape: list = list(value.shape)
    elem = onnx.helper.np_dtype_to_tensor_dtype(value.dtype)
    if how == "dim-value":
        shape[0] += 1
    elif how == "rank":
        shape.append(1)
    elif how == "elem-type":
        elem = onnx.TensorProto.DOUBLE if elem != onnx.TensorProto.DOUBLE else onnx.TensorProto.FLOAT
    elif how in ("symbol-conflict", "symbol-shared"):
        if len(shape) < 2 or (shape[0] == shape[-1]) == (how == "symbol-conflict"):
            return None
        shape[0] = shape[-1] = "S_passcheck"
    elif how == "anonymous":
        shape = [None] * len(shape)
    del m.graph.value_info[:]
    vi = onnx.helper.make_tensor_value_info(name, elem, None if how == "rank-unknown" else shape)
    m.graph.value_info.append(vi)
    return m


def _upstream_verdict_by_evaluator(model, feeds) -> bool:
    try:
        ReferenceEvaluator(model, check_shape_annotations=True).run(None, feeds)
    except upstream.ShapeAnnotationError:
        return False
    return True


def _upstream_verdict_in_graph_order(model, feeds, observed) -> bool:
    """onnx's per-value check in the order ReferenceEvaluator applies it (see module docstring)."""
    types = {v.name: v.type for v in model.graph.input}
    types.update({v.name: v.type for v in model.graph.value_info})
    types.update({v.name: v.type for v in model.graph.output})
    b = upstream.SymbolBindings()
    inits = {t.name: onnx.numpy_helper.to_array(t) for t in model.graph.initializer if t.name in types}
    try:
        for name, value in {**inits, **feeds}.items():
            if name in types:
                upstream.check_value_against_type(types[name], value, b, name)
        for name in all_node_outputs(model):
            upstream.check_value_against_type(types.get(name), observed[name], b, name)
        for o in model.graph.output:
            upstream.check_value_against_type(o.type, observed[o.name], b, o.name)
    except upstream.ShapeAnnotationError:
        return False
    return True


def _compare(model, feeds, observed, verdict) -> list[str]:
    target = _target(model, observed)
    hows = MUTATIONS if target else MUTATIONS[:1]
    diffs = []
    for how in hows:
        m = _mutate(model, target, observed.get(target), how) if target else model
        if m is None:
            continue
        ours = sa.check(m, observed).ok
        theirs = verdict(m)
        if ours != theirs:
            diffs.append(f"{how} on {target}: passcheck {ours}, upstream {theirs}")
        if how in ("dim-value", "rank", "elem-type", "symbol-conflict"):
            assert not ours, f"{how} not detected"
    return diffs


@pytest.mark.parametrize("path", SMALL, ids=lambda p: f"{p.parent.parent.name}/{p.parent.name}")
def test_same_verdict_as_reference_evaluator(path):
    model = onnx.load(path)
    feeds = read_feeds(path.parent, model)[0]
    run = run_reference(model, feeds)
    if run.error:
        pytest.skip(f"the reference evaluator cannot run this model: {run.error[:100]}")
    assert not _compare(model, feeds, run.observed, lambda m: _upstream_verdict_by_evaluator(m, feeds))


@pytest.mark.parametrize("path", LIGHT, ids=lambda p: p.stem)
def test_same_verdict_on_real_cnns(path):
    from passcheck.runtime import synthesize

    model = onnx.load(path)
    feeds = synthesize(model, {}, 0)
    r = run_ort(model, feeds, expose=all_node_outputs(model))
    assert not r.error
    assert not _compare(model, feeds, r.observed, lambda m: _upstream_verdict_in_graph_order(m, feeds, r.observed))


def test_graph_order_driver_agrees_with_evaluator():
    from passcheck.runtime import synthesize

    model = onnx.load(DATA / "light/light_bvlc_alexnet.onnx")
    feeds = synthesize(model, {}, 0)
    r = run_ort(model, feeds, expose=all_node_outputs(model))
    target = _target(model, r.observed)
    for how in ("exact", "dim-value", "symbol-shared"):
        m = _mutate(model, target, r.observed[target], how)
        if m is not None:
            assert (
                _upstream_verdict_in_graph_order(m, feeds, r.observed)
                == _upstream_verdict_by_evaluator(m, feeds)
                == sa.check(m, r.observed).ok
            )


def _case_forms():
    from passcheck._versions import tool_version
    from passcheck.cases import registry

    out = []
    registry().claim_library()  # the gated families too, not only when a module collected earlier claimed them
    for case in registry():
        if case.skip_reason(tool_version("onnx")):
            continue
        out += [(case, form) for form in case.forms]
    return out


@pytest.mark.parametrize(("case", "form"), _case_forms(), ids=lambda x: getattr(x, "id", x))
def test_same_verdict_on_case_library(case, form):
    from passcheck.engine import seed_for
    from passcheck.runtime import synthesize

    model = case.build(form)
    for i, b in enumerate(case.bindings):
        feeds = case.feeds(b, seed_for(case.id, i)) if case.feeds else synthesize(model, b, seed_for(case.id, i))
        r = run_ort(model, feeds, expose=all_node_outputs(model))
        if r.error or any(not isinstance(v, np.ndarray) for v in r.observed.values()):
            continue  # a form ORT cannot run is the acceptance oracle's business; non-tensors differ by design
        assert not _compare(
            model, feeds, r.observed, lambda m, feeds=feeds, r=r: _upstream_verdict_in_graph_order(m, feeds, r.observed)
        )
