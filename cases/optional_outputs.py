"""optional-output/*: optional outputs left off, written ``""``, or produced and unused.

ONNX IR (docs/IR.md, "Optional Inputs and Outputs"): an optional output may be left off the end
of the output list or named ``""`` (which also lets a later output be produced without an
earlier one). Operators.md marks the optional outputs of each op. A pass that counts outputs, or
removes a node only when it has one output, treats these forms differently.
"""

from __future__ import annotations

import numpy as np

from passcheck.cases import Case, register
from passcheck.cases.builders import rng, tensor, text_forms

FAMILY = "optional-output"
PASSES = (
    "ort:disabled",
    "ort:basic",
    "ort:extended",
    "ort:all",
    "onnxscript:optimize",
    "onnx:infer-shapes",
    "onnx:infer-shapes-strict",
    "ort:symbolic-shape-infer",
)
BINDINGS = ({"N": 1}, {"N": 3})


def _case(name: str, doc: str, sig: str, consts: str, forms, opset: int, initializers=(), tags=()) -> None:
    register(
        Case(
            id=f"{FAMILY}/{name}",
            forms=text_forms(sig, consts, forms, opset=opset, initializers=initializers),
            doc=doc,
            opset=opset,
            bindings=BINDINGS,
            passes=PASSES,
            tags=frozenset(tags),
        )
    )


_case(
    "dropout-mask",
    """Inference Dropout: mask omitted vs written "" vs produced and unused.

Uncommon: the optional mask output as "" or produced but never consumed (IR.md "Optional Inputs
and Outputs"; Operators.md Dropout, opset 13: mask optional). Dropout elimination must still fire.
Valid: opset 12+ (here 13).""",
    "(float[N,4] x) => (float[N,4] y)",
    "",
    {
        "common": ("y = Dropout(x)", ""),
        "trailing-empty": ('y, "" = Dropout(x)', 'outputs (y, "")'),
        "mask-unused": ("y, m = Dropout(x)", "mask produced, consumed by nothing"),
    },
    13,
    tags={"dropout"},
)

# BatchNormalization's training outputs as "" are left out of the library: onnx (opset >= 14)
# rejects (Y, "", "") in inference mode by counting output slots, BN-9 allows only 1 or 5 slots,
# and onnxruntime 1.32 crashes (SIGSEGV) running BN-9 with (Y, "", "", "", "") unoptimized.

_case(
    "maxpool-indices",
    """MaxPool 2x2: Indices omitted vs "" vs produced and unused.

Uncommon: the optional Indices output (Operators.md MaxPool, opset 12: Indices optional; IR.md
"Optional Inputs and Outputs"). Pool fusions / layout passes must keep Y identical.
Valid: opset 12+ (here 13).""",
    "(float[N,2,4,4] x) => (float[N,2,2,2] y)",
    "",
    {
        "common": ("y = MaxPool <kernel_shape = [2, 2], strides = [2, 2]> (x)", ""),
        "trailing-empty": ('y, "" = MaxPool <kernel_shape = [2, 2], strides = [2, 2]> (x)', 'outputs (Y, "")'),
        "indices-unused": (
            "y, idx = MaxPool <kernel_shape = [2, 2], strides = [2, 2]> (x)",
            "Indices produced, unused",
        ),
    },
    13,
    tags={"pool"},
)

H, I, T = 3, 2, 3


def _rnn_weights(kind: str, gates: int):
    def make():
        r = rng("optional-output", kind)
        return [
            tensor("W", (r.standard_normal((1, gates * H, I)) * 0.5).astype(np.float32)),
            tensor("R", (r.standard_normal((1, gates * H, H)) * 0.5).astype(np.float32)),
            tensor("last", np.array(-1, np.int64)),
        ]

    return make


for _op, _gates in (("LSTM", 4), ("GRU", 3)):
    _extra = ', ""' if _op == "LSTM" else ""
    _case(
        f"{_op.lower()}-y-h",
        f"""{_op} final hidden state Y_h with Y unused, written "", or Y_h read off Y.

Uncommon: Y written as "" in the middle of the output list to produce only Y_h; B and
sequence_lens written as "" (IR.md "Optional Inputs and Outputs"; Operators.md {_op}, opset 14:
every output optional). For a forward {_op} Y_h equals Y[T-1] (Operators.md {_op}, outputs).
Valid: opset 14+ (here 14).""",
        f"(float[{T},N,{I}] x) => (float[1,N,{H}] Y_h)",
        "",
        {
            "common": (f"Y, Y_h = {_op} <hidden_size = {H}> (x, W, R)", ""),
            "y-empty": (f'"", Y_h = {_op} <hidden_size = {H}> (x, W, R)', 'outputs ("", Y_h)'),
            "inputs-empty": (
                f'"", Y_h{_extra} = {_op} <hidden_size = {H}> (x, W, R, "", "")',
                'B and sequence_lens as ""; outputs ("", Y_h)',
            ),
            "from-y": (
                f"Y = {_op} <hidden_size = {H}> (x, W, R)\nY_h = Gather <axis = 0> (Y, last)",
                "Y_h as Gather(Y, -1)",
            ),
        },
        14,
        initializers=_rnn_weights(_op, _gates),
        tags={"rnn"},
    )
