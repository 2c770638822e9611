"""``reshape-shared-implicit`` (:func:`passcheck.mutations.reshape_dims.reshape_shared_implicit`): a shape constant
read by Reshapes alone respelled in place, under its own name, so every reader keeps reading one value (IR.md
"Graphs") and each resolves its 0 / -1 to its own output. Judged with onnx shape inference and onnxruntime runs,
alone and after the twin neighbour (:mod:`passcheck.hunt.vary_twin`), whose copies share every constant."""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

from passcheck.mutations.reshape_dims import reshape_shared_implicit


def _model(inputs: dict[str, list], shape: list[int], extra_reader: bool = False) -> onnx.ModelProto:
    """Each input reshaped by one Reshape reading the one initializer ``sh``; ``extra_reader``: an Identity reads it
    too (a graph output)."""
    ins = [helper.make_tensor_value_info(k, TensorProto.FLOAT, v) for k, v in inputs.items()]
    nodes = [helper.make_node("Reshape", [k, "sh"], [f"y_{k}"], name=f"r_{k}") for k in inputs]
    outs = [helper.make_tensor_value_info(f"y_{k}", TensorProto.FLOAT, None) for k in inputs]
    if extra_reader:
        nodes.append(helper.make_node("Identity", ["sh"], ["sh_out"]))
        outs.append(helper.make_tensor_value_info("sh_out", TensorProto.INT64, None))
    graph = helper.make_graph(nodes, "g", ins, outs, [numpy_helper.from_array(np.array(shape, np.int64), "sh")])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)])


def _outputs(model: onnx.ModelProto) -> tuple[dict, list]:
    """(output name → inferred dims, onnxruntime's outputs on feeds 0, 1, 2 …)."""
    inferred = onnx.shape_inference.infer_shapes(model, strict_mode=True).graph.output
    dims = {o.name: [d.dim_value for d in o.type.tensor_type.shape.dim] for o in inferred}
    feeds = {
        i.name: np.arange(np.prod([d.dim_value for d in i.type.tensor_type.shape.dim]), dtype=np.float32).reshape(
            [d.dim_value for d in i.type.tensor_type.shape.dim]
        )
        for i in model.graph.input
    }
    return dims, ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)


def _sh(model: onnx.ModelProto) -> list[int]:
    return numpy_helper.to_array(next(t for t in model.graph.initializer if t.name == "sh")).tolist()


def test_one_spelling_every_reader_accepts_written_in_place():
    model = _model({"a": [2, 8], "b": [4, 4]}, [2, 2, 4])
    before = _outputs(model)
    out = onnx.ModelProto()
    out.CopyFrom(model)
    assert reshape_shared_implicit(out) == ["sh"]
    assert _sh(out) == [2, 2, -1]  # a's dim 0 is 2, b's is 4: no entry both copy
    assert [n.input[1] for n in out.graph.node] == ["sh", "sh"] and len(out.graph.initializer) == 1
    after = _outputs(out)
    assert after[0] == before[0] == {"y_a": [2, 2, 4], "y_b": [2, 2, 4]}
    for x, y in zip(after[1], before[1], strict=True):
        np.testing.assert_array_equal(x, y)


def test_a_dim_every_reader_copies_is_written_0():
    out = _model({"a": [2, 8], "b": [2, 4, 2]}, [2, 8])
    assert reshape_shared_implicit(out) == ["sh"] and _sh(out) == [0, -1]
    assert _outputs(out)[0] == {"y_a": [2, 8], "y_b": [2, 8]}


def test_a_constant_another_op_reads_is_no_site():
    assert reshape_shared_implicit(_model({"a": [2, 8], "b": [4, 4]}, [2, 2, 4], extra_reader=True)) == []


def test_after_the_twin_both_copies_keep_reading_one_respelled_constant():
    from passcheck.hunt import variation

    base = _model({"a": [2, 8]}, [2, -1])
    twin, _ = variation.build(base, "vary:twin@a=1")  # a's copy is [2, 16]
    assert sorted(n.input[1] for n in twin.graph.node if n.op_type == "Reshape") == ["sh", "sh"]
    before = _outputs(twin)
    assert reshape_shared_implicit(twin) == ["sh"] and _sh(twin) == [0, -1]
    after = _outputs(twin)
    assert after[0] == before[0] and list(after[0].values()) == [[2, 8], [2, 16]]
    for x, y in zip(after[1], before[1], strict=True):
        np.testing.assert_array_equal(x, y)
