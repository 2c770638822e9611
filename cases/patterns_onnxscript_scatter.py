"""pattern-onnxscript-scatter/*: a ScatterND that overwrites a whole axis, as torch exports ``x[:] = u``.

onnxscript's ScatterAllDynamic rule (onnxscript/rewriter/rules/common/_redundant_scatter_nd.py, a
default rule) replaces ScatterND(data, Unsqueeze(Range(0, Gather(Shape(data, start = 0), axis), 1),
[-1]), updates, reduction = "none") by updates when the indices span the whole first axis. Uncommon:
the same graph with the attributes left at their defaults (Operators.md Shape-15: ``start`` defaults
to 0; ScatterND-18: ``reduction`` defaults to "none"), which compute the same values.
"""

from __future__ import annotations

import numpy as np

from passcheck.cases.rules import onnxscript_case

FAMILY = "pattern-onnxscript-scatter"
CONSTS = {"zero": np.array(0, np.int64), "one": np.array(1, np.int64), "last": np.array([-1], np.int64)}
BODY = (
    "s = Shape <start = 0> (x)\nd = Gather <axis = 0> (s, zero)\nr = Range(zero, d, one)\nu = Unsqueeze(r, last)\n"
    'y = ScatterND <reduction = "none"> (x, u, upd)'
)
onnxscript_case(
    f"{FAMILY}/all-dynamic",
    "ScatterAllDynamic",
    """x: [N, 3] with every row overwritten by upd: [N, 3] (float): upd.

Common: the torch.onnx export of ``x[:] = upd`` / index_put over arange(N) (Shape start = 0 and
reduction "none" written). Uncommon: Shape's start omitted; ScatterND's reduction omitted
(Operators.md Shape, ScatterND).""",
    {
        "common": (BODY, ""),
        "shape-start-omitted": (BODY.replace("Shape <start = 0> (x)", "Shape(x)"), "Shape without start"),
        "reduction-omitted": (BODY.replace(' <reduction = "none">', ""), "ScatterND without reduction"),
    },
    "(float[N,3] x, float[N,3] upd) => (float[N,3] y)",
    consts=CONSTS,
)
