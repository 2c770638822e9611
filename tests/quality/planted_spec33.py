"""Planted passes that mishandle a spelling only the reduce_squeeze / scalar_operand rewrites produce:
each is right on the model as written, and its docstring names the freedom and the guard the real
pass has (the tests never name the rewrite: ``check --mutations`` picks it by default)."""

from __future__ import annotations

import numpy as np
import onnx

from passcheck.cases.builders import parse, tensor

from .planted_freedoms import _attr, _static

REDUCES = {"ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1", "ReduceL2"}


# --- 1. Squeeze after a Reduce dropped, keepdims read with the wrong default (keepdims-squeeze) -----


def reduce_mean() -> onnx.ModelProto:
    return parse(
        """g (float[2, 3, 4] x) => (float[2, 4] y) {
        y = ReduceMean<keepdims = 0>(x, ax1)
    }""",
        opset=18,
        initializers=[tensor("ax1", np.array([1], np.int64))],
    )


def drop_squeeze_after_reduce(model: onnx.ModelProto) -> onnx.ModelProto:
    """Removes a Squeeze that reads a Reduce*, as if the reduction had already dropped its axes: a
    missing ``keepdims`` is read as 0. Freedom: the same reduction may be keepdims=1 (the schema default,
    Reduce*-1…18) followed by Squeeze; onnxscript's and onnxruntime's rules read keepdims with default 1."""
    g = model.graph
    producer = {o: n for n in g.node for o in n.output}
    dropped = set()
    for n in g.node:
        r = producer.get(n.input[0]) if n.op_type == "Squeeze" else None
        if r is not None and r.op_type in REDUCES and _attr(r, "keepdims", 0) == 0:
            r.output[0] = n.output[0]
            dropped.add(id(n))
    kept = [n for n in g.node if id(n) not in dropped]
    del g.node[:]
    g.node.extend(kept)
    return model


# --- 2. A one-element constant indexed as a vector (operand-ones-as-scalar) --------------------------


def add_zero() -> onnx.ModelProto:
    return parse(
        """g (float[2, 3] x) => (float[2, 3] y) {
        a = Add(x, z)
        y = Relu(a)
    }""",
        opset=13,
        initializers=[tensor("z", np.array([0.0], np.float32))],
    )


def remove_add_zero_indexing(model: onnx.ModelProto) -> onnx.ModelProto:
    """Removes Add(x, c) for a one-element constant c equal to 0, reading the element as ``c[0]``, which
    fails on a scalar. Freedom: a one-element operand may be a scalar (shape []) when x keeps the output
    rank (Broadcasting.md); onnxscript's rules read constants through their shape-agnostic scalar helper."""
    static, g = _static(model), model.graph
    readers = {x: n for n in g.node for x in n.input}
    for n in list(g.node):
        if n.op_type == "Add" and n.input[1] in static and static[n.input[1]].size == 1:
            if static[n.input[1]][0] == 0 and n.output[0] in readers:
                readers[n.output[0]].input[list(readers[n.output[0]].input).index(n.output[0])] = n.input[0]
                g.node.remove(n)
    return model
