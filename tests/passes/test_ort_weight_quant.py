"""``ort-quant:matmul-nbits*`` / ``ort-quant:matmul-bnb4`` (:mod:`passcheck.passes.ort_weight_quant`) and the
numeric bound of a block-quantized weight (:mod:`passcheck.oracles.block_steps`): real quantizer and onnxruntime
runs on tiny models. The real quantizer passes at the block scales it wrote; a planted one that doubles its
scales is a ``wrong-result``, one that skips a spelling a parity finding (planted breaks in the docstrings)."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

import passcheck
from passcheck.oracles import block_steps, numeric, quant_steps
from passcheck.passes import get_pass, register_pass, unregister_pass
from passcheck.passes.ort_weight_quant import OrtMatMulNBitsAdapter
from tests.passes._helpers import cell_of

K, N = 32, 8


def _matmul(w: np.ndarray) -> onnx.ModelProto:
    """``y = MatMul(x, w)``, ``x: float[B, 32]``, ``w`` an initializer ``[32, 8]``."""
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["x", "w"], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["B", K])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["B", N])],
        [numpy_helper.from_array(w.astype(np.float32), "w")],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


#: Positive weights: every output sums aligned products, so a wrong scale moves the output by its own size.
MODEL = _matmul(np.random.default_rng(7).uniform(0.5, 1.0, (K, N)))


class _Fresh(OrtMatMulNBitsAdapter):
    """A registered copy of a fixed variant under its own id (``cell_of`` registers the adapter it is given)."""

    def __init__(self, pid: str):
        super().__init__(pid.split(":")[1])
        self.id = f"test:{pid}"


@pytest.mark.parametrize("pid", ["ort-quant:matmul-nbits", "ort-quant:matmul-nbits-symmetric"])
def test_the_quantizer_writes_matmulnbits_and_passes_at_its_own_block_scales(pid):
    cell = cell_of(_Fresh(pid), MODEL, f"nbits41/{pid}")
    assert cell.status == "changed" and "com.microsoft::MatMulNBits" in cell.ops_after, (cell.error, cell.ops_after)
    assert cell.findings == [], cell.findings


def test_the_bound_is_k_times_the_fed_magnitude_times_a_share_of_the_largest_block_scale():
    """Asymmetric (zero points written): half a step per weight; symmetric: a whole step (module docs)."""
    out = get_pass("ort-quant:matmul-nbits").apply(MODEL, None)
    (node,) = [n for n in out.graph.node if n.op_type == "MatMulNBits"]
    scales = quant_steps.constants(out)[node.input[2]]
    step = float(np.abs(scales).max())
    assert quant_steps.allowance(out, 0.5, True) == {"y": None}  # a fed magnitude is unknown without the feeds
    bound = quant_steps.allowance(out, 0.5, True, fed={"x": 2.0})["y"]
    assert bound == pytest.approx(K * 2.0 * 0.5 * step)
    sym = get_pass("ort-quant:matmul-nbits-symmetric").apply(MODEL, None)
    (snode,) = [n for n in sym.graph.node if n.op_type == "MatMulNBits"]
    moved, _ = block_steps.weight_bound(snode, quant_steps.constants(sym), 0.5, True)
    assert moved == pytest.approx(float(np.abs(quant_steps.constants(sym)[snode.input[2]]).max()))
    assert quant_steps.allowance(out, 1.0, False, fed={"x": 2.0}) == {"y": 0.0}  # the weights as given: exact


def test_feed_magnitudes_are_read_for_the_weight_only_precision_only():
    assert numeric._fed_magnitudes([{"x": np.array([1.0, -3.0])}, {"x": np.array([2.0]), "s": np.array(["a"])}]) == {
        "x": 3.0
    }
    assert numeric.FED == {"int4"} and "int4" in numeric.STEPPED


class _ScaledBy(OrtMatMulNBitsAdapter):
    """matmul-nbits, then every MatMulNBits scale multiplied by ``factor`` (the weights read back that much off)."""

    def __init__(self, factor: float):
        super().__init__("matmul-nbits")
        self.factor = factor
        self.id = f"ort-quant:broken-scales-{factor}"

    def apply(self, model, workdir):
        out = super().apply(model, workdir)
        inits = {t.name: t for t in out.graph.initializer}
        for n in out.graph.node:
            if n.op_type == "MatMulNBits":
                s = inits[n.input[2]]
                s.CopyFrom(numpy_helper.from_array(self.factor * numpy_helper.to_array(s), s.name))
        return out


def _cell(adapter, feeds=None):
    register_pass(adapter)
    try:
        report = passcheck.check_model(MODEL, [adapter.id], feeds=feeds, name=f"nbits41/{adapter.id}")
    finally:
        unregister_pass(adapter.id)
    (cell,) = [c for c in report.cells if c.pass_id == adapter.id]
    return cell


def test_a_quantizer_writing_doubled_scales_is_a_wrong_result():
    kinds = {(f.oracle, f.kind) for f in _cell(_ScaledBy(2.0)).findings}
    assert ("numeric", "wrong-result") in kinds, kinds


#: Feeds of ones: ``y`` sums 32 aligned products (about 24), the bound ``K · 1 · step / 2`` about 1.1.
ONES = [{"x": np.ones((b, K), np.float32)} for b in (1, 3)]


def test_a_scale_a_quarter_off_is_caught_by_the_derived_bound_and_not_by_the_range_rule():
    """Scales × 1.25 move every output by a quarter of itself (about 6 of 24): beyond ``K · m_x · step / 2``
    (about 1.1), within the range rule's 16 half steps of 1/15 (0.53 of the peak). Planted break: ``FED`` emptied
    in numeric.py (no feed magnitude: the range rule alone) → this test fails; the real quantizer on the same feeds
    is no finding."""
    assert _cell(_Fresh("ort-quant:matmul-nbits"), ONES).findings == []
    kinds = {(f.oracle, f.kind) for f in _cell(_ScaledBy(1.25), ONES).findings}
    assert ("numeric", "wrong-result") in kinds, kinds


class _SkipsBatched(OrtMatMulNBitsAdapter):
    """matmul-nbits that leaves a MatMul alone when its A input is declared with rank 3 or more (a quantizer that
    only knows the 2-D activations of a linear layer)."""

    def __init__(self):
        super().__init__("matmul-nbits")
        self.id = "ort-quant:broken-skips-batched"

    def apply(self, model, workdir):
        ranks = {
            v.name: len(v.type.tensor_type.shape.dim)
            for v in [*model.graph.input, *model.graph.value_info]
            if v.type.tensor_type.HasField("shape")
        }
        if any(n.op_type == "MatMul" and ranks.get(n.input[0], 2) >= 3 for n in model.graph.node):
            return model
        return super().apply(model, workdir)


def test_a_quantizer_skipping_one_spelling_is_a_parity_finding():
    """``pattern-onnxscript/reshape-matmul-reshape``: its ``broadcast`` form multiplies a rank-3 ``x`` directly,
    the common form reshapes it to rank 2 first; the real quantizer quantizes both (no parity finding), the
    planted one only the common form."""
    case = "pattern-onnxscript/reshape-matmul-reshape"
    real = passcheck.run([case], ["ort-quant:matmul-nbits"])
    assert not [f for c in real.cells for f in c.findings if f.oracle == "parity"], real.cells
    register_pass(_SkipsBatched())
    try:
        report = passcheck.run([case], [_SkipsBatched().id])
    finally:
        unregister_pass(_SkipsBatched().id)
    kinds = {(f.oracle, f.kind) for c in report.cells for f in c.findings}
    assert ("parity", "missed-optimization") in kinds, kinds


@pytest.fixture
def _fresh_parameters():
    """``_nbits_parameters`` is cached per process: cleared before and after a test that changes the module it reads."""
    from passcheck.passes import ort_weight_quant

    ort_weight_quant._nbits_parameters.cache_clear()
    yield ort_weight_quant
    ort_weight_quant._nbits_parameters.cache_clear()


def test_a_release_without_the_module_is_unavailable_not_crashed(monkeypatch, tmp_path, _fresh_parameters):
    """onnxruntime before 1.20 has ``matmul_4bits_quantizer`` instead (seen in 1.18.1): the import would fail inside
    ``apply`` (``crashed``); the pass states it cannot run there. Planted break: ``unavailable_reason`` removed →
    ``crashed`` with the ImportError."""
    monkeypatch.setitem(__import__("sys").modules, _fresh_parameters.NBITS_MODULE, None)
    out = OrtMatMulNBitsAdapter("matmul-nbits").run(MODEL, tmp_path)
    assert out.status == "unavailable", (out.status, out.error)
    assert "matmul_4bits_quantizer" in out.error


def test_a_variant_the_release_takes_no_argument_for_is_unavailable(monkeypatch, tmp_path, _fresh_parameters):
    """1.23.2's ``MatMulNBitsQuantizer.__init__`` has no ``bits``: the ``-8bit`` variant is ``unavailable``, the
    default one runs on the same module (here a stand-in with 1.23.2's keywords that records its calls)."""
    import types

    calls = []

    class Quantizer:
        def __init__(self, model, block_size=128, is_symmetric=False, accuracy_level=None, nodes_to_exclude=None):
            calls.append(block_size)
            self.model = types.SimpleNamespace(model=model)

        def process(self):
            pass

    monkeypatch.setitem(
        __import__("sys").modules,
        _fresh_parameters.NBITS_MODULE,
        types.SimpleNamespace(MatMulNBitsQuantizer=Quantizer, __spec__=object()),
    )
    eight = OrtMatMulNBitsAdapter("matmul-nbits-8bit").run(MODEL, tmp_path)
    assert eight.status == "unavailable", (eight.status, eight.error)
    assert "takes no bits" in eight.error
    plain = OrtMatMulNBitsAdapter("matmul-nbits").run(MODEL, tmp_path)
    assert plain.status == "unchanged", (plain.status, plain.error)
    assert calls == [16]


@pytest.mark.parametrize("variant", ["matmul-nbits-qdq", "matmul-nbits-gather"])
def test_the_opset_21_stamp_is_a_stated_limit_below_21_and_a_valid_model_from_21(variant, tmp_path):
    """Below opset 21 the quantizer sets opset 21 without converting ("the generated model may not be a valid model",
    its warning): ``unavailable`` there, not a finding. At opset 21 it runs and its model passes the full checker.
    Planted break: ``STAMPS_OPSET`` emptied → the opset-17 run is ``changed``, not ``unavailable``."""
    adapter = OrtMatMulNBitsAdapter(variant)
    below = adapter.run(MODEL, tmp_path)
    assert below.status == "unavailable", (below.status, below.error)
    assert "opset 21 and above" in below.error
    at21 = onnx.ModelProto.FromString(MODEL.SerializeToString())
    at21.opset_import[0].version = 21
    at21.ir_version = 10
    out = adapter.run(at21, tmp_path)
    assert out.status == "changed", (out.status, out.error)
    onnx.checker.check_model(out.model, full_check=True)
