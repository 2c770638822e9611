"""Float8 narrowing with ``saturate`` written (:mod:`passcheck.hunt.vary_saturate`), judged with real onnxruntime
and the real onnxscript optimizer.

Operators.md Cast-19 / CastLike-19: ``saturate`` (default 1) decides what a value beyond a float8 type's range
becomes: its largest finite value (1) or NaN / ±inf (0). The neighbour scales the cast's input past the range, so
the attribute decides the result; a pass that rewrites the node and drops the attribute (onnxscript 0.7.2's CastLike
partial evaluator writes ``Cast(x, to=…)`` without it) gives 448 where the model gives NaN. The base, a float to
float cast, gives no finding.
"""

from __future__ import annotations

import random

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from passcheck.hunt import variation, vary_probe, vary_saturate
from passcheck.hunt.probe import Setting
from tests.hunt.conftest import run_unoptimized

OPTIMIZE = "onnxscript:optimize"
FORM = "vary:saturate-float8@cl=float8e4m3fn,0"


def _base(op: str = "CastLike", opset: int = 19, elem: int = TensorProto.FLOAT) -> onnx.ModelProto:
    """``y = Relu(CastLike(x, t))`` (``t`` a float initializer) or ``Relu(Cast(x, to=float))``; ``x: elem[2, 3]``."""
    x = helper.make_tensor_value_info("x", elem, [2, 3])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])
    if op == "CastLike":
        cast = helper.make_node("CastLike", ["x", "t"], ["c"], name="cl")
        inits = [helper.make_tensor("t", TensorProto.FLOAT, [1], [0.0])]
    else:
        cast, inits = helper.make_node("Cast", ["x"], ["c"], name="cl", to=TensorProto.FLOAT), []
    graph = helper.make_graph([cast, helper.make_node("Relu", ["c"], ["y"], name="r")], "g", [x], [y], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=9)


def test_sites_are_the_float8_types_the_schema_admits_and_each_saturate_value():
    sites = [s for _, s in vary_saturate.candidates(_base())]
    saturating = [t for t in vary_saturate.FLOAT8 if t != "float8e8m0"]
    assert sites == [f"cl={t},{s}" for t in saturating for s in (0, 1)]  # CastLike-19: no float8e8m0
    later = [s for _, s in vary_saturate.candidates(_base(opset=24))]
    assert later == [*sites, "cl=float8e8m0,up", "cl=float8e8m0,down", "cl=float8e8m0,nearest"]
    assert list(vary_saturate.candidates(_base(opset=18))) == []  # CastLike-15: no saturate, no float8
    half = [s for _, s in vary_saturate.candidates(_base("Cast", elem=TensorProto.FLOAT16))]
    assert half == ["cl=float8e4m3fn,0", "cl=float8e4m3fn,1", "cl=float8e4m3fnuz,0", "cl=float8e4m3fnuz,1"]
    assert vary_saturate.scale("float8e4m3fn") == 2048.0 and vary_saturate.scale("float8e5m2") == 2.0**18
    assert any(f.startswith("vary:saturate-float8@cl=") for f in variation.neighbours(_base(), random.Random(0)))


@pytest.mark.parametrize("op", ["CastLike", "Cast"])
def test_the_neighbour_narrows_scales_and_casts_back_under_the_former_name(op):
    base = _base(op)
    out, labels = variation.build(base, FORM)
    assert labels == ["cl"]
    onnx.checker.check_model(out, full_check=True)
    g = out.graph
    assert [n.op_type for n in g.node] == ["Mul", op, "Cast", "Relu"]
    mul, cast, back, _ = g.node
    assert list(mul.input)[0] == "x" and cast.input[0] == mul.output[0] and list(back.output) == ["c"]
    assert helper.get_attribute_value(next(a for a in cast.attribute if a.name == "saturate")) == 0
    inits = {t.name: t for t in g.initializer}
    target = inits[cast.input[1]].data_type if op == "CastLike" else cast.attribute[0].i
    assert target == TensorProto.FLOAT8E4M3FN and back.attribute[0].i == TensorProto.FLOAT
    assert "t" not in inits  # CastLike's former target type, read by nothing, is gone
    assert [o.name for o in g.output] == ["y"] and not vary_probe.interface_changed(base, out, FORM)
    x = np.array([[0.1, 0.5, -0.5], [1.0, -1.0, 0.0]], np.float32)
    got = run_unoptimized(out, {"x": x})[0]
    # 0.1 * 2048 = 204.8 -> 208 in float8e4m3fn; beyond 448 -> NaN (saturate 0), Relu keeps NaN
    assert got[0, 0] == 208.0 and np.isnan(got[0, 1]) and np.isnan(got[1, 0]) and got[1, 2] == 0.0
    sat, _ = variation.build(base, "vary:saturate-float8@cl=float8e4m3fn,1")
    assert run_unoptimized(sat, {"x": x})[0][0, 1] == 448.0


def test_float8e8m0_writes_round_mode_and_keeps_the_input():
    """Cast-24 ``round_mode`` (float8e8m0 only): 3 becomes 2 ("down") or 4 ("up"), as onnxruntime's Cast computes."""
    x = {"x": np.array([[3.0, 5.0, 100.0], [0.75, 3.0, 6.0]], np.float32)}
    got = {}
    for mode in ("up", "down"):
        out, _ = variation.build(_base("Cast", opset=24), f"vary:saturate-float8@cl=float8e8m0,{mode}")
        onnx.checker.check_model(out, full_check=True)
        assert [n.op_type for n in out.graph.node] == ["Cast", "Cast", "Relu"]  # no scaling
        assert helper.get_attribute_value(next(a for a in out.graph.node[0].attribute if a.name == "round_mode")) == (
            mode.encode()
        )
        got[mode] = run_unoptimized(out, x)[0]
    assert got["up"][0].tolist() == [4.0, 8.0, 128.0] and got["down"][0].tolist() == [2.0, 4.0, 64.0]


def test_no_site_is_built_for_another_type_value_or_node():
    assert not vary_saturate.build(_base(), "cl=float8e8m0,down")  # CastLike-19 admits no float8e8m0
    assert not vary_saturate.build(_base(opset=24), "cl=float8e8m0,0")  # its attribute is round_mode
    for site in ("cl=float16,0", "cl=float8e4m3fn,2", "r=float8e4m3fn,0", "nothing=float8e4m3fn,0"):
        assert not vary_saturate.build(_base(), site)
    assert not vary_saturate.build(_base("Cast", elem=TensorProto.FLOAT16), "cl=float8e5m2,0")  # 2**18 > 65504


def test_onnxscript_optimize_dropping_saturate_is_a_wrong_result_on_the_neighbour_only(inproc_executor):
    from onnxscript import optimizer

    x = {"x": np.array([[0.1, 0.5, -0.5], [1.0, -1.0, 0.0]], np.float32)}
    assert np.array_equal(run_unoptimized(optimizer.optimize(_base()), x)[0], run_unoptimized(_base(), x)[0])
    out = vary_probe.judge(Setting("vary-test/saturate"), _base(), FORM, OPTIMIZE, inproc_executor)
    assert out.status == "done", out
    assert ("numeric", "wrong-result") in {(f.oracle, f.kind) for f in out.findings}, out.findings
