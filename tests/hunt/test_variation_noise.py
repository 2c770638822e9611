"""A variation's numeric finding is judged with a tolerance scaled to the neighbour's own outputs
(:func:`passcheck.hunt.vary_probe.scaled_atol`): an approximate rewrite whose error grows with the outputs
is no finding when a value variation makes the outputs larger; a wrong result still is."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from passcheck.hunt import vary_probe
from passcheck.hunt.probe import Setting
from passcheck.passes import FunctionAdapter, register_pass, unregister_pass


def _scale_by(factor: float | None):
    """x * c (c a one-element float initializer) → x * (c · factor): a 1 % approximation of the product;
    ``None``: x * 0.01 whatever c holds (a wrong result once c is not 0.01)."""

    def rewrite(model: onnx.ModelProto) -> onnx.ModelProto:
        inits = {t.name: t for t in model.graph.initializer}
        for n in model.graph.node:
            c = inits.get(n.input[1]) if n.op_type == "Mul" else None
            if c is not None:
                v = numpy_helper.to_array(c)
                new = np.float32(0.01) if factor is None else (v * np.float32(factor)).astype(np.float32)
                model.graph.initializer.append(numpy_helper.from_array(np.asarray(new), "c_approx"))
                n.input[1] = "c_approx"
        return model

    return rewrite


def _base() -> onnx.ModelProto:
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 4])
    c = numpy_helper.from_array(np.array(0.01, np.float32), "c")  # small outputs: atol 1e-3 fits them
    graph = helper.make_graph([helper.make_node("Mul", ["x", "c"], ["y"], name="mul")], "g", [x], [y], [c])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


@pytest.fixture(scope="module")
def ex():
    from passcheck.passes.isolation import executor_for

    with executor_for(None, timeout=60) as executor:
        yield executor


def _numeric(setting: Setting, factor: float | None, ex) -> list:
    pid = f"planted:scale-{factor}"
    register_pass(FunctionAdapter(pid, _scale_by(factor)))
    try:
        out = vary_probe.judge(setting, _base(), "vary:value-one@c", pid, ex)
    finally:
        unregister_pass(pid)
    assert out.status == "done", out
    return [f for f in out.findings if f.oracle == "numeric"]


def test_an_approximation_that_grows_with_the_outputs_is_no_finding_on_a_neighbour_with_larger_outputs(ex):
    # c 0.01 → 1: the outputs grow 100-fold, and so does the 1 % error (beyond atol 1e-3 + rtol 1e-4 · |y|)
    assert _numeric(Setting("vary-test/approx", atol=1e-3), 1.01, ex) == []
    # a case's own rtol does not stop its atol from scaling: the base passes on its atol (its outputs are
    # small), and a neighbour whose outputs are 100-fold larger gets that atol 100-fold, rtol or not (a
    # kernel whose error grows with the block's magnitude, MatMulNBits at accuracy_level 4 on × 1e3 feeds)
    assert _numeric(Setting("vary-test/approx", rtol=0.02, atol=1e-3), 1.01, ex) == []
    assert _numeric(Setting("vary-test/approx", rtol=1e-4, atol=1e-3), 1.01, ex) == []
    # a result the base does not show, beyond that scaled tolerance, is still the neighbour's finding
    assert _numeric(Setting("vary-test/approx", rtol=1e-4, atol=1e-3), None, ex) != []


def test_a_wrong_result_on_a_neighbour_with_larger_outputs_is_still_a_finding(ex):
    found = _numeric(Setting("vary-test/approx", atol=1e-3), None, ex)
    assert [f.kind for f in found] == ["wrong-result"], found


def test_scaled_atol_is_the_case_s_times_the_output_ratio(ex):
    from passcheck.hunt import variation

    base = _base()
    neighbour = variation.build(base, "vary:value-one@c")[0]
    s = Setting("vary-test/approx", atol=1e-3)
    assert vary_probe.scaled_atol(s, s, base, neighbour, ex) == pytest.approx(0.1, rel=1e-4)
    assert vary_probe.scaled_atol(s, s, neighbour, base, ex) == 1e-3  # smaller outputs: unchanged
    d = Setting("vary-test/approx")  # no atol: the float32 default (1e-5), scaled
    assert vary_probe.scaled_atol(d, d, base, neighbour, ex) == pytest.approx(1e-3, rel=1e-4)


def test_magnitude_reads_float_tensors_of_any_rank_and_skips_other_outputs():
    """A rank-0 integer output (an ``int64`` count), a sequence and an absent optional are no tensors to
    scale by: the magnitude is the largest finite |x| of the float tensors, rank 0 included."""
    from types import SimpleNamespace

    import numpy as np

    from passcheck.hunt.vary_probe import magnitude

    run = SimpleNamespace(
        outputs={
            "count": np.array(3, dtype=np.int64),
            "scalar": np.array(-2.5, dtype=np.float32),
            "seq": [np.full(2, 100.0)],
            "opt": None,
            "x": np.array([np.inf, -7.0]),
        }
    )
    assert magnitude([run]) == 7.0
    assert magnitude([SimpleNamespace(outputs={"s": np.array(-9.0, dtype=np.float16)})]) == 9.0


def test_no_zero_quantization_scale_where_a_reader_divides_by_it():
    # DequantizeLinear multiplies by sc, QuantizeLinear divides by it: with sc = 0 the output is the saturation
    # of 0/0 (the spec gives no value; a pass removing the pair returned x, the run 0): no value-zero there,
    # while the DequantizeLinear-only scale may still be zeroed and both may be negated
    import random

    from passcheck.hunt import variation

    x = helper.make_tensor_value_info("x", TensorProto.UINT8, [2, 4])
    q = helper.make_tensor_value_info("q", TensorProto.UINT8, [2, 4])
    inits = [
        numpy_helper.from_array(np.array(0.05, np.float32), "sc"),
        numpy_helper.from_array(np.array(0.1, np.float32), "sd"),
        numpy_helper.from_array(np.array(128, np.uint8), "zp"),
    ]
    nodes = [
        helper.make_node("DequantizeLinear", ["x", "sd", "zp"], ["d"], name="dq"),
        helper.make_node("QuantizeLinear", ["d", "sc", "zp"], ["q"], name="q"),
    ]
    model = helper.make_model(
        helper.make_graph(nodes, "g", [x], [q], inits), opset_imports=[helper.make_opsetid("", 19)]
    )
    forms = [f for f in variation.neighbours(model, random.Random(0)) if variation.family(f) == "value"]
    assert "vary:value-zero@sd" in forms and "vary:value-negate@sc" in forms
    assert "vary:value-zero@sc" not in forms
