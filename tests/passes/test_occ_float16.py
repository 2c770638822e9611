"""``occ:*`` (:mod:`passcheck.passes.occ_float16`): onnxconverter-common's float16 conversion and mixed-precision
search, run for real on tiny models and judged by the existing oracles; a planted break of each thing the adapter
adds (the float interface, the feeds handed to the search) is caught, and the real converter's own defects on valid
spellings are findings (planted breaks in the docstrings).
"""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

import passcheck
from passcheck.passes import get_pass
from passcheck.passes._base import PassDeclined
from passcheck.passes.occ_float16 import ADAPTERS, OccFloat16Adapter, float_interface
from tests.passes._helpers import cell_of
from tests.passes.test_ort_float16_quantize import MODEL

IDS = tuple(a.id for a in ADAPTERS)
FAILED = {"invalid-model", "rejected", "annotation-violated", "wrong-result", "crashed"}


def _fresh(variant: str) -> OccFloat16Adapter:
    """A copy of the real ``occ:<variant>`` under a test id (``cell_of`` registers it)."""
    adapter = OccFloat16Adapter(variant)
    adapter.id = f"occ:test-{variant}"
    return adapter


def _model(nodes, inputs=("x",), functions=(), opset=17):
    """``y`` from ``nodes`` over float ``[3]`` graph inputs ``inputs`` (opset ``opset``, IR 8)."""
    graph = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info(i, TensorProto.FLOAT, [3]) for i in inputs],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3])],
    )
    imports = [helper.make_opsetid("", opset)] + ([helper.make_opsetid("local", 1)] if functions else [])
    return helper.make_model(graph, opset_imports=imports, ir_version=8, functions=list(functions))


@pytest.fixture(scope="module")
def real_cells():
    report = passcheck.check_model(MODEL, list(IDS), name="occ")
    return {c.pass_id: c for c in report.cells}


@pytest.mark.parametrize("pass_id", IDS)
def test_each_variant_converts_a_tiny_model_and_passes_at_float16_precision(real_cells, pass_id):
    cell = real_cells[pass_id]
    assert cell.status == "changed" and "Cast" in cell.ops_after, (cell.error, cell.ops_after)
    assert cell.findings == [], cell.findings


def test_the_float_interface_is_restored_around_the_converted_graph(tmp_path):
    """Without ``keep_io_types`` the converter retypes the graph's float inputs / outputs; the adapter reads them
    through Casts under the same names (planted break: ``return out`` instead of ``float_interface(out, model)`` in
    ``apply`` makes every ``occ:float16`` cell a run failure, and this test fails)."""
    out = get_pass("occ:float16").run(MODEL, tmp_path).model
    assert [(v.name, v.type.tensor_type.elem_type) for v in out.graph.input] == [("x", TensorProto.FLOAT)]
    assert [(v.name, v.type.tensor_type.elem_type) for v in out.graph.output] == [("y", TensorProto.FLOAT)]
    assert {t.data_type for t in out.graph.initializer} == {TensorProto.FLOAT16}
    onnx.checker.check_model(out, full_check=True)


def test_float_interface_renames_reads_in_subgraphs():
    """An outer-scope read of a retyped graph input inside an If branch reads the Cast's output too."""
    then = helper.make_graph(
        [helper.make_node("Neg", ["x"], ["t"])],
        "then",
        [],
        [helper.make_tensor_value_info("t", TensorProto.FLOAT16, [3])],
    )
    given = _model([helper.make_node("If", ["c"], ["y"], then_branch=then, else_branch=then)], inputs=("x",))
    out = onnx.ModelProto()
    out.CopyFrom(given)
    out.graph.input[0].type.tensor_type.elem_type = TensorProto.FLOAT16
    out.graph.output[0].type.tensor_type.elem_type = TensorProto.FLOAT16
    float_interface(out, given)
    branch = out.graph.node[1].attribute[0].g
    assert branch.node[0].input[0] == "x_float16" and out.graph.node[0].output[0] == "x_float16"
    assert out.graph.node[-1].op_type == "Cast" and out.graph.node[-1].output[0] == "y"


class _DropsOutputCast(OccFloat16Adapter):
    """A broken conversion: the float16 graph output left as the converter wrote it, declared float."""

    def __init__(self):
        super().__init__("float16")
        self.id = "occ:broken-float16"

    def apply(self, model, workdir):
        out = super().apply(model, workdir)
        cast = out.graph.node[-1]
        out.graph.node.remove(cast)
        for n in out.graph.node:
            n.output[:] = [cast.output[0] if o == cast.input[0] else o for o in n.output]
        return out


def test_a_conversion_that_skips_the_output_cast_is_caught():
    kinds = {f.kind for f in cell_of(_DropsOutputCast(), MODEL, "occ/broken").findings}
    assert kinds & FAILED, kinds


def test_the_search_is_given_the_oracles_feeds():
    """``auto-mixed-precision`` calibrates: the engine hands it the runs the oracles make (planted break:
    ``self.calibrates = False`` in ``__init__`` makes the copy the adapter itself, without feeds)."""
    adapter = get_pass("occ:auto-mixed-precision")
    feeds = [{"x": np.ones((2, 4), np.float32)}]
    given = adapter.calibrated(feeds)
    assert given is not adapter and given.feeds[0]["x"].shape == (2, 4)
    assert get_pass("occ:float16").calibrated(feeds) is get_pass("occ:float16")


def test_unnamed_nodes_give_the_keep_io_casts_one_name():
    """A real defect of the converter, reached by a valid spelling (IR.md: a node's name is optional): a float graph
    input read by two unnamed nodes gets two Casts whose output is ``x_cast_to_``, twice."""
    model = _model(
        [
            helper.make_node("Relu", ["x"], ["r"]),
            helper.make_node("Neg", ["x"], ["n"]),
            helper.make_node("Add", ["r", "n"], ["y"]),
        ]
    )
    cell = cell_of(_fresh("float16-keep-io"), model, "occ/unnamed")
    kinds = {f.kind for f in cell.findings}
    assert kinds & FAILED, (cell.status, cell.error, kinds)


def test_a_model_local_function_body_left_float_is_a_finding():
    """The converter walks the graph and its subgraphs, never ``model.functions``: a float Constant in a function
    body meets a float16 input (IR.md §Functions)."""
    body = [
        helper.make_node("Constant", [], ["k"], value=numpy_helper.from_array(np.array(2.0, np.float32))),
        helper.make_node("Mul", ["a", "k"], ["b"]),
    ]
    fn = helper.make_function("local", "Twice", ["a"], ["b"], body, [helper.make_opsetid("", 17)])
    model = _model([helper.make_node("Twice", ["x"], ["y"], domain="local", name="t")], functions=[fn])
    kinds = {f.kind for f in cell_of(_fresh("float16"), model, "occ/function").findings}
    assert kinds & FAILED, kinds


def test_the_reproducer_calls_keep_io_as_the_adapter_does(tmp_path):
    from passcheck.repro.tools import tool_call
    from tests.passes._helpers import script_apply

    ours = script_apply(tool_call("occ:float16-keep-io"))(onnx.ModelProto.FromString(MODEL.SerializeToString()))
    theirs = get_pass("occ:float16-keep-io").apply(onnx.ModelProto.FromString(MODEL.SerializeToString()), tmp_path)
    assert sorted(n.op_type for n in ours.graph.node) == sorted(n.op_type for n in theirs.graph.node)
    assert tool_call("occ:float16") is None  # its interface is the adapter's: passcheck's own call


def test_a_model_that_already_holds_float16_is_outside_the_tool(tmp_path):
    """``check_if_fp16_ready`` refuses a model with float16 anywhere (its documented ``check_fp16_ready``): the
    precondition makes it ``unavailable`` (planted break: ``precondition`` returning None), and reached anyway the
    tool's refusal is declined, not a crash (planted break: the text removed from ``DECLINED``)."""
    model = _model([helper.make_node("Relu", ["x"], ["y"])])
    model.graph.input[0].type.tensor_type.elem_type = TensorProto.FLOAT16
    model.graph.output[0].type.tensor_type.elem_type = TensorProto.FLOAT16
    for variant in ("float16", "auto-mixed-precision"):
        adapter = OccFloat16Adapter(variant)
        outcome = adapter.run(model, tmp_path)
        assert outcome.status == "unavailable" and "check_if_fp16_ready" in outcome.error, outcome
        with pytest.raises(PassDeclined, match="already converted"):  # reached past the precondition: declined
            adapter.apply(model, tmp_path)


def test_a_missing_package_is_unavailable(monkeypatch, tmp_path):
    import passcheck.passes._base as base

    real = base.tool_version
    monkeypatch.setattr(base, "tool_version", lambda d: None if d == "onnxconverter-common" else real(d))
    outcome = OccFloat16Adapter("float16").run(MODEL, tmp_path)
    assert outcome.status == "unavailable" and "onnxconverter-common" in outcome.error, outcome
