"""A tiny third-party package shipping passcheck pass adapters through the ``passcheck.passes``
entry-point group (declared in its dist-info's entry_points.txt). Used by test_plugins.py."""

from __future__ import annotations

import onnx

from passcheck.passes import PassAdapter


class DropValueInfo(PassAdapter):
    """``demo:drop-value-info``: a correct pass (clears graph.value_info on a copy)."""

    id = "demo:drop-value-info"
    tools = ("onnx",)
    doc = "demo plugin: clears graph.value_info"

    def apply(self, model, workdir):
        out = onnx.ModelProto()
        out.CopyFrom(model)
        del out.graph.value_info[:]
        return out


class SwapNegForRelu(PassAdapter):
    """``demo:wrong``: a planted bug (every Neg becomes Relu)."""

    id = "demo:wrong"
    optimizes = True
    doc = "demo plugin: replaces Neg with Relu (wrong on purpose)"

    def apply(self, model, workdir):
        out = onnx.ModelProto()
        out.CopyFrom(model)  # the model given must stay unchanged (else: input-mutated)
        for node in out.graph.node:
            if node.op_type == "Neg":
                node.op_type = "Relu"
        return out


def both():
    return [SwapNegForRelu()]


def broken():
    raise ImportError("the demo's tool is missing")
