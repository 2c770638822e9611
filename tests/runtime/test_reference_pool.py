"""passcheck/runtime/reference_pool.py: AveragePool and MaxPool given to the reference evaluator as ``new_ops``
return, bit for bit, what the installed onnx's own implementations return (or raise what they raise), over
the attribute space (Operators.md §AveragePool, §MaxPool: kernel_shape, strides, dilations, pads, auto_pad,
ceil_mode, count_include_pad, storage_order, MaxPool's Indices), 1–3 spatial dims, float16/32/64 inputs with
and without NaN, opsets 7 … 22; and they compute the plain case themselves (light nets' pools)."""

from __future__ import annotations

import functools
import warnings

import numpy as np
import onnx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from onnx import helper

from passcheck.runtime import reference_pool
from passcheck.runtime.reference import run_reference

MAX_OPSET = onnx.defs.onnx_opset_version()
DTYPES = {np.float16: onnx.TensorProto.FLOAT16, np.float32: onnx.TensorProto.FLOAT, np.float64: onnx.TensorProto.DOUBLE}


def _model(op: str, opset: int, attrs: dict, x_shape, dtype, indices: bool) -> onnx.ModelProto:
    elem = DTYPES[dtype]
    outputs = ["y", "i"] if indices else ["y"]
    node = helper.make_node(op, ["x"], outputs, **attrs)
    outs = [helper.make_tensor_value_info("y", elem, None)]
    if indices:
        outs.append(helper.make_tensor_value_info("i", onnx.TensorProto.INT64, None))
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("x", elem, list(x_shape))], outs)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=8)


def _outcome(model, x, new_ops):
    from onnx.reference import ReferenceEvaluator

    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a mean of an empty window: the installed op warns, the outcome is compared
        try:
            return [np.asarray(v) for v in ReferenceEvaluator(model, new_ops=new_ops).run(None, {"x": x})]
        except Exception as exc:  # noqa: BLE001 - the installed op's error is an outcome to match
            return type(exc).__name__


def _same(a, b) -> bool:
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    return len(a) == len(b) and all(
        u.dtype == v.dtype and u.shape == v.shape and u.tobytes() == v.tobytes() for u, v in zip(a, b, strict=True)
    )


@st.composite
def _cases(draw, plain: bool = False):
    """(op, opset, attributes, x, whether MaxPool's Indices is asked); ``plain``: the case the new ops compute
    themselves (explicit pads, floor mode, no NaN, Y alone), else anywhere in the attribute space."""
    op = draw(st.sampled_from(["AveragePool", "MaxPool"]))
    n = draw(st.integers(1, 3))
    kernel = draw(st.lists(st.integers(1, 3), min_size=n, max_size=n))
    spatial = [draw(st.integers(1, 7 if n < 3 else 4)) for _ in range(n)]
    opset = draw(st.sampled_from([o for o in (7, 10, 11, 12, 19, 22) if o <= MAX_OPSET]))
    attrs: dict = {"kernel_shape": kernel}
    if draw(st.booleans()):
        attrs["strides"] = draw(st.lists(st.integers(1, 3), min_size=n, max_size=n))
    if (op == "MaxPool" and opset >= 10 or opset >= 19) and draw(st.booleans()):
        attrs["dilations"] = draw(st.lists(st.integers(1, 3), min_size=n, max_size=n))
    auto_pad = "NOTSET" if plain else draw(st.sampled_from(["NOTSET"] * 3 + ["SAME_UPPER", "SAME_LOWER", "VALID"]))
    if auto_pad != "NOTSET":
        attrs["auto_pad"] = auto_pad
    elif draw(st.booleans()):
        attrs["pads"] = [draw(st.integers(0, k - 1 if k > 1 else 1)) for k in kernel + kernel]
    if opset >= 10 and draw(st.booleans()):
        attrs["ceil_mode"] = 0 if plain else draw(st.integers(0, 1))
    if op == "AveragePool" and draw(st.booleans()):
        attrs["count_include_pad"] = draw(st.integers(0, 1))
    indices = op == "MaxPool" and opset >= 8 and not plain and draw(st.booleans())
    if op == "MaxPool" and opset >= 8 and draw(st.booleans()):
        attrs["storage_order"] = draw(st.integers(0, 1))
    dtype = draw(st.sampled_from(list(DTYPES)))
    batch, channels = draw(st.integers(1, 2)), draw(st.integers(1, 3))
    shape = (batch, channels, *spatial)
    x = draw(st.lists(st.floats(-1e3, 1e3, width=16), min_size=int(np.prod(shape)), max_size=int(np.prod(shape))))
    x = np.asarray(x, dtype=dtype).reshape(shape)
    if draw(st.booleans()):  # NaN and infinities where the installed ops differ between onnx versions
        flat = x.reshape(-1)
        for at in draw(st.lists(st.integers(0, flat.size - 1), max_size=3)):
            flat[at] = draw(st.sampled_from([np.inf, -np.inf] if plain else [np.nan, np.inf, -np.inf]))
    return op, opset, attrs, x, indices


@settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(_cases())
def test_the_pools_equal_the_installed_onnx_ops_bit_for_bit(case):
    op, opset, attrs, x, indices = case
    model = _model(op, opset, attrs, x.shape, x.dtype.type, indices)
    assert _same(_outcome(model, x, reference_pool.new_ops()), _outcome(model, x, None)), (op, opset, attrs)


@settings(max_examples=100, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(_cases(plain=True))
def test_the_plain_case_equals_the_installed_ops_bit_for_bit(case):
    """The cases the new ops compute themselves (most of them: a window of padding only is handed on)."""
    op, opset, attrs, x, indices = case
    model = _model(op, opset, attrs, x.shape, x.dtype.type, indices)
    assert _same(_outcome(model, x, reference_pool.new_ops()), _outcome(model, x, None)), (op, opset, attrs)


@pytest.mark.parametrize("op", ["AveragePool", "MaxPool"])
@pytest.mark.parametrize("pads", [[1, 1, 1, 1], [0, 0, 0, 0]])
def test_the_plain_case_is_computed_without_the_installed_op(op, pads, monkeypatch):
    """A light net's pools (3×3, stride 2, pads 1; 7×7 unpadded): the installed op's ``_run`` is never called."""
    from onnx.reference.ops import load_op

    installed = load_op("", op, MAX_OPSET)

    @functools.wraps(installed._run)  # its signature: the keywords the new op reads
    def ran(*args, **kwargs):
        pytest.fail("the installed op ran")

    monkeypatch.setattr(installed, "_run", ran)
    x = np.random.default_rng(0).standard_normal((1, 3, 9, 9)).astype(np.float32)
    model = _model(op, MAX_OPSET, {"kernel_shape": [3, 3], "strides": [2, 2], "pads": pads}, x.shape, np.float32, False)
    (y,) = _outcome(model, x, reference_pool.new_ops())
    assert y.shape == (1, 3, 5 if pads[0] else 4, 5 if pads[0] else 4)


def test_a_reference_run_pools_inside_an_if_branch_with_the_new_ops(monkeypatch):
    """run_reference hands the ops to the evaluator, and its nested evaluators (an If branch) use them too."""
    computed = []
    original = reference_pool.average_pool

    def spy(ref, x):
        computed.append(x.shape)
        return original(ref, x)

    monkeypatch.setattr(reference_pool, "average_pool", spy)
    pool = helper.make_node("AveragePool", ["x"], ["p"], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1])
    vi = helper.make_tensor_value_info
    branch = helper.make_graph([pool], "b", [], [vi("p", onnx.TensorProto.FLOAT, None)])
    graph = helper.make_graph(
        [helper.make_node("If", ["c"], ["y"], then_branch=branch, else_branch=branch)],
        "g",
        [vi("c", onnx.TensorProto.BOOL, []), vi("x", onnx.TensorProto.FLOAT, [1, 2, 8, 8])],
        [vi("y", onnx.TensorProto.FLOAT, None)],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
    x = np.arange(128, dtype=np.float32).reshape(1, 2, 8, 8)
    r = run_reference(model, {"c": np.array(True), "x": x})
    assert r.error is None and computed == [(1, 2, 8, 8)]
    assert r.outputs["y"].shape == (1, 2, 4, 4)


def test_a_window_cut_by_padding_is_summed_as_its_elements_alone():
    """count_include_pad 0 with a window of 11 over 12 elements: the installed op sums each window's elements as
    one short array; summing the full window with the padding as zeros rounds differently on these values."""
    x = (np.random.default_rng(0).standard_normal((1, 1, 12)) * 1000).astype(np.float32)
    model = _model(
        "AveragePool", min(19, MAX_OPSET), {"kernel_shape": [11], "pads": [5, 5]}, x.shape, np.float32, False
    )
    assert _same(_outcome(model, x, reference_pool.new_ops()), _outcome(model, x, None))
    w = reference_pool.windows(x, [11], [1], [1], [5, 5], np.nan)
    assert np.nanmean(w, axis=-1).tobytes() != _outcome(model, x, None)[0].tobytes()  # the case tells them apart


@pytest.mark.parametrize("op", ["AveragePool", "MaxPool"])
@pytest.mark.parametrize("count_include_pad", [0, 1])
def test_nan_inputs_are_pooled_as_the_installed_ops_pool_them(op, count_include_pad):
    """NaN inside the input, first in a window and later in one (how the installed ops treat it differs between
    onnx versions; the new ops hand such inputs on)."""
    x = np.arange(2 * 36, dtype=np.float32).reshape(1, 2, 6, 6)
    x[0, 0, 0, 0] = x[0, 0, 2, 3] = x[0, 1, 4, 4] = np.nan
    attrs = {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1, 1, 1, 1]}
    if op == "AveragePool":
        attrs["count_include_pad"] = count_include_pad
    model = _model(op, min(19, MAX_OPSET), attrs, x.shape, np.float32, False)
    assert _same(_outcome(model, x, reference_pool.new_ops()), _outcome(model, x, None))
