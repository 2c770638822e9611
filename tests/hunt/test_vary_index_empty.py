"""``vary:shape-index-empty`` (M253): an index constant of Gather / GatherElements / GatherND emptied in its first dim
(Operators.md: the output's shape is made of ``indices``'s; IR.md allows a zero-size dim). The neighbour is checked
with the real tools: onnx's checker and shape inference, onnxruntime and the installed reference evaluator agree on
the output's shape, which keeps its rank."""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator

from passcheck.hunt import variation

X = np.arange(24, dtype=np.float32).reshape(2, 3, 4)


def _model(op: str, idx: np.ndarray, also_add: bool = False, **attrs) -> onnx.ModelProto:
    """``y = op(x, idx)``, ``x: float[2, 3, 4]``, ``idx`` an initializer; ``also_add``: ``idx`` read by an Add too."""
    nodes = [helper.make_node(op, ["x", "idx"], ["y"], **attrs)]
    outs = [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)]
    if also_add:
        nodes.append(helper.make_node("Add", ["idx", "idx"], ["z"]))
        outs.append(helper.make_tensor_value_info("z", TensorProto.INT64, None))
    g = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3, 4])],
        outs,
        [numpy_helper.from_array(idx, "idx")],
    )
    return onnx.shape_inference.infer_shapes(
        helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], ir_version=8)
    )


def _shapes(m: onnx.ModelProto) -> tuple:
    """(inferred, onnxruntime's, the reference evaluator's) shape of ``y``."""
    onnx.checker.check_model(m, full_check=True)
    inferred = onnx.shape_inference.infer_shapes(m, strict_mode=True).graph.output[0].type.tensor_type.shape
    dims = tuple(d.dim_value for d in inferred.dim)
    sess = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
    return dims, sess.run(["y"], {"x": X})[0].shape, ReferenceEvaluator(m).run(["y"], {"x": X})[0].shape


def test_each_gather_s_index_is_emptied_and_the_output_keeps_its_rank():
    cases = [
        (_model("Gather", np.array([[0, 2]], np.int64), axis=1), (2, 0, 2, 4)),
        (_model("GatherElements", np.zeros((2, 1, 4), np.int64), axis=1), (0, 1, 4)),
        (_model("GatherND", np.array([[0, 1], [1, 2]], np.int64)), (0, 4)),
    ]
    for base, want in cases:
        form = "vary:shape-index-empty@idx"
        assert form in variation.offered(base)
        built = variation.build(base, form)
        assert built is not None
        neighbour, _ = built
        idx = numpy_helper.to_array(neighbour.graph.initializer[0])
        assert idx.shape[0] == 0 and idx.dtype == np.int64
        inferred, ran, ref = _shapes(neighbour)
        assert inferred == ran == ref == want
        y = next(v for v in neighbour.graph.output if v.name == "y")
        assert [d.dim_value for d in y.type.tensor_type.shape.dim] == list(want)  # annotations refreshed


def test_no_site_where_emptying_changes_a_rank_or_a_reader_needs_an_element():
    """A scalar index (emptying it adds a dim), an index an Add reads too, GatherND with ``batch_dims`` 1 (its batch
    dims must equal the data's) or a rank-1 GatherND index (its last dim is the tuple's length) offer none."""
    for base in (
        _model("Gather", np.array(1, np.int64), axis=0),
        _model("Gather", np.array([0, 1], np.int64), also_add=True),
        _model("GatherND", np.array([[0], [1]], np.int64), batch_dims=1),
        _model("GatherND", np.array([0, 1], np.int64)),
    ):
        assert not {f for f in variation.offered(base) if "shape-index-empty" in f}
        assert variation.build(base, "vary:shape-index-empty@idx") is None


def _param_model(reader: str) -> onnx.ModelProto:
    """``s = Gather(Shape(x), idx)`` (``x: float[2, 3, 4]``, ``idx = [0]``) fed to ``reader`` as its parameter:
    ``Tile(x, Concat(s, [1, 1]))`` (``repeats`` must hold rank values) or ``Expand(x, Concat([1], s, [1, 1]))`` (a
    shape of any length broadcasts)."""
    parts = {"Tile": (["s", "one1"], ["x", "p"]), "Expand": (["one", "s", "one1"], ["x", "p"])}[reader]
    nodes = [
        helper.make_node("Shape", ["x"], ["sh"]),
        helper.make_node("Gather", ["sh", "idx"], ["g"], axis=0),
        helper.make_node("Div", ["g", "g"], ["s"]),  # a value derived from the gathered one: 1
        helper.make_node("Concat", parts[0], ["p"], axis=0),
        helper.make_node(reader, parts[1], ["y"]),
    ]
    inits = [
        numpy_helper.from_array(np.array([0], np.int64), "idx"),
        numpy_helper.from_array(np.array([1], np.int64), "one"),
        numpy_helper.from_array(np.array([1, 1], np.int64), "one1"),
    ]
    g = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3, 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        inits,
    )
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], ir_version=8)


def test_no_site_where_a_reader_downstream_takes_the_value_as_a_parameter_its_schema_refuses_empty():
    """M294: Tile's ``repeats`` built from the gathered value: emptied, it holds 2 values for a rank-3 ``x``, which
    Tile's schema inference refuses and onnxruntime fails on, so the site is not offered; Expand's ``shape`` of any
    length is accepted by its schema and onnxruntime runs the emptied model, so that site stays."""
    tile, expand = _param_model("Tile"), _param_model("Expand")
    from passcheck.hunt import vary_index_empty as vie

    assert vie.refusing_reader(tile, "idx") == "Tile[1]"
    assert not {f for f in variation.offered(tile) if "shape-index-empty" in f}
    emptied = onnx.ModelProto()
    emptied.CopyFrom(tile)
    emptied.graph.initializer[0].CopyFrom(numpy_helper.from_array(np.zeros((0,), np.int64), "idx"))
    with pytest.raises(Exception, match="(?i)repeat"):  # the real runtime agrees with the schema
        ort.InferenceSession(emptied.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": X})

    assert vie.refusing_reader(expand, "idx") is None
    assert "vary:shape-index-empty@idx" in variation.offered(expand)
    neighbour, _ = variation.build(expand, "vary:shape-index-empty@idx")
    got = ort.InferenceSession(neighbour.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": X})
    assert got[0].shape == (2, 3, 4)  # shape [1, 1, 1] broadcast with x


def test_which_parameters_accept_an_empty_tensor_is_read_from_the_schemas():
    from passcheck.hunt.vary_index_empty import accepts_empty

    refuse = [("Pad", 21, 1), ("Tile", 13, 1), ("TopK", 11, 1), ("Split", 18, 1)]
    accept = [("Reshape", 21, 1), ("Expand", 13, 1), ("Squeeze", 13, 1), ("Unsqueeze", 13, 1)]
    assert [accepts_empty(op, "", v, s) for op, v, s in refuse] == [False] * 4
    assert [accepts_empty(op, "", v, s) for op, v, s in accept] == [True] * 4
