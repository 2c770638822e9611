"""fusion-attention/*: a small BERT self-attention block, spelled every valid way.

The block (opset 12): decomposed LayerNorm of x: [N, 4, 8]; per head (2 heads of size 4)
q, k, v = MatMul + Add bias, Reshape [0, 0, 2, 4], Transpose; scores = q @ k^T / sqrt(4) plus the
additive mask (1 - mask) * -10000 from mask: [N, 4] through Unsqueeze, Unsqueeze, Cast, Sub, Mul;
Softmax(axis 3); context = scores @ v, Transpose, Reshape [0, 0, 8]; output MatMul + Add bias, plus
the LayerNorm output (residual). Operators.md MatMul/Reshape (0 copies the input dim)/Transpose/
Softmax-11 (axis 3 of a 4-D input: the last axis)/Unsqueeze-11 (axes attribute); Div by 2 equals
Mul by 0.5 exactly; Add is commutative; Transpose [0, 2, 1, 3] then [0, 1, 3, 2] equals [0, 2, 3, 1].
onnxruntime's AttentionFusion (after LayerNormFusion) rewrites it into com.microsoft Attention with
a mask index (ReduceSum of the mask): the feeds give right-padded 0/1 masks, the contract of that
index.
"""

from __future__ import annotations

import numpy as np

from passcheck.cases.builders import rng
from passcheck.cases.fusion import fusion_case

FAMILY = "fusion-attention"
W, HEADS, HEAD = 8, 2, 4
R = rng(FAMILY)
CONSTS = {
    **{f"w{p}": R.standard_normal((W, W)) * 0.3 for p in "qkvo"},
    **{f"b{p}": R.standard_normal(W) * 0.1 for p in "qkvo"},
    "g": np.linspace(0.5, 1.5, W),
    "b": np.linspace(-0.5, 0.5, W),
    "two": np.array(2.0),
    "eps": np.array(1e-5),
    "sqrt_head": np.array(np.sqrt(HEAD)),
    "inv_sqrt_head": np.array(1 / np.sqrt(HEAD)),
    "one": np.array(1.0),
    "neg": np.array(-10000.0),
    "shape4": np.array([0, 0, HEADS, HEAD], dtype=np.int64),
    "shape3": np.array([0, 0, W], dtype=np.int64),
}
LN = """m = ReduceMean <axes = [-1]> (x)
d = Sub(x, m)
p = Pow(d, two)
v = ReduceMean <axes = [-1]> (p)
ve = Add(v, eps)
s = Sqrt(ve)
nm = Div(d, s)
t = Mul(nm, g)
ln = Add(t, b)"""


def _proj(name: str, perm: str) -> str:
    return (
        f"{name}m = MatMul(ln, w{name})\n{name}a = Add({name}m, b{name})\n{name}r = Reshape({name}a, shape4)\n"
        f"{name}t = Transpose <perm = {perm}> ({name}r)"
    )


def _block(*, k=None, scale="qd = Div(qk, sqrt_head)", mask_add="sa = Add(qd, mm)", residual="y = Add(oa, ln)") -> str:
    return "\n".join(
        (
            LN,
            _proj("q", "[0, 2, 1, 3]"),
            k or _proj("k", "[0, 2, 3, 1]"),
            _proj("v", "[0, 2, 1, 3]"),
            "qk = MatMul(qt, kt)",
            scale,
            "mu1 = Unsqueeze <axes = [1]> (mask)\nmu2 = Unsqueeze <axes = [2]> (mu1)\nmc = Cast <to = 1> (mu2)\nms = Sub(one, mc)\nmm = Mul(ms, neg)",
            mask_add,
            "sm = Softmax <axis = 3> (sa)",
            "ctx = MatMul(sm, vt)",
            "ct = Transpose <perm = [0, 2, 1, 3]> (ctx)",
            "cr = Reshape(ct, shape3)",
            "om = MatMul(cr, wo)",
            "oa = Add(om, bo)",
            residual,
        )
    )


def _feeds(binding, seed):
    """x: normal; mask: right-padded 0/1 rows (row i keeps its first 4 - i % 4 tokens)."""
    n = binding["N"]
    x = np.random.default_rng(seed).standard_normal((n, 4, W)).astype(np.float32)
    mask = np.array([[1 if j < 4 - i % 4 else 0 for j in range(4)] for i in range(n)], dtype=np.int64)
    return {"x": x, "mask": mask}


fusion_case(
    f"{FAMILY}/bert-block",
    transformer="AttentionFusion",
    level="extended",
    opset=12,
    signature="(T[N,4,8] x, int64[N,4] mask) => (T[N,4,8] y)",
    consts=CONSTS,
    gone=("Softmax",),
    feeds=_feeds,
    tags=("attention",),
    doc="""Self-attention block of a BERT layer (2 heads of 4, hidden 8), x: [N, 4, 8], mask: [N, 4] (float).

Common: the torch.onnx / HF BERT export at opset 12 (see the module docstring). Uncommon: the score
scaling as Mul by 1/sqrt(4), the mask and residual Adds with swapped operands, and k's Transpose
[0, 2, 3, 1] as Transpose [0, 2, 1, 3] then [0, 1, 3, 2] (Operators.md Div/Mul/Add/Transpose).""",
    forms={
        "common": (_block(), ""),
        "scale-mul": (_block(scale="qd = Mul(qk, inv_sqrt_head)"), "q @ k^T times 0.5 instead of divided by 2"),
        "mask-add-swapped": (_block(mask_add="sa = Add(mm, qd)"), "Add(mask term, scores)"),
        "residual-swapped": (_block(residual="y = Add(ln, oa)"), "the residual Add with the LayerNorm output first"),
        "k-two-transposes": (
            _block(
                k=_proj("k", "[0, 2, 1, 3]").replace("kt = ", "k1 = ") + "\nkt = Transpose <perm = [0, 1, 3, 2]> (k1)"
            ),
            "k's Transpose [0, 2, 3, 1] as [0, 2, 1, 3] then [0, 1, 3, 2]",
        ),
    },
)
