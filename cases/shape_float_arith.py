"""shape-float/*: integer shape arithmetic computed in float between Casts, as exporters write it.

torch writes ``int(size * scale)`` (interpolate's output size, a pooled length) as ``Cast(Mul(Cast(Shape(x), to=FLOAT),
scale), to=INT64)``, with or without a ``Floor`` before the last Cast; a comparison of sizes may be taken on the
casts too. Cast-13 (Operators.md): an integer of magnitude ≤ 2^24 converts to float32 exactly and float → integer
truncates toward zero, which equals Floor for the non-negative values a shape holds; comparisons of exactly converted
integers agree with the integer comparison. So each pair of forms computes the same values for every size below 2^24,
and a pass that rewrites the Cast pair (onnx-graphsurgeon's shape-tensor cast elision, tools that fold shapes) must
keep the float op's meaning: its float constants, its bool output. The shape's type is annotated (a value_info, as
shape inference writes it), which such rewrites read.
"""

from __future__ import annotations

import numpy as np

from passcheck.cases import Case, Form, register
from passcheck.cases.builders import FLOAT, INT64, model, node, tensor, vi

OPSET = 17
PASSES = ("ort:disabled", "ort:basic", "ort:all", "onnxscript:optimize", "onnx:infer-shapes-data-prop")
BINDINGS = ({"N": 1}, {"N": 3})
BOOL_TO = INT64


def _scaled(spelling: str):
    """y = int(Shape(x) * 1.5) for x: [N, 5] (y: int64[2]; no product is an integer, so no Cast sits at a rounding
    boundary): ``Floor`` before the last Cast, or the Cast alone."""
    nodes = [
        node("Shape", ["x"], ["s"], name="shape"),
        node("Cast", ["s"], ["f"], name="to_float", to=FLOAT),
        node("Mul", ["f", "scale"], ["m"], name="scale"),
    ]
    if spelling == "common":
        nodes += [node("Floor", ["m"], ["fl"], name="floor"), node("Cast", ["fl"], ["y"], name="to_int", to=INT64)]
    else:
        nodes.append(node("Cast", ["m"], ["y"], name="to_int", to=INT64))
    return model(
        nodes,
        [vi("x", FLOAT, ["N", 5])],
        [vi("y", INT64, [2])],
        opset=OPSET,
        initializers=[tensor("scale", np.array(1.5, np.float32))],
        value_info=[vi("s", INT64, [2])],
    )


def _compared(spelling: str):
    """y = Cast(Shape(x) < [2, 7], to=INT64) for x: [N, 6] (y: int64[2]): compared as integers, or on float Casts."""
    nodes = [node("Shape", ["x"], ["s"], name="shape")]
    if spelling == "common":
        nodes.append(node("Less", ["s", "k"], ["lt"], name="less"))
    else:
        nodes += [
            node("Cast", ["s"], ["sf"], name="s_float", to=FLOAT),
            node("Cast", ["k"], ["kf"], name="k_float", to=FLOAT),
            node("Less", ["sf", "kf"], ["lt"], name="less"),
        ]
    nodes.append(node("Cast", ["lt"], ["y"], name="to_int", to=BOOL_TO))
    return model(
        nodes,
        [vi("x", FLOAT, ["N", 6])],
        [vi("y", INT64, [2])],
        opset=OPSET,
        initializers=[tensor("k", np.array([2, 7], np.int64))],
        value_info=[vi("s", INT64, [2])],
    )


def _register(name: str, build, forms: dict, doc: str) -> None:
    register(
        Case(
            id=f"shape-float/{name}",
            forms={f: Form((lambda s: lambda: build(s))(f), d) for f, d in {"common": "", **forms}.items()},
            doc=doc,
            opset=OPSET,
            bindings=BINDINGS,
            passes=PASSES,
            tags=frozenset({"folding", "shape", "cast"}),
        )
    )


_register(
    "scaled-size",
    _scaled,
    {"trunc-cast": "Cast(Shape(x) * 1.5) to int64 with no Floor (the sizes are non-negative: truncation is Floor)"},
    """int(size * 1.5) of x: [N, 5]'s shape, through float.

Uncommon: the Floor left out (Cast-13 truncates toward zero, Floor for the non-negative sizes), as torch exports it.
Valid: opset 13+ (here 17); Operators.md §Cast (float to integer truncates), §Floor.""",
)

_register(
    "compare-sizes",
    _compared,
    {"via-float": "Less on Cast(Shape(x), FLOAT) and Cast([2, 7], FLOAT), its bool output cast to int64"},
    """Shape(x) < [2, 7] as int64 flags, x: [N, 6].

Uncommon: the comparison taken on float Casts of the sizes (exact below 2^24, Cast-13).
Valid: opset 13+ (here 17); Operators.md §Cast (an integer up to 2^24 converts to float32 exactly), §Less.""",
)
