"""optional-input/*: an optional input written as ``""`` vs omitted (seed 003, §1).

ONNX IR (docs/IR.md, "Optional inputs and outputs"): an optional input may be left off the end
of the input list or given the empty name ``""``; both mean "not present". Conv's bias ``B`` is
optional (Operators.md, Conv). A pass that counts inputs instead of checking that slot 2 exists
and is non-empty takes the "has bias" path on a model that has none.
"""

from __future__ import annotations

import numpy as np

from passcheck.cases import Case, Expectation, Form, register
from passcheck.cases.builders import FLOAT, model, node, rng, tensor, vi

OPSET = 17
C_IN, C_OUT = 3, 4
ORT_PASSES = ("ort:disabled", "ort:basic", "ort:extended", "ort:all", "onnxscript:optimize", "onnx:infer-shapes")


def _conv_then(case_id: str, follow: str, bias: str):
    """Conv (pads 1, 3x3) on x: [N, 3, 8, 8] then ``follow``; ``bias`` is omitted, empty, initializer or constant."""

    def build():
        r = rng(case_id)
        inits = [tensor("w", r.standard_normal((C_OUT, C_IN, 3, 3)).astype(np.float32))]
        nodes = []
        conv_in = ["x", "w"]
        if bias == "empty":
            conv_in.append("")
        elif bias == "initializer":
            inits.append(tensor("b", r.standard_normal(C_OUT).astype(np.float32)))
            conv_in.append("b")
        elif bias == "constant":
            nodes.append(
                node(
                    "Constant",
                    [],
                    ["b"],
                    name="bias_const",
                    value=tensor("b_value", r.standard_normal(C_OUT).astype(np.float32)),
                )
            )
            conv_in.append("b")
        if bias in ("initializer", "constant"):
            r = rng(case_id, "follow")  # same follower constants whatever the bias spelling
        nodes.append(node("Conv", conv_in, ["c"], name="conv", pads=[1, 1, 1, 1]))
        if follow == "BatchNormalization":
            inits += [
                tensor("scale", r.uniform(0.5, 1.5, C_OUT).astype(np.float32)),
                tensor("shift", r.standard_normal(C_OUT).astype(np.float32)),
                tensor("mean", r.standard_normal(C_OUT).astype(np.float32)),
                tensor("var", r.uniform(0.5, 1.5, C_OUT).astype(np.float32)),
            ]
            nodes.append(node("BatchNormalization", ["c", "scale", "shift", "mean", "var"], ["y"], name="bn"))
        elif follow in ("Add", "Mul"):
            inits.append(tensor("k", r.uniform(0.5, 1.5, (C_OUT, 1, 1)).astype(np.float32)))
            nodes.append(node(follow, ["c", "k"], ["y"], name=follow.lower()))
        elif follow == "Relu":
            nodes.append(node("Relu", ["c"], ["y"], name="relu"))
        return model(
            nodes,
            [vi("x", FLOAT, ["N", C_IN, 8, 8])],
            [vi("y", FLOAT, ["N", C_OUT, 8, 8])],
            opset=OPSET,
            initializers=inits,
        )

    return build


def _register(name: str, follow: str, doc: str, expect=()):
    cid = f"optional-input/{name}"
    register(
        Case(
            id=cid,
            forms={
                "common": Form(_conv_then(cid, follow, "omitted")),
                "empty-name": Form(
                    _conv_then(cid, follow, "empty"),
                    'Conv(x, w, "") — the optional bias slot written as the empty name',
                ),
            },
            doc=doc,
            opset=OPSET,
            bindings=({"N": 1}, {"N": 3}),
            passes=ORT_PASSES,
            tags=frozenset({"fusion", "conv", "seed"}),
            expect=expect,
        )
    )


_register(
    "conv-bn",
    "BatchNormalization",
    """Conv without bias, then BatchNormalization.

Uncommon: the bias written as "" instead of omitted (IR.md "Optional inputs"; Operators.md Conv:
B is optional). ORT's Conv+BatchNormalization fusion should fold BN into the Conv's weights and a
new bias in both forms (microsoft/onnxruntime#34139).""",
    expect=(
        Expectation(
            pass_id="ort:basic",
            form="common",
            no_op_types=("BatchNormalization",),
            reason="ConvBNFusion at basic level",
        ),
    ),
)
_register(
    "conv-add",
    "Add",
    """Conv without bias, then Add of a per-channel constant [C, 1, 1].

Uncommon: the bias written as "" (IR.md "Optional inputs"). ORT's Conv+Add fusion folds the
constant into the bias in both forms (microsoft/onnxruntime#34139).""",
)
_register(
    "conv-mul",
    "Mul",
    """Conv without bias, then Mul by a per-channel constant [C, 1, 1].

Uncommon: the bias written as "" (IR.md "Optional inputs"). ORT's Conv+Mul fusion scales the
weights in both forms (microsoft/onnxruntime#34139).""",
)
_register(
    "conv-relu",
    "Relu",
    """Conv without bias, then Relu.

Uncommon: the bias written as "" (IR.md "Optional inputs"). ORT's extended level fuses Conv+Relu
into FusedConv (com.microsoft); which level does what on each form is passcheck's to report.""",
)

register(
    Case(
        id="optional-input/conv-bn-bias-control",
        forms={
            "common": Form(_conv_then("optional-input/conv-bn-bias-control", "BatchNormalization", "initializer")),
            "bias-constant-node": Form(
                _conv_then("optional-input/conv-bn-bias-control", "BatchNormalization", "constant"),
                "the bias comes from a Constant node instead of an initializer",
            ),
        },
        doc="""Control: Conv with a present bias, then BatchNormalization.

Both forms have the bias (an initializer vs a Constant node, Operators.md Constant), so a correct
"has bias" check takes the same path on both; passcheck must report nothing here.""",
        opset=OPSET,
        bindings=({"N": 1}, {"N": 3}),
        passes=ORT_PASSES,
        tags=frozenset({"fusion", "conv", "control", "seed"}),
    )
)
