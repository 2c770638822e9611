"""The one constant reader (:mod:`passcheck.runtime.constants`) and the three places that read through it: the
parity oracle's cropping Pads, the conformance oracle's constant inputs, the hunt's small constants."""

from __future__ import annotations

import numpy as np
from onnx import TensorProto, helper, numpy_helper

from passcheck.hunt.graph_values import constants as hunt_constants
from passcheck.runtime.constants import Constants, constant_attribute, sources, value_of


def _graph():
    """Every kind of value a reader must sort: a weight, a weight a graph input overrides (a default), a Constant
    of each numeric attribute, a sparse Constant, a Constant of another domain."""
    sparse = helper.make_sparse_tensor(
        numpy_helper.from_array(np.array([1.0], np.float32), "v"), numpy_helper.from_array(np.array([0]), "i"), [2]
    )
    nodes = [
        helper.make_node("Constant", [], ["t"], value=numpy_helper.from_array(np.array([1, -1], np.int32))),
        helper.make_node("Constant", [], ["f"], value_float=0.1),
        helper.make_node("Constant", [], ["fs"], value_floats=[0.5, 2.0]),
        helper.make_node("Constant", [], ["i"], value_int=3),
        helper.make_node("Constant", [], ["is"], value_ints=[0, -1]),
        helper.make_node("Constant", [], ["sp"], sparse_value=sparse),
        helper.make_node("Constant", [], ["custom"], domain="my.domain", value_int=7),
        helper.make_node("Add", ["x", "w"], ["y"]),
    ]
    inits = [numpy_helper.from_array(np.array([2.0], np.float32), n) for n in ("w", "d")]
    x, d = (helper.make_tensor_value_info(n, TensorProto.FLOAT, [1]) for n in ("x", "d"))
    return helper.make_graph(nodes, "g", [x, d], [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1])], inits)


def test_what_is_a_constant_and_its_value():
    g = _graph()
    assert list(sources(g)) == ["w", "t", "f", "fs", "i", "is"]  # not the default d, the sparse or custom ones
    c = Constants(g)
    assert c["t"].dtype == np.int32 and c["t"].tolist() == [1, -1]
    assert c["f"].dtype == np.float32 and c["f"] == np.float32(0.1) and c["f"].shape == ()
    assert c["fs"].dtype == np.float32 and c["fs"].tolist() == [0.5, 2.0]
    assert c["i"].dtype == np.int64 and c["i"].shape == () and c["is"].dtype == np.int64
    assert "d" not in c and "sp" not in c and "custom" not in c and c.get("y") is None
    assert constant_attribute(g.node[-1]) is None and value_of(g.initializer[0]).tolist() == [2.0]


def test_the_hunt_reads_the_same_constants():
    g = _graph()
    model = helper.make_model(g)
    ours, hunt = Constants(g), hunt_constants(model)
    assert list(hunt) == list(ours)
    for name in ours:
        assert hunt[name].dtype == ours[name].dtype and hunt[name].tolist() == ours[name].tolist()


def _pad_model(pads_node):
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, 4, 4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    w = numpy_helper.from_array(np.ones((1, 1, 1, 1), np.float32), "W")
    nodes = [pads_node, helper.make_node("Pad", ["x", "pads"], ["p"]), helper.make_node("Conv", ["p", "W"], ["y"])]
    return helper.make_model(helper.make_graph(nodes, "g", [x], [y], [w]), opset_imports=[helper.make_opsetid("", 13)])


def test_parity_reads_a_cropping_pads_given_as_constant_value_ints():
    """A Pad whose ``pads`` is a Constant(value_ints) with a negative entry crops (Operators.md Pad-11+): parity's
    _crops counts it out, as it does the same pads given as a tensor."""
    from types import SimpleNamespace

    from passcheck.oracles.parity import _crops

    crop = [0, 0, 0, 0, 0, 0, 0, -1]
    for node in (
        helper.make_node("Constant", [], ["pads"], value_ints=crop),
        helper.make_node("Constant", [], ["pads"], value=numpy_helper.from_array(np.array(crop, np.int64))),
    ):
        assert _crops(["Pad"], SimpleNamespace(output=_pad_model(node))) == {"Pad"}
    grow = helper.make_node("Constant", [], ["pads"], value_ints=[0, 0, 0, 0, 0, 0, 0, 1])
    assert _crops(["Pad"], SimpleNamespace(output=_pad_model(grow))) == set()


def test_conformance_reads_constant_inputs_of_each_spelling():
    """Conformance's pad-length rule (Operators.md Pad: pads hold 2 x rank values) reads Pad's ``pads`` input: given
    as Constant(value_ints) or as a tensor, 6 values for a rank-4 input break it, 8 do not; never undecided."""
    from passcheck.oracles.conformance import evaluate

    def spellings(pads):
        yield helper.make_node("Constant", [], ["pads"], value_ints=pads)
        yield helper.make_node("Constant", [], ["pads"], value=numpy_helper.from_array(np.array(pads, np.int64)))

    for pads, broken in (([0, 1, 1, 0, 1, 1], {"pad-length"}), ([0, 0, 1, 1, 0, 0, 1, 1], set())):
        for node in spellings(pads):
            ev = evaluate(_pad_model(node))
            assert {v.rule for v in ev.violations} == broken, ev
            assert not any("pads" in why for why in ev.undecided.values()), ev
