"""``ort-quant:quantize-static*`` (:mod:`passcheck.passes.ort_quantize`) calibrated on the case's own feeds, and the
numeric oracle's rounding allowance read off the quantization steps a model holds
(:mod:`passcheck.oracles.quant_steps`): real quantizer and onnxruntime runs on tiny models; one-step rounding is
no finding, a result off by many steps is (planted breaks in the docstrings).
"""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

import passcheck
from passcheck.oracles import numeric, quant_steps
from passcheck.passes import get_pass
from passcheck.passes.ort_optimizer import OrtOptimizerAdapter
from passcheck.passes.ort_quantize import OrtQuantizeAdapter
from tests.passes._helpers import cell_of, through_output
from tests.passes.test_ort_float16_quantize import MODEL

STATIC = ("ort-quant:quantize-static", "ort-quant:quantize-static-per-channel", "ort-quant:quantize-static-qoperator")


@pytest.fixture(scope="module")
def static_cells():
    report = passcheck.check_model(MODEL, list(STATIC), name="q31")
    return {c.pass_id: c for c in report.cells}


@pytest.mark.parametrize("pid", STATIC)
def test_static_quantization_quantizes_and_passes_at_its_own_steps(static_cells, pid):
    cell = static_cells[pid]
    quantized = {"QLinearMatMul"} if pid.endswith("qoperator") else {"QuantizeLinear", "DequantizeLinear"}
    assert cell.status == "changed" and quantized <= set(cell.ops_after), (cell.error, cell.ops_after)
    assert cell.findings == [], cell.findings


def test_the_engine_calibrates_on_the_feeds_the_oracles_run():
    """Feeds of magnitude 40 where the annotations' synthesized draws are about 1: calibrated on anything but the
    case's feeds, the activations saturate (planted break: the engine's ``calibrated(feeds)`` line removed makes
    this a ``wrong-result``)."""
    rng = np.random.default_rng(3)
    feeds = [{"x": (rng.standard_normal((n, 4)) * 40).astype(np.float32)} for n in (2, 3)]
    report = passcheck.check_model(MODEL, ["ort-quant:quantize-static"], feeds=feeds, name="q31/feeds")
    (cell,) = [c for c in report.cells if c.pass_id == "ort-quant:quantize-static"]
    assert cell.status == "changed" and cell.findings == [], cell.findings


def test_a_copy_given_feeds_keeps_its_class_and_the_original_none():
    class Wrapped(OrtQuantizeAdapter):
        pass

    a = Wrapped("quantize-static")
    b = a.calibrated([{"x": np.zeros((1, 4), np.float32)}])
    assert type(b) is Wrapped and len(b.feeds) == 1 and a.feeds == ()
    dynamic = get_pass("ort-quant:quantize-dynamic")
    assert dynamic.calibrated([{}]) is dynamic


def _qdq_chain(scales, dynamic=False) -> onnx.ModelProto:
    """x → (QuantizeLinear → DequantizeLinear) per scale → y; with ``dynamic`` a DynamicQuantizeLinear pair last."""
    nodes, inits, v = [], [], "x"
    for i, s in enumerate(scales):
        inits += [numpy_helper.from_array(np.array(s, np.float32), f"s{i}")]
        inits += [numpy_helper.from_array(np.array(128, np.uint8), f"z{i}")]
        nodes += [helper.make_node("QuantizeLinear", [v, f"s{i}", f"z{i}"], [f"q{i}"])]
        nodes += [helper.make_node("DequantizeLinear", [f"q{i}", f"s{i}", f"z{i}"], [f"d{i}"])]
        v = f"d{i}"
    if dynamic:
        nodes += [helper.make_node("DynamicQuantizeLinear", [v], ["dq", "ds", "dz"])]
        nodes += [helper.make_node("DequantizeLinear", ["dq", "ds", "dz"], ["dd"])]
        v = "dd"
    nodes += [helper.make_node("Relu", [v], ["y"])]
    graph = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4])],
        inits,
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=8)


def test_the_allowance_is_a_share_of_each_rounding_step_on_the_path():
    assert quant_steps.allowance(_qdq_chain([0.5])) == {"y": 0.25}  # half a step against the float model
    assert quant_steps.allowance(_qdq_chain([0.5, 0.25]), share=1.0) == {"y": 0.75}  # a step each between engines
    assert quant_steps.allowance(_qdq_chain([0.5], dynamic=True)) == {"y": None}  # a step set at run time
    assert quant_steps.allowance(MODEL) == {}  # no rounding: the float rule stands
    chain = _qdq_chain([0.5])
    # the output's roundings (0.125 + 0.0625) and the given model's own (0.25: M324)
    assert quant_steps.combined(chain, _qdq_chain([0.25, 0.125]), pass_rounds=True) == {"y": 0.4375}
    assert quant_steps.combined(chain, None, pass_rounds=False) == {"y": 0.5}


def test_a_product_bounds_its_sum_by_the_constant_operands_magnitude_and_shape():
    """MatMul of a DequantizeLinear'd activation (uint8, zero point 128, scale 0.1: |x| ≤ 12.8) by DQ'd int8
    weights [3, 2] (scale 0.01, largest |q| 100: |w| ≤ 1.0): K = 3, a = 3 (0.05·1.0 + 12.8·0.005 + 0.05·0.005)."""
    q = helper.make_node
    graph = helper.make_graph(
        [
            q("QuantizeLinear", ["x", "sx", "zx"], ["xq"]),
            q("DequantizeLinear", ["xq", "sx", "zx"], ["xd"]),
            q("DequantizeLinear", ["wq", "sw"], ["wd"]),
            q("MatMul", ["xd", "wd"], ["y"]),
        ],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 2])],
        [
            numpy_helper.from_array(np.array(0.1, np.float32), "sx"),
            numpy_helper.from_array(np.array(128, np.uint8), "zx"),
            numpy_helper.from_array(np.array([[100, -3], [7, 0], [1, 2]], np.int8), "wq"),
            numpy_helper.from_array(np.array(0.01, np.float32), "sw"),
        ],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=8)
    (a,) = quant_steps.allowance(model).values()
    assert a == pytest.approx(3 * (0.05 * 1.0 + 12.8 * 0.005 + 0.05 * 0.005))
    assert quant_steps.allowance(model, share=1.0, weights=False) == {"y": pytest.approx(3 * 0.1 * 1.0)}


def test_a_step_the_pass_wrote_never_allows_more_than_the_range_rule():
    """A quantizer's scales are its claims: 2.0 of allowance on an output peaking at 0.005 is capped at DEPTH
    half steps of 1/255 of that range (planted break: the ``min`` in ``pass_tolerance`` removed fails this)."""
    expected = np.array([0.005, -0.001], np.float32)
    _, atol = numeric.pass_tolerance("int8", expected, None, None, 2.0)
    assert atol == pytest.approx(numeric.DEPTH * numeric.PRECISION_UNIT["int8"] * 0.005)
    _, atol = numeric.pass_tolerance(None, expected, None, None, 0.05)  # an optimizer: the input's steps stand
    assert atol == 0.05


def test_an_8_bit_tolerance_scales_with_the_output_not_the_dtypes_absolute_atol():
    """Outputs near float16's smallest normals (``vary:feed-tiny``): a quantizer whose every output is 0 against a
    peak of 8e-6 is off by 100 %, which float16's absolute atol 1e-3 would pass (planted break: the ``STEPPED``
    floor in ``pass_tolerance`` removed fails this)."""
    expected = np.array([7.9e-6, -2e-6], np.float16)
    for steps in (numeric.NO_STEPS, None, 2309.0):  # no steps, a run-time step, a claimed scale of 1.0
        _, atol = numeric.pass_tolerance("int8", expected, None, None, steps)
        assert atol < 1e-6, (steps, atol)
    assert not numeric.compare(
        np.zeros(2, np.float16), expected, *numeric.pass_tolerance("int8", expected, None, None)
    ).ok


QDQ_CONV = "pattern-ort-qdq/conv"


def test_one_step_from_a_moved_rounding_is_no_finding():
    """ort:extended on the QDQ Conv case: DoubleQDQPairsRemover / the QLinearConv fusion move one rounding, one
    output step (0.05) on one element of 216; before the allowance every form was a ``wrong-result``
    (planted break: ``allowed = {}`` in numeric.check brings them back)."""
    report = passcheck.run([QDQ_CONV], ["ort:extended"])
    assert report.cells and not [f for c in report.cells for f in c.findings if f.oracle == "numeric"]


class _OffBySteps(OrtOptimizerAdapter):
    """ort:extended, then the graph output moved by 0.5 (ten output steps of the case's 0.05)."""

    def __init__(self):
        super().__init__("extended")
        self.id = "ort:broken-steps"

    def apply(self, model, workdir):
        return through_output(super().apply(model, workdir), "Add", 0.5, "broken_shift")


def test_a_result_off_by_many_steps_is_still_a_wrong_result():
    from passcheck.cases import registry

    model = registry().get(QDQ_CONV).forms["common"].build()
    kinds = {(f.oracle, f.kind) for f in cell_of(_OffBySteps(), model, "q31/broken").findings}
    assert ("numeric", "wrong-result") in kinds, kinds


class _ScaleOne(OrtQuantizeAdapter):
    """quantize_static, then every weight scale set to 1.0 (its int8 weights re-rounded at it: all 0): the
    output is 0 where the float model's is not; the scales the pass wrote would allow 2.0."""

    def __init__(self):
        super().__init__("quantize-static")
        self.id = "ort-quant:broken-scale-one"

    def apply(self, model, workdir):
        out = super().apply(model, workdir)
        inits = {t.name: t for t in out.graph.initializer}
        for n in out.graph.node:
            if n.op_type == "DequantizeLinear" and n.input[0] in inits:
                w, s = inits[n.input[0]], inits[n.input[1]]
                s.CopyFrom(numpy_helper.from_array(np.ones_like(numpy_helper.to_array(s)), s.name))
                w.CopyFrom(numpy_helper.from_array(np.zeros_like(numpy_helper.to_array(w)), w.name))
        return out


def test_a_quantizer_writing_a_scale_too_large_for_its_data_is_caught():
    kinds = {(f.oracle, f.kind) for f in cell_of(_ScaleOne(), MODEL, "q31/scale-one").findings}
    assert ("numeric", "wrong-result") in kinds, kinds


def test_a_quantizer_writing_q_dq_at_an_opset_onnxruntime_has_no_kernel_for_is_unchecked_not_wrong():
    """The tiny MatMul model stamped at the newest ai.onnx opset: quantize_static writes QuantizeLinear /
    DequantizeLinear at the model's opset (the spec's newest version), for which onnxruntime may ship no kernel yet:
    ``unchecked`` with the kernel named, never a ``wrong-result`` (planted break: the ``STEPPED`` clause of
    ``numeric.kernel_gap`` removed makes it one while onnxruntime 1.32.0 lacks the kernel)."""
    newest = onnx.ModelProto.FromString(MODEL.SerializeToString())
    newest.opset_import[0].version = onnx.defs.onnx_opset_version()
    newest.ir_version = onnx.helper.find_min_ir_version_for([newest.opset_import[0]])
    report = passcheck.check_model(newest, ["ort-quant:quantize-static"], name="q31/newest")
    (cell,) = [c for c in report.cells if c.pass_id == "ort-quant:quantize-static"]
    assert not [f for f in cell.findings if f.oracle == "numeric"], cell.findings
    if cell.unchecked:  # while onnxruntime ships no kernel for the newest Q/DQ
        assert any("no kernel for" in why for why in cell.unchecked.values()), cell.unchecked
