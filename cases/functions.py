"""functions/*: an op vs its function-body expansion, a model-local function vs inlined nodes.

Operators.md marks ops defined by a function body (HardSwish, Softsign, Celu, …); onnx's own
test data ships each with an ``_expanded`` model that must compute the same (onnx
docs/Operators.md "Function"; the node tests' ``*_expanded`` folders). IR.md "Functions"
(IR version >= 8): a model may define functions in its own domain and call them as nodes.
"""

from __future__ import annotations

from passcheck.cases import Case, register
from passcheck.cases.builders import text_forms

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
TAGS = frozenset({"functions"})


def _case(name, doc, opset, forms, **kw):
    register(
        Case(
            id=f"functions/{name}",
            forms=forms,
            doc=doc,
            opset=opset,
            bindings=BINDINGS,
            passes=PASSES,
            tags=TAGS | kw.pop("tags", frozenset()),
            **kw,
        )
    )


_case(
    "hardswish-expanded",
    """HardSwish(x) vs its function body x * HardSigmoid(x, alpha=1/6, beta=0.5).

Uncommon: the expanded body (Operators.md HardSwish, opset 14, "Function": y = x * max(0, min(1,
x/6 + 1/2))). Fusions that recognize one form should give the same numbers on the other.
Valid: opset 14+.""",
    14,
    text_forms(
        "(float[N,6] x) => (float[N,6] y)",
        "",
        {
            "common": ("y = HardSwish(x)", ""),
            "expanded": ("h = HardSigmoid <alpha = 0.16666667, beta = 0.5> (x)\ny = Mul(x, h)", "x * HardSigmoid(x)"),
        },
        opset=14,
    ),
    tags=frozenset({"expansion"}),
)

_case(
    "softsign-expanded",
    """Softsign(x) vs its function body x / (1 + |x|).

Uncommon: the expanded body (Operators.md Softsign, "Function").
Valid: every opset (here 13).""",
    13,
    text_forms(
        "(float[N,6] x) => (float[N,6] y)",
        "",
        {
            "common": ("y = Softsign(x)", ""),
            "expanded": (
                "one = Constant <value_float = 1.0> ()\na = Abs(x)\nd = Add(one, a)\ny = Div(x, d)",
                "x / (1 + |x|)",
            ),
        },
        opset=13,
    ),
    tags=frozenset({"expansion"}),
)

_case(
    "celu-expanded",
    """Celu(x, alpha=1) vs its function body max(0, x) + min(0, alpha * (exp(x / alpha) - 1)).

Uncommon: the expanded body (Operators.md Celu, opset 12, "Function").
Valid: opset 12+ (here 13).""",
    13,
    text_forms(
        "(float[N,6] x) => (float[N,6] y)",
        "",
        {
            "common": ("y = Celu(x)", ""),
            "expanded": (
                "z = Constant <value_float = 0.0> ()\none = Constant <value_float = 1.0> ()\np = Max(x, z)\ne = Exp(x)\nem = Sub(e, one)\nn = Min(em, z)\ny = Add(p, n)",
                "max(0, x) + min(0, exp(x) - 1)",
            ),
        },
        opset=13,
    ),
    tags=frozenset({"expansion"}),
)

_LOCAL = """
<domain: "local", opset_import: ["" : 15]>
scaled_relu <alpha> (a, b) => (c) {
  s = Add(a, b)
  r = Relu(s)
  k = Constant <value_float: float = @alpha> ()
  c = Mul(r, k)
}
"""

_case(
    "local-function",
    """Relu(x + b) * 0.5 inlined vs called through a model-local function with an attribute.

Uncommon: a model-local function (domain "local") with an attribute reference (@alpha) (IR.md
"Functions": IR version 8+; the caller binds attributes). Passes must inline or keep it and agree.
Valid: ir_version 8+ (opset 15 here, onnx >= 1.10).""",
    15,
    text_forms(
        "(float[N,4] x) => (float[N,4] y)",
        "<float[4] b = {0.1, -0.2, 0.3, -0.4}>",
        {
            "common": ("s = Add(x, b)\nr = Relu(s)\nk = Constant <value_float = 0.5> ()\ny = Mul(r, k)", ""),
            "function-call": ("y = local.scaled_relu <alpha = 0.5> (x, b)", "call of local.scaled_relu(alpha=0.5)"),
        },
        opset=15,
        extra_opsets={"local": 1},
        functions=_LOCAL,
    ),
)

# Nodes in domain "ai.onnx" (with "ai.onnx" imported) are left out: onnx 1.23's checker finds no
# schema for them ("No Op registered for Relu with domain_version of 13"), so no form is valid there.
