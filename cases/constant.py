"""constant/*: the same int64 tensor as ``Constant(value_ints)``, ``Constant(value)`` or an
initializer, feeding Pad's ``pads`` (seed 003, §3).

Operators.md Constant (since opset 12): exactly one of ``value``, ``value_float(s)``,
``value_int(s)``, ``value_string(s)``, ``sparse_value`` is set; ``value_ints`` produces a 1-D int64
tensor. Pad (opset ≥ 11) takes ``pads`` as a 1-D int64 input of length 2 × rank. onnx before 1.21
fails shape inference on the ``value_ints`` form.
"""

from __future__ import annotations

import numpy as np
import onnx.helper

from passcheck.cases import Case, Form, register
from passcheck.cases.builders import FLOAT, model, node, tensor, vi

PADS = [0, 1, 2, 0, 1, 2]  # begin/end for axes 0, 1, 2 of x: [N, 3, 4]
PASSES = (
    "ort:disabled",
    "ort:basic",
    "ort:extended",
    "onnxscript:optimize",
    "onnx:infer-shapes",
    "onnx:infer-shapes-strict",
    "onnx:infer-shapes-data-prop",
    "ort:symbolic-shape-infer",
)


def _build(opset: int, spelling: str):
    def build():
        nodes, inits = [], []
        if spelling == "initializer":
            inits.append(tensor("pads", np.array(PADS, np.int64)))
        elif spelling == "value-tensor":
            nodes.append(
                node("Constant", [], ["pads"], name="pads_const", value=tensor("pads_value", np.array(PADS, np.int64)))
            )
        else:
            nodes.append(onnx.helper.make_node("Constant", [], ["pads"], name="pads_const", value_ints=PADS))
        nodes.append(node("Pad", ["x", "pads"], ["y"], name="pad", mode="constant"))
        return model(
            nodes, [vi("x", FLOAT, ["N", 3, 4])], [vi("y", FLOAT, ["N", 5, 8])], opset=opset, initializers=inits
        )

    return build


for _opset in (17, 21):
    register(
        Case(
            id=f"constant/pad-pads-opset{_opset}",
            forms={
                "common": Form(_build(_opset, "initializer")),
                "value-tensor": Form(_build(_opset, "value-tensor"), "pads from Constant(value=<int64 tensor>)"),
                "value-ints": Form(_build(_opset, "value-ints"), "pads from Constant(value_ints=[…])"),
            },
            doc=f"""Pad of x: [N, 3, 4] by pads {PADS} (opset {_opset}); the pads tensor spelled three ways.

Uncommon: Constant(value_ints) and Constant(value) instead of an initializer (Operators.md Constant,
opset 12+). onnx < 1.21 rejects value_ints as Pad's pads in shape inference (seed 003, §3).""",
            opset=_opset,
            bindings=({"N": 1}, {"N": 3}),
            passes=PASSES,
            tags=frozenset({"constant", "seed", "shape-inference"}),
        )
    )
