"""graph-defaults/*: initializers that are part of the graph's interface — fed defaults and constant outputs.

IR.md §Graphs ("initializer": "When an initializer has the same name as a graph input, it specifies a default value
for that input"; from IR 4 an initializer need not be an input) and §Names Within a Graph: a graph input with an
initializer of its name is a *default* a caller MAY replace by a feed (onnxruntime lists it as an overridable
initializer and takes it in a feed), so its value is not a constant; and a graph output names any value of the graph —
a node output, a graph input or an initializer — so a constant may be a graph output without a node producing it.

A pass that merges equal initializers (onnx-ir's ``DeduplicateInitializersPass``, run by ``onnxscript:optimize``;
onnxruntime's ConstantSharing; onnxoptimizer's ``eliminate_duplicate_initializer``) may merge only constants: two
defaults of equal content are two inputs the caller feeds separately, and an initializer that is a graph output keeps
its name there. The library's other forms never feed an overridable input (``runtime_inputs`` leaves inputs with an
initializer unfed, so the ``initializer-as-input`` rewrite computes what its base computes; the hunt's
``vary:default-fed`` feeds one default), and no base held two equal initializers of which one is a default or a graph
output (the ``initializer-output`` rewrite writes a constant graph output as an initializer, with no equal twin).

``fed-defaults`` feeds every input, ``a`` and ``b`` included, so all forms compute the same from the same feeds and
the defaults never decide a value; ``constant-outputs`` returns two equal constants as graph outputs. Each form
passes the full checker and runs under onnxruntime and the reference evaluator. Opset 18, IR 8. onnxsim and onnxslim
are left out of the family's passes: both freeze every default into a constant (onnxsim by its documented
``initializers_as_constants``, onnxslim's ``freeze``: docs/found.md row 580), so every form with a default would
repeat that.
"""

from __future__ import annotations

import numpy as np

from passcheck.cases import Case, register
from passcheck.cases.builders import text_form

FAMILY = "graph-defaults"
OPSET = 18
PASSES = (
    "ort:disabled",
    "ort:basic",
    "ort:all",
    "onnxscript:optimize",
    "onnx-ir:deduplicate-initializers",
    "onnx-ir:deduplicate-hashed-initializers",
    "onnxoptimizer:optimize",
    "onnx:infer-shapes",
)
BINDINGS = ({"N": 1}, {"N": 3})
TAGS = frozenset({"initializers", "interface"})
#: One value for every equal constant and default below (the defaults are never what the feeds give).
K = "{1.0, 2.0, 3.0}"


def _feeds(binding, seed):
    """x: [N, 3]; a, b: [3], normal and distinct from each other and from ``K`` (a default merged with another
    initializer then shows in the output)."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((binding["N"], 3)).astype(np.float32)
    a = rng.standard_normal(3).astype(np.float32) + 10.0
    return {"x": x, "a": a, "b": a - 20.0}


def _register(name: str, forms: dict, doc: str, feeds=None) -> None:
    register(
        Case(
            id=f"{FAMILY}/{name}",
            forms=forms,
            doc=doc,
            opset=OPSET,
            bindings=BINDINGS,
            passes=PASSES,
            tags=TAGS,
            feeds=feeds,
        )
    )


def _fed(consts: str, doc: str):
    body = "d = Sub(a, b)\ne = Mul(d, k)\ny = Add(x, e)"
    text = f"g (float[N,3] x, float[3] a, float[3] b) => (float[N,3] y) <float[3] k = {K}{consts}> {{\n{body}\n}}"
    return text_form(text, doc, opset=OPSET)


_register(
    "fed-defaults",
    {
        "common": _fed("", "a and b plain inputs"),
        "equal-defaults": _fed(f", float[3] a = {K}, float[3] b = {K}", "a and b with one default value each, equal"),
        "default-equal-to-constant": _fed(f", float[3] a = {K}", "a's default equal to the constant k"),
        "one-default": _fed(", float[3] b = {0.0, 0.0, 0.0}", "only b with a default"),
    },
    """y = x + (a - b) * k, a and b graph inputs, every one fed.

Uncommon (IR.md §Graphs, initializer: a default value for the input of its name, which a feed replaces): a and b
with equal defaults; a's default equal to the constant k that a node reads; only b with a default. The feeds give
a and b values unlike any default, so the defaults decide nothing and every form computes what common computes.
Valid: IR 4+ (here 8), opset 18.""",
    feeds=_feeds,
)


def _outputs(consts: str, body: str, doc: str):
    text = f"g (float[N,3] x) => (float[N,3] y, float[3] c1, float[3] c2) <{consts}> {{\ny = Neg(x)\n{body}\n}}"
    return text_form(text, doc, opset=OPSET)


_register(
    "constant-outputs",
    {
        "common": _outputs(f"float[3] k1 = {K}, float[3] k2 = {K}", "c1 = Identity(k1)\nc2 = Identity(k2)", ""),
        "initializer-outputs": _outputs(f"float[3] c1 = {K}, float[3] c2 = {K}", "", "c1 and c2 initializers"),
        "initializer-output-after-constant": _outputs(
            f"float[3] k = {K}, float[3] c1 = {K}", "c2 = Identity(k)", "c1 an initializer after an equal k"
        ),
    },
    """y = -x, and two equal constants c1, c2 as graph outputs.

Uncommon (IR.md §Graphs: a graph output may name an initializer; no node need produce it): c1 and c2 are
initializers themselves; c1 an initializer listed after an equal constant k that c2 copies.
Valid: IR 4+ (here 8), opset 18.""",
)
