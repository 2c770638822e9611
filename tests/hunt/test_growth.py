"""The enlarging rewrites and the time oracle (round 20e, M453/M454).

A pass whose time explodes on a larger valid model is met by no form of fixed size: :mod:`passcheck.hunt.enlarge`
makes size a variable (a chain of ``k`` copies of a pattern, ``k`` copies side by side, a constant tiled ``k`` times)
and :mod:`passcheck.hunt.growth` times a pass in CPU seconds at ``n``, ``2n``, ``4n`` and judges the growth. Planted:
an O(n²) pass must be judged superlinear, a cubic one must run into the timeout, and a real linear pass
(onnxruntime with its optimizers off) must not be flagged, on a machine as loaded as CI's."""

from __future__ import annotations

import contextlib
import subprocess
import sys

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import helper, numpy_helper

from passcheck.hunt import enlarge, growth
from passcheck.passes import FunctionAdapter, get_pass
from tests.quality import planted_growth

X = helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, ["N", 8])
Y = helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, ["N", 8])


def _clip_relu() -> onnx.ModelProto:
    """``y = Relu(Clip(x, lo, hi))`` with the bounds as scalar initializers (the library's clip-relu pattern)."""
    graph = helper.make_graph(
        [helper.make_node("Clip", ["x", "lo", "hi"], ["a"]), helper.make_node("Relu", ["a"], ["y"])],
        "g",
        [X],
        [Y],
        [numpy_helper.from_array(np.float32(-0.5), "lo"), numpy_helper.from_array(np.float32(0.75), "hi")],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)


def _run(model, x):
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return sess.run(None, {"x": x})


def test_repeat_chains_the_pattern_and_widen_reads_one_input_k_times():
    base, x = _clip_relu(), np.linspace(-2, 2, 24, dtype=np.float32).reshape(3, 8)
    chained = enlarge.enlarge(base, enlarge.REPEAT, 5)
    assert len(chained.graph.node) == 10 and len(chained.graph.initializer) == 10
    assert [o.name for o in chained.graph.output] == ["y"] and [i.name for i in chained.graph.input] == ["x"]
    assert enlarge.size(chained) == 5 * enlarge.size(base)
    np.testing.assert_array_equal(_run(chained, x)[0], _run(base, x)[0])  # Relu∘Clip is idempotent: same y
    wide = enlarge.enlarge(base, enlarge.WIDEN, 3)
    assert [o.name for o in wide.graph.output] == ["y", "e1_y", "e2_y"]
    assert all(n.input[0] == "x" for n in wide.graph.node if n.op_type == "Clip")
    assert enlarge.enlarge(base, enlarge.GROW, 2) is None  # scalar bounds: nothing to tile


def test_grow_tiles_the_largest_constant_and_refreshes_the_output_shape():
    graph = helper.make_graph(
        [helper.make_node("Resize", ["d", "", "s"], ["y"], mode="linear")],
        "g",
        [],
        [helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [1, 1, 8, 8])],
        [
            numpy_helper.from_array(np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4), "d"),
            numpy_helper.from_array(np.array([1, 1, 2, 2], np.float32), "s"),
        ],
    )
    base = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19)], ir_version=9)
    grown = enlarge.enlarge(base, enlarge.GROW, 4)
    d = next(t for t in grown.graph.initializer if t.name == "d")
    assert list(d.dims) == [1, 1, 16, 16]
    assert [x.dim_value for x in grown.graph.output[0].type.tensor_type.shape.dim] == [1, 1, 32, 32]
    assert enlarge.offered(base) == [enlarge.GROW]  # no graph input: nothing to widen
    with pytest.raises(ValueError, match="unknown enlarging kind"):
        enlarge.enlarge(base, "bigger", 2)


def _pt(k, size, cpu, status="changed", wall=None):
    return growth.Point(k, size, (cpu,), cpu if wall is None else wall, status)


def test_judge_reads_the_exponent_over_the_two_largest_sizes_and_the_span():
    linear = [_pt(8, 100, 0.2), _pt(16, 200, 0.41), _pt(32, 400, 0.8)]
    assert growth.judge("p", "repeat", linear).verdict == growth.LINEAR
    quadratic = [_pt(8, 100, 0.2), _pt(16, 200, 0.8), _pt(32, 400, 3.2)]
    g = growth.judge("p", "repeat", quadratic)
    assert g.verdict == growth.SUPERLINEAR and g.finding and abs(g.exponent - 2) < 1e-9
    assert "k=32 size=400: 3.200 s CPU" in g.why
    one_burst = [_pt(8, 100, 0.4), _pt(16, 200, 0.4), _pt(32, 400, 1.3)]  # a jump at the end only: span 0.85
    assert growth.judge("p", "repeat", one_burst).verdict == growth.LINEAR
    small = [_pt(1, 4, 0.001), _pt(2, 8, 0.004), _pt(4, 16, 0.016)]
    assert growth.judge("p", "repeat", small).verdict == growth.UNCHECKED
    late = [_pt(8, 100, 0.2), _pt(16, 200, 0.8, wall=1.0), growth.Point(32, 400, (), 60.0, "timeout")]
    t = growth.judge("p", "repeat", late, timeout=60.0)
    assert t.verdict == growth.TIMEOUT_VERDICT and t.finding and t.exponent == pytest.approx(np.log2(60.0))
    crashed = [_pt(8, 100, 0.2), _pt(16, 200, 0.4), _pt(32, 400, 0.0, status="crashed")]
    assert growth.judge("p", "repeat", crashed).verdict == growth.UNCHECKED


@pytest.fixture(scope="module")
def worker():
    with growth.new_worker(timeout=300) as w:  # a wall limit far above the CPU seconds these probes take
        yield w


#: The floor the planted quadratic pass is probed at: n where one run costs 0.05 s, so 2n and 4n, the two sizes the
#: exponent is read over, cost about 0.2 s and 0.8 s (at growth.FLOOR = 0.2: 0.3 s, 1.4 s and 6 s, twice each with
#: the confirmation: 17 of the test's 21 s of CPU, measured). The exponent's two times stay at or above the default
#: floor, so the jitter argument of passcheck.hunt.growth holds for them; the linear test below keeps the default.
QUADRATIC_FLOOR = 0.05


def test_a_planted_quadratic_pass_is_caught(worker, monkeypatch):
    planted = FunctionAdapter("planted:quadratic-readers", planted_growth.quadratic_readers, optimizes=False)
    monkeypatch.setattr(growth, "FLOOR", QUADRATIC_FLOOR)
    g = growth.probe(worker, planted, _clip_relu(), enlarge.REPEAT, repeats=1)
    assert g.finding, g.why
    if g.verdict == growth.SUPERLINEAR:  # else a timeout: the wall limit met on a machine loaded beyond it
        assert g.exponent >= growth.BOUND and len(g.points) == 3 and len(g.points[-1].cpu) == 2  # confirmed


def test_a_planted_cubic_pass_runs_into_the_timeout_at_the_largest_size():
    planted = FunctionAdapter("planted:cubic-spin", planted_growth.cubic_spin, optimizes=False)
    with growth.new_worker(timeout=8) as w:
        g = growth.probe(w, planted, _clip_relu(), enlarge.REPEAT, repeats=1)
    assert g.verdict == growth.TIMEOUT_VERDICT and g.finding, g.why
    assert g.points[-1].status == "timeout" and "no result in 8 s" in g.why


@contextlib.contextmanager
def _busy_loops(count: int = 2):
    """``count`` processes spinning on the CPU while the block runs (CI's load, and more), ended by their ids."""
    procs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]
    try:
        yield
    finally:
        for p in procs:
            p.kill()
            p.wait()


def test_a_linear_real_pass_is_not_flagged_beside_two_busy_loops(worker):
    with _busy_loops():
        g = growth.probe(worker, get_pass("ort:disabled"), _clip_relu(), enlarge.REPEAT)
    assert g.verdict == growth.LINEAR, g.why
