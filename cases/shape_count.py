"""count/*: a count or size input written as a constant vs derived from the input's shape.

x is [N, 4, 6] (``symbolic``, N bound per run) or [2, 4, 6] (``static``); the count is dim 1 (4) or
dim 2 (6) of x, which are static either way, so every spelling yields the same value:
``Gather(Shape(x), i)`` with a scalar index (0-D result) or a 1-element 1-D index (1-D result),
positive or negative (Operators.md Gather: negative indices count from the back); ``Slice`` of
``Shape``; ``Shape(x, start, end)`` (Operators.md Shape, opset 15). Where the consumer wants the
other rank, ``Unsqueeze`` / ``Squeeze`` adapt it. Consumers (opset 18): TopK ``K`` (1-D, one
element), Tile ``repeats``, Expand and ConstantOfShape ``shape``, Range ``limit`` (0-D), OneHot
``depth`` (0-D), Resize ``sizes`` (with ``axes``, Resize-18), Slice ``ends``, Pad
``pads``.
"""

from __future__ import annotations

import numpy as np
import onnx

from passcheck.cases import Case, Form, register
from passcheck.cases.builders import FLOAT, INT64, model, node, tensor, vi
from passcheck.cases.opsets import opset_case

OPSET = 18
PASSES = (
    "ort:disabled",
    "ort:basic",
    "ort:extended",
    "ort:all",
    "onnxscript:optimize",
    "onnx:infer-shapes",
    "onnx:infer-shapes-data-prop",
    "ort:symbolic-shape-infer",
)
INPUTS = {"symbolic": ["N", 4, 6], "static": [2, 4, 6]}
DIMS = {1: 4, 2: 6}
#: form name → (spelling, whether the index is negative), common first.
SPELLINGS = {
    "common": ("constant", False),
    "gather": ("gather-0d", False),
    "gather-negative": ("gather-0d", True),
    "gather-1d": ("gather-1d", False),
    "gather-1d-negative": ("gather-1d", True),
    "slice": ("slice", False),
    "shape-start-end": ("shape-start-end", False),
}
FORM_DOCS = {
    "gather": "Gather(Shape(x), i): a 0-D index, a 0-D count",
    "gather-negative": "Gather(Shape(x), i - 3): a negative 0-D index",
    "gather-1d": "Gather(Shape(x), [i]): a 1-element 1-D index, a 1-D count",
    "gather-1d-negative": "Gather(Shape(x), [i - 3]): a negative 1-element 1-D index",
    "slice": "Slice(Shape(x), [i], [i + 1], [0])",
    "shape-start-end": "Shape(x, start=i, end=i + 1) (opset 15)",
}


def _count(spelling: str, negative: bool, axis: int, rank: int, out: str, nodes: list, inits: list) -> None:
    """Append the nodes / initializers giving ``out`` = dim ``axis`` of x, as a 0-D (``rank`` 0) or
    1-element 1-D (``rank`` 1) int64 tensor."""
    idx = axis - 3 if negative else axis
    got_rank = 0 if spelling in ("constant-0d", "gather-0d") else 1
    raw = out if got_rank == rank else out + "_raw"
    if spelling == "constant":
        inits.append(tensor(out, np.array(DIMS[axis] if rank == 0 else [DIMS[axis]], np.int64)))
        return
    if spelling == "gather-0d":
        inits.append(tensor(out + "_idx", np.array(idx, np.int64)))
        nodes += [node("Shape", ["x"], [out + "_shape"]), node("Gather", [out + "_shape", out + "_idx"], [raw], axis=0)]
    elif spelling == "gather-1d":
        inits.append(tensor(out + "_idx", np.array([idx], np.int64)))
        nodes += [node("Shape", ["x"], [out + "_shape"]), node("Gather", [out + "_shape", out + "_idx"], [raw], axis=0)]
    elif spelling == "slice":
        inits += [
            tensor(out + "_starts", [axis], np.int64),
            tensor(out + "_ends", [axis + 1], np.int64),
            tensor(out + "_axes", [0], np.int64),
        ]
        nodes += [
            node("Shape", ["x"], [out + "_shape"]),
            node("Slice", [out + "_shape", out + "_starts", out + "_ends", out + "_axes"], [raw]),
        ]
    else:
        nodes.append(node("Shape", ["x"], [raw], start=axis, end=axis + 1))
    if got_rank != rank:
        inits.append(tensor(out + "_zero", [0], np.int64))
        nodes.append(node("Squeeze" if rank == 0 else "Unsqueeze", [raw, out + "_zero"], [out]))


def _vector(parts, out: str, nodes: list, inits: list) -> None:
    """``out`` = Concat of constant int lists and 1-D value names, in order (a length-rank vector)."""
    names = []
    for i, p in enumerate(parts):
        if isinstance(p, str):
            names.append(p)
        else:
            inits.append(tensor(f"{out}_part{i}", np.array(p, np.int64)))
            names.append(f"{out}_part{i}")
    nodes.append(node("Concat", names, [out], axis=0))


def _body(op: str, spelling: str, negative: bool, nodes: list, inits: list, n):
    """Nodes computing ``op``'s graph outputs from x; returns the output ValueInfos."""

    def count(axis, rank, name="d"):
        _count(spelling, negative, axis, rank, name, nodes, inits)
        return name

    if op == "topk":
        nodes.append(node("TopK", ["x", count(1, 1)], ["y", "i"], axis=-1))
        return [vi("y", FLOAT, [n, 4, 4]), vi("i", INT64, [n, 4, 4])]
    if op == "tile":
        _vector([[1, 1], count(1, 1)], "repeats", nodes, inits)
        nodes.append(node("Tile", ["x", "repeats"], ["y"]))
        return [vi("y", FLOAT, [n, 4, 24])]
    if op == "expand":
        _vector([count(1, 1), [1, 1, 1]], "target", nodes, inits)
        nodes.append(node("Expand", ["x", "target"], ["y"]))
        return [vi("y", FLOAT, [4, n, 4, 6])]
    if op == "constant-of-shape":
        _vector([count(1, 1), [6]], "target", nodes, inits)
        nodes += [
            node("ConstantOfShape", ["target"], ["ones"], value=tensor("one", np.array([1.5], np.float32))),
            node("Add", ["x", "ones"], ["y"]),
        ]
        return [vi("y", FLOAT, [n, 4, 6])]
    if op == "range":
        inits += [tensor("start", np.array(0, np.int64)), tensor("delta", np.array(1, np.int64))]
        nodes += [
            node("Range", ["start", count(2, 0), "delta"], ["r"]),
            node("Cast", ["r"], ["rf"], to=onnx.TensorProto.FLOAT),
            node("Add", ["x", "rf"], ["y"]),
        ]
        return [vi("y", FLOAT, [n, 4, 6])]
    if op == "onehot":
        inits.append(tensor("onoff", np.array([0.0, 1.0], np.float32)))
        nodes += [
            node("ArgMax", ["x"], ["am"], axis=-1, keepdims=0),
            node("OneHot", ["am", count(2, 0), "onoff"], ["oh"], axis=-1),
            node("Mul", ["x", "oh"], ["y"]),
        ]
        return [vi("y", FLOAT, [n, 4, 6])]
    if op == "resize":
        nodes.append(node("Resize", ["x", "", "", count(1, 1)], ["y"], axes=[2], mode="nearest"))
        return [vi("y", FLOAT, [n, 4, 4])]
    if op == "slice":
        inits += [tensor("starts", [0], np.int64), tensor("axes", [2], np.int64)]
        nodes.append(node("Slice", ["x", "starts", count(1, 1), "axes"], ["y"]))
        return [vi("y", FLOAT, [n, 4, 4])]
    if op == "pad":
        _vector([[0, 0, 0, 0, 0], count(1, 1)], "pads", nodes, inits)
        nodes.append(node("Pad", ["x", "pads"], ["y"], mode="constant"))
        return [vi("y", FLOAT, [n, 4, 10])]
    raise ValueError(op)


def build(op: str, kind: str, form: str, opset: int = OPSET):
    """The ``form`` of ``count/<op>-<kind>`` at ``opset``."""
    spelling, negative = SPELLINGS[form]
    xshape = INPUTS[kind]
    nodes, inits = [], []
    outputs = _body(op, spelling, negative, nodes, inits, xshape[0])
    for i, nd in enumerate(nodes):
        nd.name = nd.name or f"{nd.op_type.lower()}_{i}"
    return model(nodes, [vi("x", FLOAT, xshape)], outputs, opset=opset, initializers=inits)


USES = {
    "topk": "TopK(x, K) on the last axis, K = dim 1 (4)",
    "tile": "Tile(x, [1, 1, dim 1])",
    "expand": "Expand(x, [dim 1, 1, 1, 1])",
    "constant-of-shape": "x + ConstantOfShape([dim 1, 6], 1.5)",
    "range": "x + Cast(Range(0, dim 2, 1))",
    "onehot": "x * OneHot(ArgMax(x), depth = dim 2)",
    "resize": "Resize(x, sizes=[dim 1], axes=[2], nearest)",
    "slice": "Slice(x, [0], ends=[dim 1], axes=[2])",
    "pad": "Pad(x, [0, 0, 0, 0, 0, dim 1])",
}

for _op, _use in USES.items():
    for _kind, _shape in INPUTS.items():
        register(
            Case(
                id=f"count/{_op}-{_kind}",
                forms={
                    f: Form((lambda o, k, f: lambda: build(o, k, f))(_op, _kind, f), FORM_DOCS.get(f, ""))
                    for f in SPELLINGS
                },
                doc=f"""{_use}, on x: {_shape}: the count as a constant vs derived from x's shape.

Uncommon: the count input computed from static dims of x (Operators.md Gather of Shape with a 0-D
or 1-D, positive or negative index; Slice of Shape; Shape with start/end) instead of an
initializer; the value is the same in every run, so a pass that folds or infers shapes must give
the same result.
Valid: opset 18 (Resize axes, Shape start/end), onnx >= 1.13.""",
                opset=OPSET,
                bindings=({"N": 1}, {"N": 3}) if _kind == "symbolic" else ({}, {}),
                passes=PASSES,
                tags=frozenset({"count", "shape", "folding", _kind}),
            )
        )

register(
    opset_case(
        "count/topk-opsets",
        lambda v: build("topk", "symbolic", "gather-1d", v),
        OPSET,
        span=3,
        what="TopK(x, K = Gather(Shape(x), [1])) on x: [N, 4, 6]",
        bindings=({"N": 1}, {"N": 3}),
        passes=PASSES,
        tags=frozenset({"count", "opset"}),
    )
)
