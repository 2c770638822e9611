"""graph-structure/*: the same computation with a different but valid graph layout.

IR.md "Graphs": nodes must be topologically sorted (any valid order); node names are optional and
used only for diagnostics; a graph output may be an initializer; a value may feed any number of
nodes; initializers and opset imports need not be used. Operators.md Identity copies its input.
A pass that assumes one producer order, named nodes, or "outputs come from nodes" breaks on these.
"""

from __future__ import annotations

import numpy as np

from passcheck.cases import Case, Form, register
from passcheck.cases.builders import FLOAT, model, node, tensor, text_forms, vi

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
TAGS = frozenset({"graph-structure"})


def _case(name, doc, forms, **kw):
    register(
        Case(
            id=f"graph-structure/{name}",
            forms=forms,
            doc=doc,
            opset=OPSET,
            bindings=BINDINGS,
            passes=PASSES,
            tags=TAGS | kw.pop("tags", frozenset()),
            **kw,
        )
    )


_case(
    "topological-order",
    """a = Relu(x), b = Sigmoid(x), y = a * b + a: nodes in two different valid orders.

Uncommon: independent nodes listed in another topological order (IR.md "Graphs": any topological
order is valid). Fusions that look only at the next node in the list miss one order.
Valid: every opset (here 13).""",
    text_forms(
        "(float[N,4] x) => (float[N,4] y)",
        "",
        {
            "common": ("a = Relu(x)\nb = Sigmoid(x)\nm = Mul(a, b)\ny = Add(m, a)", ""),
            "reordered": (
                "b = Sigmoid(x)\na = Relu(x)\nm = Mul(b, a)\ny = Add(a, m)",
                "Sigmoid first, commuted operands",
            ),
        },
        opset=OPSET,
    ),
)


def _named(names: str):
    def make():
        label = {"named": lambda s: s, "empty": lambda s: ""}[names]
        nodes = [
            node("MatMul", ["x", "w"], ["m"], name=label("mm")),
            node("Add", ["m", "b"], ["a"], name=label("add")),
            node("Relu", ["a"], ["y"], name=label("relu")),
        ]
        w = np.arange(12, dtype=np.float32).reshape(4, 3) / 10
        return model(
            nodes,
            [vi("x", FLOAT, ["N", 4])],
            [vi("y", FLOAT, ["N", 3])],
            opset=OPSET,
            initializers=[tensor("w", w), tensor("b", np.array([0.1, -0.2, 0.3], np.float32))],
        )

    return make


_case(
    "node-names",
    """MatMul + Add + Relu with named nodes vs every node name empty.

Uncommon: nodes without names (IR.md "Nodes": name is optional, for diagnostics; "Names Within a
Graph": non-empty node names are unique). Passes that key maps by node name collide on "".
Valid: every opset (here 13).""",
    {"common": Form(_named("named")), "empty-names": Form(_named("empty"), "every node name empty")},
)


def _init_output():
    return model(
        [node("Add", ["x", "c"], ["y"])],
        [vi("x", FLOAT, ["N", 3])],
        [vi("y", FLOAT, ["N", 3]), vi("c", FLOAT, [3])],
        opset=OPSET,
        initializers=[tensor("c", np.array([1, 2, 3], np.float32))],
    )


def _input_output(kind: str):
    def make():
        nodes = [node("Relu", ["x"], ["y"])]
        outs = (
            [vi("y", FLOAT, ["N", 3]), vi("x", FLOAT, ["N", 3])]
            if kind == "direct"
            else [vi("y", FLOAT, ["N", 3]), vi("xc", FLOAT, ["N", 3])]
        )
        if kind != "direct":
            nodes.append(node("Identity", ["x"], ["xc"]))
        return model(nodes, [vi("x", FLOAT, ["N", 3])], outs, opset=OPSET)

    return make


_case(
    "same-tensor-consumed-twice",
    """x * x + x: x consumed by two slots of one node and by another node, vs through Identity copies.

Uncommon: one value feeding both inputs of a node (IR.md "Graphs": a value may have any number of
consumers). Passes that assume one consumer per input edge rewire the wrong slot.
Valid: every opset (here 13).""",
    text_forms(
        "(float[N,4] x) => (float[N,4] y)",
        "",
        {
            "common": ("xi = Identity(x)\nm = Mul(x, xi)\ny = Add(m, x)", ""),
            "twice": ("m = Mul(x, x)\ny = Add(m, x)", "Mul(x, x)"),
            "pow": ("two = Constant <value_float = 2.0> ()\nm = Pow(x, two)\ny = Add(m, x)", "Pow(x, 2)"),
        },
        opset=OPSET,
    ),
)

_case(
    "identity-chain",
    """Relu(x) vs Relu(Identity(Identity(x))) vs Identity(Identity(Relu(x))) feeding the output.

Uncommon: chains of Identity before a node and before a graph output (Operators.md Identity). Identity
elimination must keep the graph output's name.
Valid: every opset (here 13).""",
    text_forms(
        "(float[N,4] x) => (float[N,4] y)",
        "",
        {
            "common": ("y = Relu(x)", ""),
            "before": ("i1 = Identity(x)\ni2 = Identity(i1)\ny = Relu(i2)", "two Identity nodes before Relu"),
            "after": ("r = Relu(x)\ni1 = Identity(r)\ny = Identity(i1)", "two Identity nodes before the graph output"),
        },
        opset=OPSET,
    ),
)

_case(
    "unused-parts",
    """y = Relu(x) with an unused initializer, an unused opset import and a dead node.

Uncommon: an initializer nobody reads, an opset import (ai.onnx.ml) no node uses, and a node whose
output is never consumed (IR.md "Graphs", "Opset imports": all allowed).
Valid: every opset (here 13).""",
    {
        "common": text_forms("(float[N,4] x) => (float[N,4] y)", "", {"common": ("y = Relu(x)", "")}, opset=OPSET)[
            "common"
        ],
        **text_forms(
            "(float[N,4] x) => (float[N,4] y)",
            "<float[2] unused = {1., 2.}>",
            {"unused-initializer": ("y = Relu(x)", "an initializer nobody reads")},
            opset=OPSET,
        ),
        **text_forms(
            "(float[N,4] x) => (float[N,4] y)",
            "",
            {"unused-opset": ("y = Relu(x)", "opset import ai.onnx.ml 3 unused")},
            opset=OPSET,
            extra_opsets={"ai.onnx.ml": 3},
        ),
        **text_forms(
            "(float[N,4] x) => (float[N,4] y)",
            "",
            {"dead-node": ("y = Relu(x)\nd = Sigmoid(x)", "a Sigmoid whose output is unused")},
            opset=OPSET,
        ),
    },
)

_case(
    "output-is-input-copy",
    """Outputs y = Relu(x) and x itself: x listed directly as a graph output vs copied.

Uncommon: a graph input that is also a graph output (IR.md "Graphs"). Here both forms list x as an
output; the uncommon form also reads x through Identity (a pass must not rename the output x).
Valid: every opset (here 13).""",
    {
        "common": Form(_input_output("direct")),
        "identity-consumed": Form(lambda: _with_identity(), "y = Relu(Identity(x)), x also an output"),
    },
)


def _with_identity():
    m = _input_output("direct")()
    m.graph.node.insert(0, node("Identity", ["x"], ["xi"]))
    m.graph.node[1].input[0] = "xi"
    return m


register(
    Case(
        id="graph-structure/initializer-output",
        forms={
            "common": text_forms(
                "(float[N,3] x) => (float[N,3] y, float[3] c)",
                "",
                {"common": ("c = Constant <value = float[3] {1., 2., 3.}> ()\ny = Add(x, c)", "")},
                opset=OPSET,
            )["common"],
            "initializer-output": Form(_init_output, "c is an initializer listed as a graph output"),
        },
        doc="""Outputs y = x + c and c: c from a Constant node vs an initializer listed as a graph output.

Uncommon: a graph output that no node produces, only an initializer (IR.md "Graphs": IR >= 4 lets
initializers stand alone). Constant folding or Identity removal must keep output c.
Valid: ir_version 4+ (here 7, opset 13).""",
        opset=OPSET,
        bindings=BINDINGS,
        passes=PASSES,
        tags=TAGS,
    )
)
