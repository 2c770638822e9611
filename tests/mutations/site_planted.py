"""Small models with several rewrite sites, and planted passes that mis-handle exactly one site
kind of one rewrite (each right on the model as written). Nodes are named n0, n1, … ."""

from __future__ import annotations

import numpy as np
import onnx

from passcheck.cases.builders import parse, tensor


def _named(m: onnx.ModelProto) -> onnx.ModelProto:
    for i, n in enumerate(m.graph.node):
        n.name = f"n{i}"
    return m


def commutative() -> onnx.ModelProto:
    """Three commutative sites: n1 Add(x, Neg(y)) (the one the planted pass mis-handles swapped), n2 Mul, n3 Add."""
    return _named(
        parse(
            """g (float[N, 4] x, float[N, 4] y) => (float[N, 4] z) {
        a = Neg(y)
        s = Add(x, a)
        t = Mul(s, x)
        z = Add(t, c)
    }""",
            opset=18,
            initializers=[tensor("c", np.linspace(-1, 1, 4, dtype=np.float32))],
        )
    )


def add_neg_to_sub(model: onnx.ModelProto) -> onnx.ModelProto:
    """Add(p, Neg(q)) → Sub(p, q); the swapped spelling Add(Neg(q), p) wrongly becomes Sub(q, p)."""
    g = model.graph
    made = {o: n for n in g.node for o in n.output}
    for n in g.node:
        if n.op_type != "Add":
            continue
        a, b = (made.get(x) for x in n.input)
        if b is not None and b.op_type == "Neg":
            n.op_type, n.input[1] = "Sub", b.input[0]
        elif a is not None and a.op_type == "Neg":
            n.op_type, n.input[0] = "Sub", a.input[0]  # the bug: Neg(q) + p is p - q, not q - p
    return model


def explicit_broadcasts() -> onnx.ModelProto:
    """Two broadcasting sites fed by a leading-axis Unsqueeze of an initializer: n1 Add (the planted
    pass mis-handles it once the Unsqueeze is gone), n3 Mul."""
    return _named(
        parse(
            """g (float[4, 4] x) => (float[4, 4] z) {
        u = Unsqueeze(b, zero)
        y = Add(x, u)
        v = Unsqueeze(k, zero)
        z = Mul(y, v)
    }""",
            opset=18,
            initializers=[
                tensor("b", np.arange(4, dtype=np.float32)),
                tensor("k", np.linspace(1, 2, 4, dtype=np.float32)),
                tensor("zero", np.array([0], np.int64)),
            ],
        )
    )


def pad_bias_rank(model: onnx.ModelProto) -> onnx.ModelProto:
    """Give a lower-rank initializer operand of an Add the other operand's rank, but pads with
    trailing 1s ([4] → [4, 1]) where numpy broadcasting prepends them ([1, 4])."""
    from onnx import numpy_helper

    g = model.graph
    ranks = {
        v.name: len(v.type.tensor_type.shape.dim)
        for v in [*g.input, *onnx.shape_inference.infer_shapes(model).graph.value_info]
    }
    inits = {t.name: t for t in g.initializer}
    for n in g.node:
        if n.op_type == "Add" and n.input[1] in inits and n.input[0] in ranks:
            t = inits[n.input[1]]
            a = numpy_helper.to_array(t)
            if a.ndim < ranks[n.input[0]]:
                t.CopyFrom(numpy_helper.from_array(a.reshape(a.shape + (1,) * (ranks[n.input[0]] - a.ndim)), t.name))
    return model


def reductions() -> onnx.ModelProto:
    """Two keepdims=1 reductions: n0 ReduceMean (centred as in a LayerNorm; the planted pass
    mis-handles its keepdims=0 + Unsqueeze spelling) and n2 ReduceMax."""
    return _named(
        parse(
            """g (float[4, 4] x) => (float[4, 4] z) {
        m = ReduceMean(x, last)
        c = Sub(x, m)
        h = ReduceMax(c, last)
        z = Div(c, h)
    }""",
            opset=18,
            initializers=[tensor("last", np.array([-1], np.int64))],
        )
    )


def fold_mean_unsqueeze(model: onnx.ModelProto) -> onnx.ModelProto:
    """ReduceMean(keepdims=0) → Unsqueeze is read as if the Unsqueeze changed nothing (its readers
    take the rank-reduced mean, which then broadcasts along the wrong axis)."""
    g = model.graph
    made = {o: n for n in g.node for o in n.output}
    renamed = {}
    for n in g.node:
        p = made.get(n.input[0]) if n.op_type == "Unsqueeze" else None
        if p is not None and p.op_type == "ReduceMean" and any(a.name == "keepdims" and a.i == 0 for a in p.attribute):
            renamed[n.output[0]] = n.input[0]
    for n in g.node:
        for k, x in enumerate(n.input):
            n.input[k] = renamed.get(x, x)
    return model


def convs() -> onnx.ModelProto:
    """Three Convs without bias: n0 → BatchNormalization, n2 → Relu, n4 → BatchNormalization
    (ResNet's Conv → BatchNormalization spelling, small)."""
    rng = np.random.default_rng(0)
    w = lambda name, o, i: tensor(name, rng.uniform(-0.2, 0.2, (o, i, 3, 3)).astype(np.float32))
    bn = lambda p, c: [
        tensor(f"{p}_{k}", v)
        for k, v in (
            ("s", rng.uniform(0.5, 1.5, c)),
            ("b", rng.uniform(-0.5, 0.5, c)),
            ("m", rng.uniform(-0.5, 0.5, c)),
            ("v", rng.uniform(1, 2, c)),
        )
    ]
    inits = [w("w0", 4, 3), w("w1", 4, 4), w("w2", 4, 4), *[t for p in ("bn0", "bn2") for t in bn(p, 4)]]
    for t in inits:
        t.CopyFrom(onnx.numpy_helper.from_array(onnx.numpy_helper.to_array(t).astype(np.float32), t.name))
    return _named(
        parse(
            """g (float[1, 3, 8, 8] x) => (float[1, 4, 8, 8] y) {
        a = Conv<pads = [1, 1, 1, 1]>(x, w0)
        b = BatchNormalization(a, bn0_s, bn0_b, bn0_m, bn0_v)
        c = Conv<pads = [1, 1, 1, 1]>(b, w1)
        d = Relu(c)
        e = Conv<pads = [1, 1, 1, 1]>(d, w2)
        y = BatchNormalization(e, bn2_s, bn2_b, bn2_m, bn2_v)
    }""",
            opset=13,
            initializers=inits,
        )
    )
