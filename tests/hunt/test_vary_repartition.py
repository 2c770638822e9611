"""``vary:int-repartition`` (round 19e, M398): a Split's static ``split`` sizes with one unit moved between its
first and last parts (Operators.md Split-13/18: any partition summing to the axis's dim). The neighbour passes the
full checker and runs; a pass that reads the part lengths as equal (offsets ``i * split[0]``) is right on the equal
base and wrong on the neighbour."""

from __future__ import annotations

import random

import numpy as np
import onnx
import onnxruntime as ort
import pytest

from passcheck.api import check_model
from passcheck.hunt import variation

SRC = """<ir_version: 8, opset_import: ["" : 13]>
g (float[2, 6] x) => (float[2, 2] a, float[2, 2] b, float[2, 2] c) {
  s = Constant <value = int64[3] {2, 2, 2}> ()
  a, b, c = Split <axis = 1> (x, s)
}"""
PLANTED = "planted:split-equal-offsets"


def _split_equal_offsets(model: onnx.ModelProto) -> onnx.ModelProto:
    """Each Split with a constant ``split`` → one Slice per part at offset ``i * split[0]`` (the parts read as
    equal), ends ``offset + split[i]``."""
    g = model.graph
    consts = {n.output[0]: onnx.numpy_helper.to_array(n.attribute[0].t) for n in g.node if n.op_type == "Constant"}
    out = []
    for n in g.node:
        if n.op_type != "Split":
            out.append(n)
            continue
        sizes = [int(v) for v in consts[n.input[1]]]
        axis = next(a.i for a in n.attribute if a.name == "axis")
        for i, y in enumerate(n.output):
            lo = i * sizes[0]
            names = [f"{y}_{k}" for k in ("st", "en", "ax")]
            for name, v in zip(names, (lo, lo + sizes[i], axis)):
                out.append(
                    onnx.helper.make_node("Constant", [], [name], value=onnx.helper.make_tensor(name, 7, [1], [v]))
                )
            out.append(onnx.helper.make_node("Slice", [n.input[0], *names], [y]))
    del g.node[:]
    g.node.extend(out)
    return model


@pytest.fixture(scope="module", autouse=True)
def _planted():
    from passcheck.passes import FunctionAdapter, known_pass_ids, register_pass

    if PLANTED not in known_pass_ids():
        register_pass(FunctionAdapter(PLANTED, _split_equal_offsets, doc="test pass: Split parts read as equal"))


def _annotate(model: onnx.ModelProto) -> None:
    """The outputs' annotations of the moved parts (the hunt writes what onnx shape inference infers)."""
    for v, width in zip(model.graph.output, (3, 2, 1)):
        v.type.tensor_type.shape.dim[1].dim_value = width


def _form(model: onnx.ModelProto) -> str:
    forms = [f for f in variation.offered(model) if "int-repartition" in f]
    assert len(forms) == 1, sorted(variation.offered(model))
    return forms[0]


def test_the_split_point_moves_and_the_neighbour_is_valid():
    base = onnx.parser.parse_model(SRC)
    built = variation.build(base, _form(base))
    assert built is not None
    neighbour, _ = built
    (const,) = [n for n in neighbour.graph.node if n.op_type == "Constant"]
    assert onnx.numpy_helper.to_array(const.attribute[0].t).tolist() == [3, 2, 1]
    _annotate(neighbour)
    onnx.checker.check_model(neighbour, full_check=True)
    x = np.arange(12, dtype=np.float32).reshape(2, 6)
    got = ort.InferenceSession(neighbour.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})
    assert [o.shape for o in got] == [(2, 3), (2, 2), (2, 1)]
    assert "int-repartition" in " ".join(variation.neighbours(base, random.Random(0)))


def test_no_neighbour_where_no_part_can_give_a_unit_or_the_constant_is_no_split():
    ones = onnx.parser.parse_model(SRC.replace("{2, 2, 2}", "{1, 4, 1}").replace("float[2, 2] b", "float[2, 4] b"))
    assert not [f for f in variation.offered(ones) if "int-repartition" in f]
    other = onnx.parser.parse_model(
        """<ir_version: 8, opset_import: ["" : 13]>
        g (float[2, 6] x) => (float[2, 6] y) { s = Constant <value = int64[2] {2, 6}> () y = Reshape(x, s) }"""
    )
    assert not [f for f in variation.offered(other) if "int-repartition" in f]


@pytest.mark.parametrize("moved", [False, True])
def test_a_pass_reading_the_parts_as_equal_is_wrong_on_the_neighbour_only(moved):
    base = onnx.parser.parse_model(SRC)
    model = variation.build(base, _form(base))[0] if moved else base
    if moved:
        _annotate(model)
    report = check_model(model, [PLANTED], isolation=False)
    (cell,) = [c for c in report.cells if c.pass_id == PLANTED]
    assert bool(cell.findings) is moved, [(f.oracle, f.kind, f.message[:120]) for f in cell.findings]
