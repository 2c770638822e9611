"""control-flow/*: a computation inside If (constant condition) or Loop (trip count 1) vs inline;
a subgraph reading an outer-scope value vs receiving it as a loop-carried input.

Operators.md If: runs then_branch when cond is true; Loop: with trip count M and cond "" runs the
body M times (the optional cond input written "" in the middle). IR.md "Graphs" / "Names Within a
Graph": a subgraph may read any value of an enclosing graph by name (outer scope).
"""

from __future__ import annotations

from passcheck.cases import Case, register
from passcheck.cases.builders import text_forms

OPSET = 13
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
SIG = "(float[N,4] x) => (float[N,4] y)"
CONSTS = "<bool t = {1}, bool f = {0}, int64 one = {1}, float k = {0.5}>"


def _case(name, doc, forms):
    register(
        Case(
            id=f"control-flow/{name}",
            forms=text_forms(SIG, CONSTS, forms, opset=OPSET),
            doc=doc,
            opset=OPSET,
            bindings=BINDINGS,
            passes=PASSES,
            tags=frozenset({"control-flow", "subgraph"}),
        )
    )


_case(
    "if-constant-condition",
    """Relu(x) * 0.5 inline vs inside If with a constant true / false condition.

Uncommon: an If whose cond is a constant initializer, with branches reading x and k from the outer
scope (Operators.md If; IR.md outer-scope names). Folding the If must pick the right branch.
Valid: opset 13+ (If-13).""",
    {
        "common": ("r = Relu(x)\ny = Mul(r, k)", ""),
        "if-true": (
            "y = If(t) <then_branch = g1 () => (float[N,4] a) { r = Relu(x)\n a = Mul(r, k) }, "
            "else_branch = g2 () => (float[N,4] b) { b = Neg(x) }>",
            "If(true): Relu(x) * k in then_branch",
        ),
        "if-false": (
            "y = If(f) <then_branch = g1 () => (float[N,4] a) { a = Neg(x) }, "
            "else_branch = g2 () => (float[N,4] b) { r = Relu(x)\n b = Mul(r, k) }>",
            "If(false): the computation in else_branch",
        ),
    },
)

_case(
    "loop-trip-one",
    """Relu(x) * 0.5 inline vs inside a Loop with trip count 1 and cond "".

Uncommon: a Loop that runs once, its cond written "" (Operators.md Loop: M given, cond optional),
the value carried as a loop-carried dependency, or read from the outer scope.
Valid: opset 13+ (Loop-13).""",
    {
        "common": ("r = Relu(x)\ny = Mul(r, k)", ""),
        "loop-carried": (
            'y = Loop(one, "", x) <body = b (int64 i, bool c, float[N,4] v) => (bool co, float[N,4] vo) '
            "{ co = Identity(c)\n r = Relu(v)\n vo = Mul(r, k) }>",
            "x carried into the body",
        ),
        "loop-outer-scope": (
            'z = Identity(x)\ny = Loop(one, "", z) <body = b (int64 i, bool c, float[N,4] v) => (bool co, float[N,4] vo) '
            "{ co = Identity(c)\n r = Relu(x)\n vo = Mul(r, k) }>",
            "the body ignores v and reads x from the outer scope",
        ),
    },
)

_case(
    "loop-scan-output",
    """Relu(x) * 0.5 inline vs a Loop that runs once and returns it as a scan output, squeezed.

Uncommon: a one-iteration scan output (Operators.md Loop: scan outputs are stacked on a new axis 0)
read back with Squeeze.
Valid: opset 13+.""",
    {
        "common": ("r = Relu(x)\ny = Mul(r, k)", ""),
        "scan-output": (
            'zero = Constant <value_ints = [0]> ()\ns = Loop(one, "") <body = b (int64 i, bool c) => (bool co, float[N,4] so) '
            "{ co = Identity(c)\n r = Relu(x)\n so = Mul(r, k) }>\ny = Squeeze(s, zero)",
            "scan output [1, N, 4] then Squeeze",
        ),
    },
)
