"""``ort-format:<level>`` (:mod:`passcheck.passes.ort_format`): onnxruntime's ORT format round trip judged by the
ordinary oracles, with real onnxruntime sessions; each planted break (a converter that drops a node, swaps an
initializer, writes bytes that do not load, an ONNX save that departs from the ``.ort`` session) must be caught.
"""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

import passcheck
from passcheck.passes import get_pass
from passcheck.passes import ort_format as F
from passcheck.passes.ort_format import OrtFormatAdapter
from tests.passes._helpers import cell_of, through_output


def _model() -> onnx.ModelProto:
    """y = Relu(x + a) * b, x: float [N, 3]; ``a`` and ``b`` are initializers of the same shape, not the same data."""
    graph = helper.make_graph(
        [
            helper.make_node("Add", ["x", "a"], ["t"], name="add"),
            helper.make_node("Relu", ["t"], ["r"], name="relu"),
            helper.make_node("Mul", ["r", "b"], ["y"], name="mul"),
        ],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 3])],
        [
            numpy_helper.from_array(np.array([-1.0, 0.5, 2.0], np.float32), "a"),
            numpy_helper.from_array(np.array([3.0, -2.0, 0.25], np.float32), "b"),
        ],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def _branch_constant() -> onnx.ModelProto:
    """If(c) whose then-branch returns its own initializer and the else-branch a Neg of the outer x: the graph
    outputs onnxruntime's ONNX save of an ORT-loaded graph leaves out (row 1207), in a subgraph."""
    then = helper.make_graph(
        [],
        "then",
        [],
        [helper.make_tensor_value_info("k", TensorProto.FLOAT, [3])],
        [numpy_helper.from_array(np.array([1.0, 2.0, 3.0], np.float32), "k")],
    )
    other = helper.make_graph(
        [helper.make_node("Neg", ["x"], ["n"])],
        "else",
        [],
        [helper.make_tensor_value_info("n", TensorProto.FLOAT, [3])],
    )
    graph = helper.make_graph(
        [helper.make_node("If", ["c"], ["y"], then_branch=then, else_branch=other)],
        "g",
        [
            helper.make_tensor_value_info("c", TensorProto.BOOL, []),
            helper.make_tensor_value_info("x", TensorProto.FLOAT, [3]),
        ],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3])],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


@pytest.mark.parametrize("pid", ["ort-format:basic", "ort-format:all", "ort-format:disabled"])
def test_the_round_trip_of_a_plain_model_has_no_finding(pid):
    report = passcheck.check_model(_model(), [pid], name=f"ortfmt/{pid}")
    (cell,) = [c for c in report.cells if c.pass_id == pid]
    assert cell.status == "changed" and cell.findings == [], (cell.error, cell.findings)


def test_names_and_initializer_outputs_the_save_leaves_out_are_refilled_from_the_format(tmp_path):
    """The recovered model passes the checker and computes what the ``.ort`` session does (planted break: without
    :func:`~passcheck.passes.ort_format.refill` onnxruntime refuses its own save: the then-branch has no output)."""
    model = _branch_constant()
    out = get_pass("ort-format:disabled").apply(model, tmp_path)
    onnx.checker.check_model(out, full_check=True)
    then = next(a.g for a in out.graph.node[0].attribute if a.name == "then_branch")
    assert [o.name for o in then.output] == ["k"] and out.graph.name == "g" and then.name
    data = (tmp_path / "model.ort").read_bytes()
    assert F.graph_outputs(data)[()] == ["y"]
    bare = onnx.load_from_string(F.load_ort(data, tmp_path / "again.onnx")[1])
    with pytest.raises(F.OrtFormatLost, match="fails to load"):  # the save as onnxruntime writes it
        session = F.load_ort(data, tmp_path / "third.onnx")[0]
        bare.graph.name = "g"
        next(a.g for a in bare.graph.node[0].attribute if a.name == "then_branch").name = "t"
        next(a.g for a in bare.graph.node[0].attribute if a.name == "else_branch").name = "e"
        F.agree(session, bare.SerializeToString(), [{"c": np.array(True), "x": np.ones(3, np.float32)}])


class _DropsRelu(OrtFormatAdapter):
    """A planted converter: the Relu is gone from what it writes (its input wired to its output's readers)."""

    def __init__(self):
        super().__init__("basic")
        self.id = "ort-format:broken-drop"

    def apply(self, model, workdir):
        (relu,) = [n for n in model.graph.node if n.op_type == "Relu"]
        for n in model.graph.node:
            n.input[:] = [relu.input[0] if i == relu.output[0] else i for i in n.input]
        model.graph.node.remove(relu)
        return super().apply(model, workdir)


class _SwapsInitializers(OrtFormatAdapter):
    """A planted converter: initializers ``a`` and ``b`` (same shape and type) written with each other's data."""

    def __init__(self):
        super().__init__("all")
        self.id = "ort-format:broken-swap"

    def apply(self, model, workdir):
        a, b = model.graph.initializer
        a_raw, b_raw = a.SerializeToString(), b.SerializeToString()
        a.ParseFromString(b_raw)
        b.ParseFromString(a_raw)
        a.name, b.name = "a", "b"
        return super().apply(model, workdir)


@pytest.mark.parametrize("planted", [_DropsRelu, _SwapsInitializers])
def test_a_converter_that_loses_the_computation_is_a_wrong_result(planted):
    cell = cell_of(planted(), _model(), "ortfmt/planted")
    kinds = {(f.oracle, f.kind) for f in cell.findings}
    assert ("numeric", "wrong-result") in kinds, (cell.status, cell.error, kinds)


class _Truncates(OrtFormatAdapter):
    """A planted writer: the ``.ort`` file cut in half after onnxruntime wrote it."""

    def __init__(self):
        super().__init__("basic")
        self.id = "ort-format:broken-truncated"

    def apply(self, model, workdir):
        path = workdir / "model.ort"
        real = F.write_ort

        def cut(model_bytes, level, p):
            data = real(model_bytes, level, p)
            return data[: len(data) // 2]

        F.write_ort = cut
        try:
            return super().apply(model, workdir)
        finally:
            F.write_ort = real
            assert path.exists()


class _SavesOtherwise(OrtFormatAdapter):
    """A planted ONNX save that departs from the ``.ort`` session: the output shifted by 0.5."""

    def __init__(self):
        super().__init__("basic")
        self.id = "ort-format:broken-save"

    def recover(self, saved, model, data):
        return through_output(super().recover(saved, model, data), "Add", 0.5, "broken_shift")


@pytest.mark.parametrize(("planted", "said"), [(_Truncates, "does not load back"), (_SavesOtherwise, "differ")])
def test_a_format_that_does_not_carry_the_model_is_a_crash_finding(planted, said):
    cell = cell_of(planted(), _model(), "ortfmt/lost")
    assert cell.status == "crashed" and said in (cell.error or ""), (cell.status, cell.error)
    assert any(f.oracle == "acceptance" and f.kind == "rejected" for f in cell.findings), cell.findings


def test_the_copy_given_feeds_runs_them_and_the_original_keeps_none():
    a = get_pass("ort-format:basic")
    b = a.calibrated([{"x": np.zeros((1, 3), np.float32)}])
    assert type(b) is OrtFormatAdapter and len(b.feeds) == 1 and a.feeds == () and b.id == a.id


def test_a_type_the_format_states_it_does_not_hold_is_a_stated_limit(tmp_path):
    """An optional-typed graph output: onnxruntime's ORT writer answers "We do not support type [9] for now"
    (``SaveTypeInfoOrtFormat``), a limit it states: ``unavailable`` with its words, not ``declined``."""
    opt = helper.make_optional_type_proto(helper.make_tensor_type_proto(TensorProto.FLOAT, [3]))
    graph = helper.make_graph(
        [helper.make_node("Optional", ["x"], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3])],
        [helper.make_value_info("y", opt)],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)
    out = get_pass("ort-format:disabled").run(model, tmp_path)
    assert out.status == "unavailable" and "We do not support type [9]" in (out.error or ""), (out.status, out.error)


def test_the_inputs_of_a_main_graph_left_with_no_node_are_refilled(tmp_path):
    """``y = Constant``, ``x`` an unread input: onnxruntime's save of the ``.ort`` session declares no input (row 1207),
    so the oracles' feed of ``x`` fails on it (planted break: without the input refill ``agree`` raises "Invalid input
    name")."""
    graph = helper.make_graph(
        [helper.make_node("Constant", [], ["y"], value=numpy_helper.from_array(np.ones(3, np.float32), "k"))],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3])],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
    adapter = get_pass("ort-format:disabled").calibrated([{"x": np.zeros(3, np.float32)}])
    out = adapter.apply(model, tmp_path)
    assert [i.name for i in out.graph.input] == ["x"] and [o.name for o in out.graph.output] == ["y"]
