"""const-fold/*: a constant written pre-computed vs as a subgraph whose inputs are all constants.

A node whose every input is an initializer or a Constant output computes the same value in every
run (Operators.md: Transpose, Cast, Reciprocal, Mul, Concat are deterministic), so a pass that
folds constants can replace it by an initializer; the same value may also come from static dims of
the input's shape. IR.md "Graphs": initializers and Constant nodes are both constants of the graph.
"""

from __future__ import annotations

import numpy as np
import onnx

from passcheck.cases import Case, Form, register
from passcheck.cases.builders import FLOAT, model, node, rng, tensor, vi
from passcheck.cases.opsets import opset_case

OPSET = 17
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
BINDINGS = ({"N": 1}, {"N": 3})


def _const(name: str, value, as_node: bool, nodes: list, inits: list) -> None:
    """``name`` = ``value`` as an initializer, or as a Constant node's output."""
    t = tensor(name, value)
    if as_node:
        nodes.append(node("Constant", [], [name], name=f"{name}_const", value=t))
    else:
        inits.append(t)


def _reshape_target(spelling: str, opset: int = OPSET):
    """x: [N, 4, 6] reshaped to [-1, 24]; the target an initializer, from Shape(x, start=1), or
    Concat([-1], Mul([4], [6])) of initializers or Constant nodes."""
    nodes, inits = [], []
    if spelling == "common":
        inits.append(tensor("t", np.array([-1, 24], np.int64)))
    elif spelling == "shape-derived":
        inits.append(tensor("m1", np.array([-1], np.int64)))
        nodes += [
            node("Shape", ["x"], ["tail"], name="shape", start=1),
            node("ReduceProd", ["tail"], ["n"], name="prod", keepdims=1),
            node("Concat", ["m1", "n"], ["t"], name="concat", axis=0),
        ]
    else:
        for name, v in (("m1", [-1]), ("a", [4]), ("b", [6])):
            _const(name, np.array(v, np.int64), spelling == "constant-nodes", nodes, inits)
        nodes += [node("Mul", ["a", "b"], ["n"], name="mul"), node("Concat", ["m1", "n"], ["t"], name="concat", axis=0)]
    nodes.append(node("Reshape", ["x", "t"], ["y"], name="reshape"))
    return model(nodes, [vi("x", FLOAT, ["N", 4, 6])], [vi("y", FLOAT, ["N", 24])], opset=opset, initializers=inits)


def _transposed_weight(spelling: str, opset: int = OPSET):
    """y = x @ Wᵀ for x: [N, 4], W: [3, 4]: Wᵀ stored, or Transpose(W) of an initializer / Constant."""
    w = rng("const-fold/transposed-weight").standard_normal((3, 4)).astype(np.float32)
    nodes, inits = [], []
    if spelling == "common":
        inits.append(tensor("wt", np.ascontiguousarray(w.T)))
    else:
        _const("w", w, spelling == "constant-node", nodes, inits)
        nodes.append(node("Transpose", ["w"], ["wt"], name="transpose", perm=[1, 0]))
    nodes.append(node("MatMul", ["x", "wt"], ["y"], name="matmul"))
    return model(nodes, [vi("x", FLOAT, ["N", 4])], [vi("y", FLOAT, ["N", 3])], opset=opset, initializers=inits)


def _cast_scale(spelling: str, opset: int = OPSET):
    """y = x * 0.25: the scale stored, or Reciprocal(Cast(4)) of an int64 initializer / Constant."""
    nodes, inits = [], []
    if spelling == "common":
        inits.append(tensor("s", np.array(0.25, np.float32)))
    else:
        _const("four", np.array(4, np.int64), spelling == "constant-node", nodes, inits)
        nodes += [
            node("Cast", ["four"], ["f"], name="cast", to=onnx.TensorProto.FLOAT),
            node("Reciprocal", ["f"], ["s"], name="reciprocal"),
        ]
    nodes.append(node("Mul", ["x", "s"], ["y"], name="mul"))
    return model(nodes, [vi("x", FLOAT, ["N", 4])], [vi("y", FLOAT, ["N", 4])], opset=opset, initializers=inits)


def _register(name: str, build, forms: dict, doc: str) -> None:
    register(
        Case(
            id=f"const-fold/{name}",
            forms={f: Form((lambda s: lambda: build(s))(f), d) for f, d in {"common": "", **forms}.items()},
            doc=doc,
            opset=OPSET,
            bindings=BINDINGS,
            passes=PASSES,
            tags=frozenset({"folding", "constant"}),
        )
    )


_register(
    "reshape-target",
    _reshape_target,
    {
        "shape-derived": "the target from Concat([-1], ReduceProd(Shape(x, start=1))) (static dims 4, 6)",
        "constant-only": "the target from Concat([-1], Mul([4], [6])) of initializers",
        "constant-nodes": "the target from Concat([-1], Mul([4], [6])) of Constant nodes",
    },
    """Reshape of x: [N, 4, 6] to [-1, 24], the target stored vs computed before any run.

Uncommon: the target computed from static dims of x's shape, or by a subgraph whose inputs are all
constants (initializers or Constant nodes, Operators.md Constant); both fold to [-1, 24].
Valid: opset 15+ (Shape start, here 17).""",
)

_register(
    "transposed-weight",
    _transposed_weight,
    {
        "constant-only": "Transpose(W) of an initializer before MatMul",
        "constant-node": "Transpose(W) of a Constant node before MatMul",
    },
    """x: [N, 4] @ Wᵀ (W: [3, 4]): Wᵀ stored vs Transpose of a constant W.

Uncommon: the weight transposed in the graph (as exporters write Linear layers), its only input a
constant (Operators.md Transpose); a folding pass stores Wᵀ.
Valid: opset 13+ (here 17).""",
)

_register(
    "cast-scale",
    _cast_scale,
    {
        "constant-only": "Reciprocal(Cast(4)) of an int64 initializer",
        "constant-node": "Reciprocal(Cast(4)) of a Constant node",
    },
    """x: [N, 4] * 0.25: the scale stored vs computed from an int64 constant.

Uncommon: a chain of Cast and Reciprocal (Operators.md) on a constant; it folds to 0.25 exactly.
Valid: opset 13+ (here 17).""",
)

register(
    opset_case(
        "const-fold/transposed-weight-opsets",
        lambda v: _transposed_weight("constant-only", v),
        OPSET,
        span=2,
        what="x: [N, 4] @ Transpose(W), W a constant a folding pass transposes",
        bindings=BINDINGS,
        passes=PASSES,
        tags=frozenset({"folding", "constant", "opset"}),
    )
)
