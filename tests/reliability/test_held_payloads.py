"""Pass outputs read in passcheck's process hold their big initializer payloads once per content
(:mod:`passcheck.execution.payloads`), not once per form (issue 28: README's ResNet-50 job held every
form's ``ort:basic`` output, ~100 MB of folded weights each, until the pass was judged: 10.9 GB), and
the verdicts are those of whole outputs."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from passcheck.engine import Subject, evaluate
from passcheck.execution import payloads
from passcheck.passes.isolation import IsolatedExecutor
from passcheck.runtime import default_bindings
from tests._inproc import cli

CONV2D = Path(onnx.__file__).parent / "backend/test/data/pytorch-converted/test_Conv2d/model.onnx"
#: elements of the constant ort:basic folds into one initializer (2 MiB of float32)
FOLDED = 1 << 19


def _folding_model(name: str) -> onnx.ModelProto:
    """y = x + ConstantOfShape([FOLDED]) * 2: ort:basic folds the constant branch into a 2 MiB initializer.
    ``name``: the graph name (forms that differ in bytes, not in what the pass writes)."""
    shape = numpy_helper.from_array(np.array([FOLDED], np.int64), "shape")
    two = numpy_helper.from_array(np.array([2.0], np.float32), "two")
    nodes = [
        helper.make_node(
            "ConstantOfShape", ["shape"], ["c"], value=helper.make_tensor("v", TensorProto.FLOAT, [1], [1.5])
        ),
        helper.make_node("Mul", ["c", "two"], ["w"]),
        helper.make_node("Add", ["x", "w"], ["y"]),
    ]
    graph = helper.make_graph(
        nodes,
        name,
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [FOLDED])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [FOLDED])],
        [shape, two],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def test_hollow_then_whole_gives_the_same_bytes_and_equal_payloads_are_held_once(monkeypatch):
    monkeypatch.setattr(payloads, "MIN_BYTES", 1)
    big = np.arange(4096, dtype=np.float32)
    m = helper.make_model(
        helper.make_graph(
            [helper.make_node("Add", ["a", "b"], ["y"])],
            "g",
            [],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4096])],
            [
                numpy_helper.from_array(big, "a"),
                numpy_helper.from_array(big, "b"),
                helper.make_tensor("s", 1, [1], [1.0]),
            ],
        )
    )
    before, held = m.SerializeToString(), payloads.held_bytes()
    hollowed, keys = payloads.hollow(onnx.ModelProto.FromString(before))
    assert len(keys) == 2 and len(set(keys)) == 1  # two tensors, one content
    assert payloads.held_bytes() - held == big.nbytes
    assert hollowed.ByteSize() < big.nbytes and payloads.is_hollow(hollowed)
    with pytest.raises(onnx.checker.ValidationError):  # a reader that skips whole() fails, it does not read nothing
        numpy_helper.to_array(hollowed.graph.initializer[0])
    assert payloads.whole(hollowed).SerializeToString() == before
    np.testing.assert_array_equal(numpy_helper.to_array(payloads.whole_tensor(hollowed.graph.initializer[1])), big)
    payloads.release(keys)
    assert payloads.held_bytes() == held


def test_outputs_of_many_forms_hold_one_copy_of_their_folded_weights(tmp_path):
    """Four forms whose ort:basic outputs fold the same 2 MiB constant: while the pass is judged, the
    outputs and the store together hold less than two copies (one per form before: 8 MiB), and the store is
    emptied when the subject is done."""
    forms = {f"form{i}": _folding_model(f"g{i}") for i in range(4)}
    held_during: list[int] = []

    def record(judged):
        outputs = [r.outcome.model for r in judged.cells.runs if r.pass_id != "input" and r.outcome.ok]
        if outputs:
            held_during.append(sum(m.ByteSize() for m in outputs) + payloads.held_bytes())

    first = forms["form0"]
    subject = Subject(id="model/fold", forms=forms, bindings=default_bindings(first, None))
    held = payloads.held_bytes()
    with IsolatedExecutor() as ex:
        cells = evaluate(subject, ["ort:basic"], executor=ex, record=record)
    assert {c.status for c in cells if c.pass_id == "ort:basic"} == {"changed"}
    assert held_during and held_during[0] < 2 * FOLDED * 4, held_during
    assert payloads.held_bytes() == held


def _normalized(value):
    if isinstance(value, dict):
        return {k: _normalized(v) for k, v in value.items() if k not in {"seconds", "versions", "environments"}}
    return [_normalized(v) for v in value] if isinstance(value, list) else value


def _reshape_model(path: Path) -> Path:
    """y = Reshape(x, [6, 4]) + w, its shape and ``w`` initializers (constants the oracles' shape
    inference and spec rules read) saved at ``path``."""
    graph = helper.make_graph(
        [helper.make_node("Reshape", ["x", "shape"], ["r"]), helper.make_node("Add", ["r", "w"], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3, 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [6, 4])],
        [
            numpy_helper.from_array(np.array([6, 4], np.int64), "shape"),
            numpy_helper.from_array(np.arange(4, dtype=np.float32), "w"),
        ],
    )
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), path)
    return path


def _report(tmp_path: Path, model: Path, name: str) -> dict:
    out = tmp_path / f"{name}.json"
    p = cli("check", model, "--mutations", "--pass", "ort:basic", "--json", out, "-q", "--progress", "none")
    assert p.returncode in (0, 1), p.stderr[-2000:]
    return _normalized(json.loads(out.read_text()))


@pytest.mark.parametrize("model", ["conv2d", "reshape"])
def test_hollowed_outputs_give_the_same_report(tmp_path, monkeypatch, model):
    """README's job with every initializer payload of every pass output hollowed
    (:data:`~passcheck.execution.payloads.MIN_BYTES` 1): every oracle reads the hollowed outputs, and the
    report is the one of whole outputs, cell by cell: on the golden's model (``tests/cli/test_check_golden.py``)
    and on a Reshape whose shape constant shape inference reads."""
    path = CONV2D if model == "conv2d" else _reshape_model(tmp_path / "reshape.onnx")
    monkeypatch.setattr(payloads, "MIN_BYTES", 1 << 40)
    want = _report(tmp_path, path, "whole")
    monkeypatch.setattr(payloads, "MIN_BYTES", 1)
    hollowed: list[int] = []
    real = payloads.hollow

    def counting(m):
        out, keys = real(m)
        hollowed.append(len(keys))
        return out, keys

    monkeypatch.setattr(payloads, "hollow", counting)
    got = _report(tmp_path, path, "hollowed")
    assert sum(hollowed) > 0  # the outputs were hollowed
    cells = {(c["case"], c["form"], c["pass_id"]): c for c in got["results"] if c.get("type") == "cell"}
    for c in want["results"]:
        if c.get("type") == "cell":
            assert cells[(c["case"], c["form"], c["pass_id"])] == c
    assert got == want
