"""layernorm/*: Add → LayerNormalization (the skip-layernorm pattern) with scale / bias of rank 1
vs with leading 1s.

Operators.md LayerNormalization (opset 17): with axis = -1 the statistics are taken over the last
dim, then ``Y = normalized * Scale + B`` with numpy broadcasting (its function body uses Mul and
Add), so Scale and B of shape [H], [1, H] or [1, 1, H] give the same Y of X's shape. Transformer
exporters write both. A fusion that matches only 1-D parameters leaves the other spelling unfused.
"""

from __future__ import annotations

import numpy as np

from passcheck.cases import Case, Form, register
from passcheck.cases.builders import FLOAT, model, node, rng, tensor, vi
from passcheck.cases.opsets import opset_case

OPSET = 17
H = 8
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
BINDINGS = ({"N": 1, "S": 2}, {"N": 2, "S": 3})
#: form → (scale shape, bias shape)
SHAPES = {
    "common": ((H,), (H,)),
    "params-rank3": ((1, 1, H), (1, 1, H)),
    "scale-rank3": ((1, 1, H), (H,)),
    "params-rank2": ((1, H), (1, H)),
}


def build(form: str, opset: int = OPSET):
    """y = LayerNormalization(x + skip, scale, bias) over the last axis; x, skip: [N, S, 8]."""
    r = rng("layernorm/skip")
    scale, bias = r.uniform(0.5, 1.5, H).astype(np.float32), r.standard_normal(H).astype(np.float32)
    sshape, bshape = SHAPES[form]
    inits = [tensor("scale", scale.reshape(sshape)), tensor("bias", bias.reshape(bshape))]
    nodes = [
        node("Add", ["x", "skip"], ["sum"], name="add"),
        node("LayerNormalization", ["sum", "scale", "bias"], ["y"], name="layernorm", axis=-1, epsilon=1e-5),
    ]
    return model(
        nodes,
        [vi("x", FLOAT, ["N", "S", H]), vi("skip", FLOAT, ["N", "S", H])],
        [vi("y", FLOAT, ["N", "S", H])],
        opset=opset,
        initializers=inits,
    )


register(
    Case(
        id="layernorm/skip-param-rank",
        forms={
            f: Form(
                (lambda v: lambda: build(v))(f),
                "" if f == "common" else f"scale {list(s)}, bias {list(b)} (broadcast against [N, S, {H}])",
            )
            for f, (s, b) in SHAPES.items()
        },
        doc=f"""LayerNormalization(x + skip) over the last axis, H = {H}: scale and bias [H] vs with leading 1s.

Uncommon: parameters of shape [1, 1, H] or [1, H], equal to [H] under broadcasting (Operators.md
LayerNormalization, opset 17: Y = normalized * Scale + B). A skip-layernorm fusion must treat both.
Valid: opset 17+.""",
        opset=OPSET,
        bindings=BINDINGS,
        passes=PASSES,
        tags=frozenset({"layernorm", "fusion", "parameter-rank"}),
    )
)

register(
    opset_case(
        "layernorm/skip-opsets",
        lambda v: build("common", v),
        OPSET,
        span=2,
        what="LayerNormalization(x + skip) over the last axis (the skip-layernorm pattern)",
        bindings=BINDINGS,
        passes=PASSES,
        tags=frozenset({"layernorm", "fusion", "opset"}),
    )
)
