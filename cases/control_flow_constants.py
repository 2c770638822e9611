"""control-flow/*: constants inside If branches and Loop / Scan bodies, spelled several ways.

IR.md "Graphs": a subgraph (an If branch, a Loop or Scan body) is a GraphProto and may hold its
own initializers; it may read any value of an enclosing graph by name (outer scope), and its
outputs may name such a value. Operators.md If: with a constant ``cond`` only one branch runs;
Loop (trip count 1, cond true) runs its body once; Scan applies its body to each slice along axis
0. Every form computes y = Relu(x) * 0.5 for x: [N, 4].
"""

from __future__ import annotations

import numpy as np
import onnx.helper

from passcheck.cases import Case, Form, register
from passcheck.cases.builders import FLOAT, model, node, tensor, vi
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
HALF = np.array(0.5, np.float32)


def _graph(name, nodes, outputs, inits=(), inputs=()):
    return onnx.helper.make_graph(list(nodes), name, list(inputs), list(outputs), list(inits))


def _scale(kind: str, name: str, nodes: list, inits: list) -> str:
    """The name of a 0.5 scalar inside a subgraph: its own initializer, a Constant node in it, or
    the outer-scope initializer ``k``."""
    if kind == "initializer":
        inits.append(tensor(name, HALF))
    elif kind == "constant":
        nodes.append(node("Constant", [], [name], name=f"{name}_const", value=tensor(f"{name}_value", HALF)))
    else:
        return "k"
    return name


def _if(spelling: str, opset: int = OPSET):
    """y from an If on the constant true ``t``; the taken (then) branch holds ``spelling``."""
    nodes, inits = [], [tensor("k", HALF), tensor("t", np.array(True))]
    other = _graph(
        "else",
        [node("Constant", [], ["two"], value=tensor("two_value", np.array(2.0, np.float32)))],
        [vi("two", FLOAT, [])],
    )
    if spelling == "common":
        nodes += [node("Relu", ["x"], ["r"], name="relu"), node("Mul", ["r", "k"], ["y"], name="mul")]
    elif spelling == "branch-initializer":
        then = _graph(
            "then",
            [node("Relu", ["x"], ["br"]), node("Mul", ["br", "kb"], ["a"])],
            [vi("a", FLOAT, ["N", 4])],
            [tensor("kb", HALF)],
        )
        neg = _graph("else", [node("Neg", ["x"], ["b"])], [vi("b", FLOAT, ["N", 4])])
        nodes.append(node("If", ["t"], ["y"], name="if", then_branch=then, else_branch=neg))
    else:
        if spelling == "branch-constants-only":
            quarter = tensor("quarter_value", np.array(0.25, np.float32))
            then = _graph(
                "then",
                [node("Constant", [], ["q"], value=quarter), node("Add", ["q", "q"], ["s_then"])],
                [vi("s_then", FLOAT, [])],
            )
        elif spelling == "branch-outer-value":  # the branch returns the outer Relu(x) through Identity
            then = _graph("then", [node("Identity", ["r"], ["s_then"])], [vi("s_then", FLOAT, ["N", 4])])
            other = _graph("else", [node("Neg", ["x"], ["b"])], [vi("b", FLOAT, ["N", 4])])
        else:  # branch-outer-scope: the branch's only node is Identity of the outer initializer k
            then = _graph("then", [node("Identity", ["k"], ["s_then"])], [vi("s_then", FLOAT, [])])
        nodes += [
            node("Relu", ["x"], ["r"], name="relu"),
            node("If", ["t"], ["s"], name="if", then_branch=then, else_branch=other),
            node("Mul", ["s", "k" if spelling == "branch-outer-value" else "r"], ["y"], name="mul"),
        ]
    return model(nodes, [vi("x", FLOAT, ["N", 4])], [vi("y", FLOAT, ["N", 4])], opset=opset, initializers=inits)


def _loop(spelling: str):
    """y from a Loop that runs once (trip count 1, cond true), x loop-carried; 0.5 per ``spelling``."""
    nodes, inits = [], [tensor("k", HALF), tensor("t", np.array(True)), tensor("one", np.array(1, np.int64))]
    if spelling == "common":
        nodes += [node("Relu", ["x"], ["r"], name="relu"), node("Mul", ["r", "k"], ["y"], name="mul")]
    else:
        bnodes, binits = [node("Identity", ["c"], ["co"])], []
        scale = _scale(spelling.removeprefix("body-").removesuffix("-scope"), "kb", bnodes, binits)
        bnodes += [node("Relu", ["v"], ["br"]), node("Mul", ["br", scale], ["vo"])]
        body = _graph(
            "body",
            bnodes,
            [vi("co", onnx.TensorProto.BOOL, []), vi("vo", FLOAT, ["N", 4])],
            binits,
            [vi("i", onnx.TensorProto.INT64, []), vi("c", onnx.TensorProto.BOOL, []), vi("v", FLOAT, ["N", 4])],
        )
        nodes.append(node("Loop", ["one", "t", "x"], ["y"], name="loop", body=body))
    return model(nodes, [vi("x", FLOAT, ["N", 4])], [vi("y", FLOAT, ["N", 4])], opset=OPSET, initializers=inits)


def _scan(spelling: str):
    """y from a Scan over axis 0 of x (one row per iteration, no state); 0.5 per ``spelling``."""
    nodes, inits = [], [tensor("k", HALF)]
    if spelling == "common":
        nodes += [node("Relu", ["x"], ["r"], name="relu"), node("Mul", ["r", "k"], ["y"], name="mul")]
    else:
        bnodes, binits = [], []
        scale = _scale(spelling.removeprefix("body-").removesuffix("-scope"), "kb", bnodes, binits)
        bnodes += [node("Relu", ["xi"], ["br"]), node("Mul", ["br", scale], ["yi"])]
        body = _graph("body", bnodes, [vi("yi", FLOAT, [4])], binits, [vi("xi", FLOAT, [4])])
        nodes.append(node("Scan", ["x"], ["y"], name="scan", body=body, num_scan_inputs=1))
    return model(nodes, [vi("x", FLOAT, ["N", 4])], [vi("y", FLOAT, ["N", 4])], opset=OPSET, initializers=inits)


def _register(name: str, build, forms: dict, doc: str) -> None:
    register(
        Case(
            id=f"control-flow/{name}",
            forms={f: Form((lambda s: lambda: build(s))(f), d) for f, d in {"common": "", **forms}.items()},
            doc=doc,
            opset=OPSET,
            bindings=BINDINGS,
            passes=PASSES,
            tags=frozenset({"control-flow", "subgraph", "constant"}),
        )
    )


_register(
    "if-branch-constants",
    _if,
    {
        "branch-initializer": "If(true): the then branch computes Relu(x) * kb, kb an initializer of the branch itself",
        "branch-constants-only": "If(true): the then branch uses only constants (Constant 0.25 + itself)",
        "branch-outer-scope": "If(true): the then branch returns Identity of the outer initializer k (0.5)",
        "branch-outer-value": "If(true): the then branch returns Identity of the outer value Relu(x); Mul by k after",
    },
    """Relu(x) * 0.5 inline vs through an If whose condition is the constant true.

Uncommon: the taken branch holds its own initializer, computes from constants only, or returns an
outer-scope value (an initializer, or a node output of the main graph) through Identity (the onnx
checker wants every branch output produced by a node of the branch); IR.md "Graphs": subgraph
initializers and outer-scope names. A pass that inlines the taken branch must carry its
initializers and resolve outer names.
Valid: opset 16+ (If-16, here 17).""",
)

_register(
    "loop-body-constants",
    _loop,
    {
        "body-initializer": "Loop once: the body's 0.5 is an initializer of the body",
        "body-constant": "Loop once: the body's 0.5 is a Constant node in the body",
        "body-outer-scope": "Loop once: the body reads the outer initializer k",
    },
    """Relu(x) * 0.5 inline vs inside a Loop that runs once, the 0.5 spelled three ways in the body.

Uncommon: a constant held by the Loop body as its own initializer or a Constant node, or read from
the outer scope (IR.md "Graphs"; Operators.md Loop, trip count 1 and cond true).
Valid: opset 16+ (Loop-16, here 17).""",
)

_register(
    "scan-body-constants",
    _scan,
    {
        "body-initializer": "Scan over rows: the body's 0.5 is an initializer of the body",
        "body-constant": "Scan over rows: the body's 0.5 is a Constant node in the body",
        "body-outer-scope": "Scan over rows: the body reads the outer initializer k",
    },
    """Relu(x) * 0.5 inline vs row by row in a Scan, the 0.5 spelled three ways in the body.

Uncommon: a Scan (Operators.md Scan-16, one scan input, no state) whose body holds the constant as
its own initializer or a Constant node, or reads it from the outer scope (IR.md "Graphs").
Valid: opset 16+ (here 17).""",
)

register(
    opset_case(
        "control-flow/if-branch-initializer-opsets",
        lambda v: _if("branch-initializer", v),
        OPSET,
        what="Relu(x) * 0.5 through If(true), the branch holding its own initializer",
        bindings=BINDINGS,
        passes=PASSES,
        tags=frozenset({"control-flow", "subgraph", "opset"}),
    )
)
