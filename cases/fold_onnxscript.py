"""fold-onnxscript/*: ops the onnxscript constant folder evaluates, on constants as exporters leave them.

onnxscript's optimizer (onnxscript/optimizer/_constant_folding.py) evaluates a node whose inputs are
all constant (Abs, Add, Squeeze here) and rewrites SplitToSequence with a constant ``split`` into
Split + SequenceConstruct, so a SequenceAt of it reads one Split output. Each common form is what an
export leaves when a weight transform is traced (torch.abs, a bias sum, squeeze(0) of a parameter;
torch.split into a list). Uncommon forms compute the same values (Operators.md): the value stored
pre-computed, the constant as a Constant node's output (IR.md: both are constants of the graph),
|c| = Max(c, Neg(c)), Sum of two equals Add, Squeeze without axes drops every size-1 dim, Reshape to
[3] equals Squeeze of [1, 3], Squeeze-11 takes ``axes`` as an attribute, ``split`` 4 (a scalar)
splits 8 into equal chunks of 4, SequenceAt's ``position`` -1 is the last.
"""

from __future__ import annotations

import numpy as np

from passcheck.cases.rules import onnxscript_case

FAMILY = "fold-onnxscript"
PASS = "onnxscript:optimize"
C = np.array([-1.5, 2.0, -3.0], np.float32)
D = np.array([0.5, -1.0, 0.25], np.float32)
CONSTS = {
    "c": C,
    "d": D,
    "abs_c": np.abs(C),
    "c_plus_d": C + D,
    "c13": C.reshape(1, 3),
    "ax0": np.array([0], np.int64),
    "s3": np.array([3], np.int64),
    "sp": np.array([4, 4], np.int64),
    "sp4": np.array(4, np.int64),
    "one": np.array(1, np.int64),
    "last": np.array(-1, np.int64),
}
SIG = "(float[N,3] x) => (float[N,3] y)"
CONST_NODE = "k = Constant <value = float[3] {-1.5, 2.0, -3.0}> ()\n"


def _case(name: str, op: str, doc: str, forms: dict, sig: str = SIG, **kw) -> None:
    onnxscript_case(
        f"{FAMILY}/{name}", f"ai.onnx::{op}", doc, forms, sig, consts=CONSTS, pass_id=PASS, kind="fold", **kw
    )


_case(
    "abs",
    "Abs",
    "x + |c| of x: [N, 3] and a constant c: [3] (float).\n\nUncommon: |c| stored; c from a Constant node;"
    " Max(c, Neg(c)) (Operators.md Abs, Max, Neg, Constant).",
    {
        "common": ("a = Abs(c)\ny = Add(x, a)", ""),
        "precomputed": ("y = Add(x, abs_c)", "|c| stored"),
        "constant-node": (CONST_NODE + "a = Abs(k)\ny = Add(x, a)", "c from a Constant node"),
        "max-neg": ("n = Neg(c)\na = Max(c, n)\ny = Add(x, a)", "|c| as Max(c, -c)"),
    },
)
_case(
    "add",
    "Add",
    "x * (c + d) of x: [N, 3] and constants c, d: [3] (float).\n\nUncommon: c + d stored; c from a Constant node;"
    " Sum(c, d) (Operators.md Add, Sum, Constant).",
    {
        "common": ("a = Add(c, d)\ny = Mul(x, a)", ""),
        "precomputed": ("y = Mul(x, c_plus_d)", "c + d stored"),
        "constant-node": (CONST_NODE + "a = Add(k, d)\ny = Mul(x, a)", "c from a Constant node"),
        "sum": ("a = Sum(c, d)\ny = Mul(x, a)", "Sum(c, d)"),
    },
)
_case(
    "squeeze",
    "Squeeze",
    "x * squeeze(c, 0) of x: [N, 3] and a constant c: [1, 3] (float).\n\nUncommon: the value stored; Squeeze without"
    " axes; Reshape to [3]; Squeeze-11 with the axes attribute (Operators.md Squeeze, Reshape).",
    {
        "common": ("a = Squeeze(c13, ax0)\ny = Mul(x, a)", ""),
        "precomputed": ("y = Mul(x, c)", "the squeezed value stored"),
        "no-axes": ("a = Squeeze(c13)\ny = Mul(x, a)", "Squeeze without axes"),
        "reshape": ("a = Reshape(c13, s3)\ny = Mul(x, a)", "Reshape to [3]"),
        "opset-11": ("a = Squeeze <axes = [0]> (c13)\ny = Mul(x, a)", "Squeeze-11, axes attribute", 11),
    },
)
_case(
    "split-to-sequence",
    "SplitToSequence",
    "The second half of x: [N, 8] along axis 1 (float): [N, 4], through a sequence of the two halves.\n\n"
    "Uncommon: Split and its second output; split 4 (scalar); SequenceAt position -1"
    " (Operators.md SplitToSequence, Split, SequenceAt).",
    {
        "common": ("s = SplitToSequence <axis = 1> (x, sp)\ny = SequenceAt(s, one)", ""),
        "split": ("a, b = Split <axis = 1> (x, sp)\ny = Identity(b)", "Split, its second output"),
        "scalar-split": ("s = SplitToSequence <axis = 1> (x, sp4)\ny = SequenceAt(s, one)", "split 4 (scalar)"),
        "position-last": ("s = SplitToSequence <axis = 1> (x, sp)\ny = SequenceAt(s, last)", "position -1"),
    },
    "(float[N,8] x) => (float[N,4] y)",
)
