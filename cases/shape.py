"""shape/*: ``Shape(x, start, end)`` vs ``Shape(x)`` + ``Slice`` / ``Gather`` (seed 003, §2).

Operators.md Shape (since opset 15): optional ``start``/``end`` attributes select dims
``[start, end)`` of the input's shape, negative values counting from the back and out-of-range
values clamped to [0, rank]; an empty range gives an empty 1-D tensor. The same selection is
``Slice(Shape(x), [start], [end], [0])`` (Slice clamps the same way) or ``Gather(Shape(x), idx)``.
When every selected dim is static the result is a constant, whatever the other dims are.
"""

from __future__ import annotations

import numpy as np

from passcheck.cases import Case, Expectation, Form, register
from passcheck.cases.builders import FLOAT, INT64, model, node, tensor, vi

OPSET = 18
RANGES = [(1, 3), (-3, -1), (0, 2), (-10, 10), (2, 1)]
INPUTS = {"dynamic": ["N", 3, 4, "M"], "static": [2, 3, 4, 5]}
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


def _selected(start: int, end: int, rank: int = 4) -> list[int]:
    s = min(max(start + rank if start < 0 else start, 0), rank)
    e = min(max(end + rank if end < 0 else end, 0), rank)
    return list(range(s, e))


def _build(xshape, start, end, spelling, use):
    def build():
        sel = _selected(start, end)
        nodes, inits = [], []
        if spelling == "start-end":
            nodes.append(node("Shape", ["x"], ["s"], name="shape", start=start, end=end))
        elif spelling == "slice":
            inits += [
                tensor("starts", [start], np.int64),
                tensor("ends", [end], np.int64),
                tensor("axes", [0], np.int64),
            ]
            nodes += [
                node("Shape", ["x"], ["full"], name="shape"),
                node("Slice", ["full", "starts", "ends", "axes"], ["s"], name="slice"),
            ]
        else:
            inits.append(tensor("idx", np.array(sel, dtype=np.int64)))
            nodes += [
                node("Shape", ["x"], ["full"], name="shape"),
                node("Gather", ["full", "idx"], ["s"], name="gather", axis=0),
            ]
        outputs = [vi("s", INT64, [len(sel)])]
        if use == "reshape":
            inits.append(tensor("minus_one", [-1], np.int64))
            nodes += [
                node("Concat", ["minus_one", "s"], ["target"], name="concat", axis=0),
                node("Reshape", ["x", "target"], ["y"], name="reshape"),
            ]
            outputs = [vi("y", FLOAT, [None] * (1 + len(sel)))]
        return model(nodes, [vi("x", FLOAT, xshape)], outputs, opset=OPSET, initializers=inits)

    return build


def _label(v: int) -> str:
    return f"m{-v}" if v < 0 else str(v)


for kind, xshape in INPUTS.items():
    for start, end in RANGES:
        for use in ("output", "reshape"):
            cid = f"shape/{kind}-{_label(start)}-{_label(end)}-{use}"
            sel = _selected(start, end)
            static_sel = all(isinstance(xshape[i], int) for i in sel)
            expect = ()
            if use == "reshape" and kind == "static":  # Reshape(x, [-1, selected dims]): every dim known
                kept = [xshape[i] for i in sel]
                expect = (
                    Expectation(
                        pass_id="onnx:infer-shapes-data-prop",
                        output_shapes={"y": (int(np.prod(xshape) // np.prod(kept)), *kept)},
                        reason="data propagation computes the Reshape target from a static shape",
                    ),
                )
            register(
                Case(
                    id=cid,
                    forms={
                        "common": Form(_build(xshape, start, end, "slice", use)),
                        "gather": Form(
                            _build(xshape, start, end, "gather", use), "Shape(x) + Gather of the selected indices"
                        ),
                        "start-end": Form(
                            _build(xshape, start, end, "start-end", use),
                            f"Shape(x, start={start}, end={end}) (opset 15)",
                        ),
                    },
                    doc=f"""Dims [{start}, {end}) of the shape of x: {xshape}, {"as a graph output" if use == "output" else "as the target of a Reshape"}.

Selected dims {sel} are {"all static: the value is a constant a folding pass can compute" if static_sel else "not all static"}.
Uncommon: Shape's start/end attributes (Operators.md Shape, opset 15) instead of Slice/Gather.""",
                    opset=OPSET,
                    bindings=({"N": 1, "M": 2}, {"N": 3, "M": 5}),
                    passes=PASSES,
                    tags=frozenset({"shape", "folding", "seed", kind}),
                    expect=expect,
                )
            )
