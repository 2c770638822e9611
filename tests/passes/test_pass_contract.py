"""The pass contract: capabilities, the one precondition check, and the input-unchanged check."""

from __future__ import annotations

import sys

import onnx
import pytest
from onnx import TensorProto, helper

from passcheck.api import check_model
from passcheck.passes import Capabilities, FunctionAdapter, PassAdapter, get_pass, register_pass, unregister_pass


def _relu(opset: int = 13) -> onnx.ModelProto:
    g = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["r"]), helper.make_node("Neg", ["r"], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 3])],
    )
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)], ir_version=3 if opset < 8 else 7)


def _cell(report, pass_id):
    return next(c for c in report.cells if c.pass_id == pass_id)


@pytest.fixture
def registered():
    ids = []

    def add(adapter):
        ids.append(register_pass(adapter).id)
        return adapter

    yield add
    for i in ids:
        unregister_pass(i)


def test_builtin_adapters_declare_their_capabilities():
    assert get_pass("ort:disabled").capabilities == Capabilities()
    assert get_pass("ort:all").capabilities.optimizes and get_pass("ort:all").capabilities.folds_constants
    assert get_pass("onnx:infer-shapes").capabilities == Capabilities()
    assert get_pass("ort:symbolic-shape-infer").capabilities.min_opset == 7
    slim = get_pass("cmd+fold:onnxslim").capabilities
    assert slim.extra == "onnxslim" and slim.folds_constants and slim.optimizes
    assert get_pass("cmd+fold:onnxsim").capabilities.needs_feeds


class _Opset13Up(PassAdapter):
    id = "test:opset-13-up"
    min_opset, max_opset = 13, 17

    def apply(self, model, workdir):
        return model


def test_a_model_outside_the_declared_opset_range_is_unavailable_with_the_reason(registered, tmp_path):
    registered(_Opset13Up())
    for opset, why in ((12, "opset 12"), (18, "opset 18")):
        report = check_model(_relu(opset), ["test:opset-13-up"], allow_unavailable=True)
        cell = _cell(report, "test:opset-13-up")
        assert cell.status == "unavailable" and not cell.findings and "13..17" in cell.error and why in cell.error, cell
        assert report.exit_code == 0
        assert check_model(_relu(opset), ["test:opset-13-up"]).exit_code == 1  # named and not run: unchecked
        out = get_pass("test:opset-13-up").run(_relu(opset), tmp_path)  # the same check outside the engine
        assert out.status == "unavailable" and out.error == cell.error
    assert _cell(check_model(_relu(13), ["test:opset-13-up"]), "test:opset-13-up").status == "unchanged"


def _drop_neg_in_place(model):
    """Planted: removes the Neg node from the model it is given and returns a fixed copy."""
    good = onnx.ModelProto()
    good.CopyFrom(model)
    del model.graph.node[1]
    return good


@pytest.mark.parametrize("isolation", [False, True])
def test_a_pass_that_mutates_its_input_is_a_finding(registered, isolation):
    registered(FunctionAdapter("test:mutates-input", _drop_neg_in_place, optimizes=False))
    report = check_model(_relu(), ["test:mutates-input"], isolation=isolation)
    cell = _cell(report, "test:mutates-input")
    found = [f for f in cell.findings if f.kind == "input-mutated"]
    assert len(found) == 1 and "graph.node (2 → 1)" in found[0].message, cell.findings
    assert found[0].oracle == "pass-contract" and report.exit_code == 1


def test_an_in_place_pass_is_not_a_contract_finding(registered):
    def in_place(model):
        """Edits the model it is given and returns it: its edits are its output, by design."""
        model.graph.node[0].name = "renamed"
        return model

    registered(FunctionAdapter("test:in-place", in_place, optimizes=False))
    cell = _cell(check_model(_relu(), ["test:in-place"], isolation=False), "test:in-place")
    assert cell.status == "changed" and not cell.findings and cell.verdict == "ok", cell


def test_a_well_behaved_pass_leaves_no_contract_finding(registered):
    registered(FunctionAdapter("test:copying", _copy_and_rename, optimizes=False))
    cell = _cell(check_model(_relu(), ["test:copying"], isolation=False), "test:copying")
    assert cell.status == "changed" and not cell.findings and cell.verdict == "ok", cell


def _copy_and_rename(model):
    out = onnx.ModelProto()
    out.CopyFrom(model)
    out.graph.node[0].name = "renamed"
    return out


def test_a_command_that_rewrites_its_in_file_is_a_finding(tmp_path):
    script = tmp_path / "rewrites_in.py"
    script.write_text(
        "import shutil, sys, onnx\n"
        "m = onnx.load(sys.argv[1]); shutil.copy(sys.argv[1], sys.argv[2])\n"
        "m.producer_name = 'touched'; onnx.save(m, sys.argv[1])\n"
    )
    pid = f"cmd:{sys.executable} {script} {{in}} {{out}}"
    cell = _cell(check_model(_relu(), [pid]), pid)
    assert cell.status == "unchanged" and [f.kind for f in cell.findings] == ["input-mutated"], cell
    assert "producer_name" in cell.findings[0].message


def _scaled(value: float = 0.5) -> onnx.ModelProto:
    """x * k with k a Constant node whose value tensor has no name."""
    k = helper.make_node("Constant", [], ["k"], value=helper.make_tensor("", TensorProto.FLOAT, [], [value]))
    g = helper.make_graph(
        [k, helper.make_node("Mul", ["x", "k"], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 3])],
    )
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)


def _unnamed(model: onnx.ModelProto) -> onnx.ModelProto:
    out = onnx.ModelProto()
    out.CopyFrom(model)
    for n in out.graph.node:
        for a in n.attribute:
            if a.HasField("t"):
                a.t.name = ""
    return out


@pytest.mark.parametrize(
    ("edit", "reported"),
    [("name", False), ("value", True)],
)
def test_only_a_changed_attribute_tensor_name_is_not_an_input_mutation(registered, edit, reported):
    """Naming a Constant's value tensor in the caller's model (what onnxscript 0.7.2 and onnxslim
    0.1.98 do) changes nothing the model computes; changing the value does."""

    def touches_constant(model):
        out = onnx.ModelProto()
        out.CopyFrom(model)
        t = model.graph.node[0].attribute[0].t
        if edit == "name":
            t.name = "k"
        else:
            t.float_data[0] = 2.0
        return out

    pid = f"test:touches-constant-{edit}"
    registered(FunctionAdapter(pid, touches_constant, optimizes=False))
    cell = _cell(check_model(_scaled(), [pid], isolation=False), pid)
    assert [f.kind for f in cell.findings if f.kind == "input-mutated"] == (["input-mutated"] if reported else []), cell
    if reported:
        assert "graph.node at #0 'Constant'" in cell.findings[0].message


def test_the_real_onnxscript_optimizer_is_judged_by_what_it_does_to_its_input():
    """onnxscript 0.7.2's optimizer names the value tensor of a Constant node in the caller's
    model (``t.name = "k"``), which is not an input mutation; whatever else the installed version
    changes in its input, passcheck reports."""
    import onnxscript.optimizer

    model = _scaled()
    probe = onnx.ModelProto()
    probe.CopyFrom(model)
    onnxscript.optimizer.optimize(probe)
    mutates = _unnamed(probe) != _unnamed(model)
    cell = _cell(check_model(model, ["onnxscript:optimize"]), "onnxscript:optimize")
    kinds = [f.kind for f in cell.findings]
    assert ("input-mutated" in kinds) == mutates, (mutates, cell.findings)
