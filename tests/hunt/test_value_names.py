"""The hunt's names (:mod:`passcheck.hunt.value_names`): one public home for the fresh-name rule the structural
variations share, and no hunt module reaching into another's private names."""

from __future__ import annotations

import ast
from pathlib import Path

from onnx import TensorProto, helper

from passcheck.hunt.value_names import fresh, graph_names

HUNT = Path(__file__).resolve().parents[2] / "passcheck" / "hunt"


def _model():
    w = helper.make_tensor("w", TensorProto.FLOAT, [1], [2.0])
    node = helper.make_node("Mul", ["x", "w"], ["y"], name="mul")
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1])
    t = helper.make_tensor_value_info("t", TensorProto.FLOAT, [1])
    return helper.make_model(helper.make_graph([node], "g", [x], [y], [w], value_info=[t]))


def test_graph_names_holds_every_name_of_the_main_graph_and_fresh_picks_one_outside():
    taken = graph_names(_model())
    assert taken == {"x", "w", "y", "t", "mul"}
    assert fresh("y", taken) == "y1" and fresh("y", taken) == "y2" and fresh("z", taken) == "z"
    assert {"y1", "y2", "z"} <= taken  # each one picked is taken from then on


def test_no_hunt_module_imports_a_private_name_of_another():
    private = []
    for path in sorted(HUNT.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("passcheck.hunt."):
                private += [
                    f"{path.name}: {node.module}.{a.name}"
                    for a in node.names
                    if a.name.startswith("_") and not a.name.startswith("__")
                ]
    assert private == []
