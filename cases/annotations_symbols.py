"""annotations/*: the same graph with different, all correct, shape annotations.

IR.md "Static tensor shapes": a dim is a ``dim_value``, a ``dim_param`` (a symbol, the same size
wherever it appears in one run) or neither (unknown); a missing ``shape`` means unknown rank.
value_info is optional and may be less precise than what inference could derive; graph outputs
may carry symbols a pass could resolve (seed 000: annotations are assertions checked per run).
The forms deliberately differ in annotation precision, so precision parity is off.
"""

from __future__ import annotations

import numpy as np

from passcheck.cases import Case, Form, register
from passcheck.cases.builders import FLOAT, model, node, tensor, vi

OPSET = 13
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
BINDINGS = ({"N": 1}, {"N": 3})
PARITY = frozenset({"status", "ops"})


def _register(name: str, doc: str, build, variants: dict, tags=()) -> None:
    """``variants``: form name → (keyword args for ``build``, doc); the first is ``common``."""
    register(
        Case(
            id=f"annotations/{name}",
            forms={f: Form(lambda kw=kw: build(**kw), d) for f, (kw, d) in variants.items()},
            doc=doc,
            opset=OPSET,
            bindings=BINDINGS,
            passes=PASSES,
            parity=PARITY,
            tags=frozenset({"annotations", "symbolic"}) | set(tags),
        )
    )


def _chain(x_shape=("N", 4), y_shape=("N", 4), t_vi="absent", b_shape=None):
    """t = Relu(x [+ b]); y = Neg(t), with the chosen annotations."""
    inputs = [vi("x", FLOAT, list(x_shape))]
    first = node("Relu", ["x"], ["t"], name="relu")
    if b_shape is not None:
        inputs.append(vi("b", FLOAT, list(b_shape)))
        first = node("Add", ["x", "b"], ["t"], name="add")
    infos = {
        "absent": [],
        "exact": [vi("t", FLOAT, ["N", 4])],
        "anonymous": [vi("t", FLOAT, [None, 4])],
        "rank-only": [vi("t", FLOAT, [None, None])],
        "no-shape": [vi("t", FLOAT, None)],
        "other-symbol": [vi("t", FLOAT, ["T", 4])],
    }[t_vi]
    return model(
        [first, node("Neg", ["t"], ["y"], name="neg")],
        inputs,
        [vi("y", FLOAT, None if y_shape is None else list(y_shape))],
        opset=OPSET,
        value_info=infos,
    )


_register(
    "output-dim-spelling",
    """y = -Relu(x), x: [N, 4]: the output's second dim as 4, as a symbol F, or anonymous.

Uncommon: a graph output with a fresh symbol F (always 4) or an anonymous dim (IR.md "Static
tensor shapes"; onnx.checker requires graph outputs to keep a shape field; seed 000: a symbol only asserts equal sizes within a run).
Valid: every opset / ir_version (here 13).""",
    _chain,
    {
        "common": ({}, ""),
        "symbol": ({"y_shape": ("N", "F")}, "y: [N, F]"),
        "anonymous": ({"y_shape": ("N", None)}, "y: [N, ?]"),
    },
)

_register(
    "value-info-precision",
    """y = -Relu(x), x: [N, 4]: value_info for t absent, exact, less precise, or with its own symbol.

Uncommon: a correct but less precise value_info ([?, 4], [?, ?], no shape) or a different symbol T
for a dim equal to N (IR.md "Graphs": value_info optional; seed 000: every annotation here holds).
Passes must keep or refine it, never contradict the run.
Valid: every opset (here 13).""",
    _chain,
    {
        "common": ({}, ""),
        "exact": ({"t_vi": "exact"}, "t: [N, 4]"),
        "anonymous": ({"t_vi": "anonymous"}, "t: [?, 4]"),
        "rank-only": ({"t_vi": "rank-only"}, "t: [?, ?]"),
        "no-shape": ({"t_vi": "no-shape"}, "t: no shape"),
        "other-symbol": ({"t_vi": "other-symbol"}, "t: [T, 4] (T always equals N)"),
    },
)

_register(
    "shared-vs-distinct-symbols",
    """x + b with x, b: [N, 4] vs b: [M, 4] (always fed the same size) vs b: [?, 4].

Uncommon: two inputs that share a size but carry distinct symbols or none (IR.md "Static tensor
shapes": equal dim_params assert equal sizes; distinct ones assert nothing). Shape inference
cannot merge M with N; a pass that does so anyway is guessing.
Valid: every opset (here 13).""",
    _chain,
    {
        "common": ({"b_shape": ("N", 4)}, ""),
        "distinct": ({"b_shape": ("M", 4)}, "b: [M, 4]"),
        "anonymous": ({"b_shape": (None, 4)}, "b: [?, 4]"),
    },
)

_register(
    "input-dim-spelling",
    """y = -Relu(x): x annotated [N, 4] vs [?, 4] (fed the same arrays).

Uncommon: an anonymous graph-input dim instead of a symbol (IR.md "Static tensor shapes").
Valid: every opset (here 13).""",
    _chain,
    {"common": ({}, ""), "anonymous": ({"x_shape": (None, 4), "y_shape": (None, 4)}, "x: [?, 4], y: [?, 4]")},
)


def _reshape(out):
    return model(
        [node("Reshape", ["x", "t"], ["y"], name="reshape")],
        [vi("x", FLOAT, ["N", 3, 4])],
        [vi("y", FLOAT, list(out))],
        opset=OPSET,
        initializers=[tensor("t", np.array([-1, 12], np.int64))],
    )


_register(
    "concretizable-output",
    """Reshape of x: [N, 3, 4] to [-1, 12]: y annotated [N, 12] vs [N, K] vs [?, ?].

Uncommon: a graph output with a symbolic dim K that is always 12, which shape inference can make
concrete (IR.md "Static tensor shapes"; Operators.md Reshape). A pass may refine K to 12 but must
not change y's values or contradict the run.
Valid: opset 5+ (here 13).""",
    _reshape,
    {
        "common": ({"out": ("N", 12)}, ""),
        "symbol": ({"out": ("N", "K")}, "y: [N, K]"),
        "anonymous": ({"out": (None, None)}, "y: [?, ?]"),
    },
    tags={"reshape"},
)
