"""``ort-transformers:float16`` (:mod:`passcheck.passes.ort_float16`) and ``ort-quant:quantize-dynamic``
(:mod:`passcheck.passes.ort_quantize`): real runs on tiny models, judged at the precision each declares; a
wrapped pass that breaks the output is caught, and each declaration is needed (planted breaks in the docstrings).
"""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

import passcheck
from passcheck.oracles import numeric
from passcheck.passes import get_pass
from passcheck.passes.ort_float16 import OrtFloat16Adapter
from passcheck.passes.ort_quantize import OrtQuantizeAdapter
from tests.passes._helpers import cell_of, script_apply, through_output


def _scaled_matmul() -> onnx.ModelProto:
    """y = (x · w) * 0.1 + b: x [N, 4] float, w [4, 3] and b [3] initializers; 0.1 and the weights are not
    representable in float16, so the conversion moves each output by more than float32's rtol 1e-4."""
    rng = np.random.default_rng(0)
    graph = helper.make_graph(
        [
            helper.make_node("MatMul", ["x", "w"], ["m"]),
            helper.make_node("Mul", ["m", "s"], ["p"]),
            helper.make_node("Add", ["p", "b"], ["y"]),
        ],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 3])],
        [
            numpy_helper.from_array(rng.standard_normal((4, 3)).astype(np.float32), "w"),
            numpy_helper.from_array(np.array(0.1, np.float32), "s"),
            numpy_helper.from_array(rng.standard_normal(3).astype(np.float32), "b"),
        ],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


MODEL = _scaled_matmul()


@pytest.fixture(scope="module")
def real_cells():
    report = passcheck.check_model(MODEL, ["ort-transformers:float16", "ort-quant:quantize-dynamic"], name="np30")
    return {c.pass_id: c for c in report.cells}


def test_float16_converts_a_tiny_model_and_passes_at_float16_precision(real_cells):
    cell = real_cells["ort-transformers:float16"]
    assert cell.status == "changed" and "Cast" in cell.ops_after, (cell.error, cell.ops_after)
    assert cell.findings == [], cell.findings


def test_quantize_dynamic_quantizes_the_matmul_and_passes_at_8_bit_precision(real_cells):
    cell = real_cells["ort-quant:quantize-dynamic"]
    assert cell.status == "changed" and "MatMulInteger" in cell.ops_after, (cell.error, cell.ops_after)
    assert cell.findings == [], cell.findings


def test_the_conversion_really_moves_the_outputs_beyond_float32_tolerance(tmp_path):
    """Why the precision declaration is needed: judged at float32's tolerance the honest float16 output is a
    wrong result (planted break: ``precision = None`` on the adapter fails this file's first test)."""
    import onnxruntime as ort

    out = get_pass("ort-transformers:float16").run(MODEL, tmp_path).model
    x = np.random.default_rng(1).standard_normal((3, 4)).astype(np.float32)
    want, got = (
        ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
        for m in (MODEL, out)
    )
    assert not numeric.compare(got, want).ok
    assert numeric.compare(got, want, *numeric.pass_tolerance("float16", want, None, None)).ok


class _DropsOutputCast(OrtFloat16Adapter):
    """A broken conversion: the Cast back to float before the graph output left out (its float16 input renamed
    to the output), so the graph output declared float holds float16."""

    id = "ort-transformers:broken-float16"

    def apply(self, model, workdir):
        out = super().apply(model, workdir)
        outputs = {o.name for o in out.graph.output}
        cast = next(n for n in out.graph.node if n.op_type == "Cast" and n.output[0] in outputs)
        for n in out.graph.node:
            n.input[:] = [cast.output[0] if i == cast.input[0] else i for i in n.input]
            n.output[:] = [cast.output[0] if o == cast.input[0] else o for o in n.output]
        out.graph.node.remove(cast)
        return out


def test_a_conversion_that_skips_one_cast_is_caught():
    kinds = {f.kind for f in cell_of(_DropsOutputCast(), MODEL, "np30/broken").findings}
    assert kinds & {"invalid-model", "rejected", "annotation-violated", "wrong-result"}, kinds


class _ScalesTheOutput(OrtQuantizeAdapter):
    """A broken quantizer: its output multiplied by 1.25 (a wrong scale), beyond 16 half-steps of 8 bits."""

    def __init__(self):
        super().__init__("quantize-dynamic")
        self.id = "ort-quant:broken-scale"

    def apply(self, model, workdir):
        return through_output(super().apply(model, workdir), "Mul", 1.25, "broken_scale")


def test_a_quantizer_with_a_wrong_scale_is_a_wrong_result_at_8_bit_precision():
    """The 8-bit tolerance is no blanket pass (planted break: ``DEPTH = 1000`` in numeric.py fails this test)."""
    kinds = {f.kind for f in cell_of(_ScalesTheOutput(), MODEL, "np30/broken-q").findings}
    assert "wrong-result" in kinds, kinds


def test_forms_that_differ_in_a_blocked_op_are_not_a_parity_finding():
    """``optional-input/clip-min-only``: Clip (converted) against Max (in DEFAULT_OP_BLOCK_LIST, kept float):
    different Casts by the pass's declared rule (planted break: ``by_type`` returning frozenset() on the float16
    adapter gives this case a ``missed-optimization``)."""
    report = passcheck.run(["optional-input/clip-min-only"], ["ort-transformers:float16"])
    assert report.cells and not [f for c in report.cells for f in c.findings if f.oracle == "parity"]
    assert {"Max", "Min", "TopK", "Range"} <= get_pass("ort-transformers:float16").by_type


def test_the_reproducer_calls_each_as_the_adapter_does(tmp_path):
    from passcheck.repro.tools import tool_call

    for pid in ("ort-transformers:float16", "ort-quant:quantize-dynamic"):
        ours = script_apply(tool_call(pid))(onnx.ModelProto.FromString(MODEL.SerializeToString()))
        theirs = get_pass(pid).apply(onnx.ModelProto.FromString(MODEL.SerializeToString()), tmp_path)
        assert sorted(n.op_type for n in ours.graph.node) == sorted(n.op_type for n in theirs.graph.node), pid


def test_the_coverage_catalogue_reads_what_each_pass_says_it_touches_and_sees_it_act():
    """``ort-precision`` entries from float16's block list / always-float inputs and the quantizer's registry;
    evidence by effect (planted break: ``cast_io`` left empty in ``triggers`` loses ``block:Max``)."""
    from passcheck.coverage import ort_precision

    keys = {e.key: e.passes for e in ort_precision.catalogue()}
    assert keys["ort-precision:block:Max"] == ("ort-transformers:float16",)
    assert "ort-precision:float-input:Resize" in keys and "ort-precision:quantize:MatMul" in keys
    model = onnx.ModelProto.FromString(MODEL.SerializeToString())
    model.graph.node.append(helper.make_node("Max", ["m", "y"], ["z"]))
    model.graph.output.append(helper.make_tensor_value_info("z", TensorProto.FLOAT, ["N", 3]))
    seen = ort_precision.triggers(model)
    assert "ort-precision:block:Max" in seen and "ort-precision:quantize:MatMul" in seen, seen
