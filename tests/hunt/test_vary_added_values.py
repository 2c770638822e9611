"""An attribute value an op's version added is always offered as a neighbour (round 13b, M181): Resize-19 added
``coordinate_transformation_mode = "half_pixel_symmetric"``, Pad-19 ``mode = "wrap"`` (Operators.md; the domains of
``passcheck/oracles/spec_table.py``). A converter to opset 18 must refuse or rewrite exactly these; onnx 1.23.2's
``CompatibleAdapter`` for Resize / Pad 19 -> 18 only restamps the node (docs/found.md rows 873, 874), which the
conformance oracle sees on the neighbour with real conversion; before, the attribute kind's two-site sample left
the value out of most draws and a 2-minute converter hunt over the Resize-19 bases never met it."""

from __future__ import annotations

import random

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from passcheck.api import check_model
from passcheck.hunt import variation

HPS = "vary:attr-coordinate_transformation_mode@n0_Resize=half_pixel_symmetric"


def _resize(opset: int) -> onnx.ModelProto:
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, 2, 2])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 1, 4, 4])
    scales = numpy_helper.from_array(np.array([1, 1, 2, 2], np.float32), "scales")
    node = helper.make_node("Resize", ["x", "", "scales"], ["y"], mode="linear")
    graph = helper.make_graph([node], "g", [x], [y], [scales])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=9)


def test_the_values_a_version_added_are_read_from_the_spec_table():
    ctm = "coordinate_transformation_mode"
    assert variation._added("Resize", 19, ctm) == ("half_pixel_symmetric",)
    assert variation._added("Resize", 28, ctm) == ("half_pixel_symmetric",)  # Resize-19 is the op at opset 28
    assert variation._added("Resize", 13, ctm) == ()  # 13 dropped tf_half_pixel_for_nn, added none
    assert variation._added("Resize", 11, ctm) == ()  # no earlier range stated
    assert variation._added("Pad", 19, "mode") == ("wrap",)
    assert variation._added("Pad", 18, "mode") == ()


def test_an_added_value_is_offered_on_every_draw():
    model = _resize(19)
    for seed in range(12):
        assert HPS in variation.neighbours(model, random.Random(seed)), seed
    older = _resize(18)
    drawn = {f for s in range(12) for f in variation.neighbours(older, random.Random(s))}
    assert not any("half_pixel_symmetric" in f for f in drawn)


def test_the_neighbour_meets_the_restamping_converter():
    """Built and converted for real (onnx's converter one opset down, the conformance oracle on its output)."""
    built = variation.build(_resize(19), HPS)
    assert built is not None
    neighbour = built[0]
    onnx.checker.check_model(neighbour, full_check=True)
    report = check_model(neighbour, ["onnx:convert-opset-down"], allow_unavailable=True)
    (cell,) = [c for c in report.cells if c.pass_id == "onnx:convert-opset-down"]
    if cell.status == "unavailable":  # a converter that states the limit is right
        return
    spec = [f for f in cell.findings if f.kind == "spec-violation"]
    assert spec and "half_pixel_symmetric" in spec[0].message, (cell.status, cell.findings)
