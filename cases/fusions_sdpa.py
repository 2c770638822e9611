"""fusion-sdpa/*: scaled dot-product attention as exporters emit it, for onnxscript's ORT fusions.

``onnxscript:optimize-for-ort`` runs ``fuse_xformers`` (onnxscript rewriter/ort_fusions/_core.py):
``sdpa`` (sdpa.py) turns MatMul(q, Transpose(k)) [scaled] [+ mask] -> Softmax(axis -1) -> MatMul(., v)
on rank-4 q, k, v into a temporary ``ai.onnxruntime._fusion`` SDPA node; ``mha1`` / ``mha2`` (mha.py)
absorb the per-head Reshape/Transpose around it into com.microsoft MultiHeadAttention (``mha1``: with
a past key/value Concat on axis -2); ``mha_scale`` (mha_scale.py) folds a Mul of the 3-D query into the
MHA's ``scale``; ``mha_bias`` (mha_bias.py) folds the q/k/v bias Adds into MHA's packed bias;
``attention`` (attention.py) turns three MatMuls of one input into com.microsoft Attention; an SDPA
no MHA rule took becomes MultiHeadAttention through ``sdpa_via_mha`` (sdpa_via_mha.py).

Equivalences the uncommon forms use (Operators.md): Add and Mul are commutative; Div by c equals Mul
by 1/c up to rounding; Softmax-13 ``axis`` 3 of a rank-4 input is axis -1, and Softmax-11 (opset 12)
on axis -1 coerces to [prod(leading dims), last dim], the same values; Concat ``axis`` 2 of rank-4
inputs is axis -2; Transpose [0, 1, 3, 2] equals Reshape to 3-D, Transpose [0, 2, 1], Reshape back,
and equals Transpose [0, 2, 1, 3] then [0, 2, 3, 1]; an Add broadcasts a [4, 4] mask as [1, 1, 4, 4]
(multidirectional broadcasting).
"""

from __future__ import annotations

import numpy as np

from passcheck.cases.builders import rng
from passcheck.cases.rules import onnxscript_case

FAMILY = "fusion-sdpa"
PASS = "onnxscript:optimize-for-ort"
D, HEADS, HEAD = 16, 2, 8
R = rng(FAMILY)
CONSTS: dict = {
    **{f"w{p}": (R.standard_normal((D, D)) * 0.3).astype(np.float32) for p in "qkv"},
    **{f"b{p}": (R.standard_normal(D) * 0.1).astype(np.float32) for p in "qkv"},
    "scale": np.array(np.sqrt(HEAD), np.float32),
    "inv": np.array(1 / np.sqrt(HEAD), np.float32),
    "quarter": np.array(HEAD**-0.25, np.float32),
    "s4": np.array([0, 0, HEADS, HEAD], np.int64),
    "s3": np.array([0, 0, D], np.int64),
    "s44": np.array([4, 4], np.int64),
    "k3s": np.array([-1, 4, HEAD], np.int64),
    "k4s": np.array([-1, HEADS, HEAD, 4], np.int64),
}
CONSTS["bq3"] = CONSTS["bq"].reshape(1, 1, D)


def _case(name: str, rule: str, doc: str, forms: dict, sig: str, **kw) -> None:
    onnxscript_case(f"{FAMILY}/{name}", rule, doc, forms, sig, consts=CONSTS, pass_id=PASS, kind="fusion", **kw)


# ---- bare SDPA on rank-4 q, k, v: sdpa, then sdpa_via_mha --------------------------------------
KT = "kt = Transpose <perm = [0, 1, 3, 2]> (k)\n"
SCORES = "s = MatMul(q, kt)\nd = Div(s, scale)\n"
TAIL = "a = Add(d, mask)\nw = Softmax <axis = -1> (a)\ny = MatMul(w, v)"
BARE = KT + SCORES + TAIL
_case(
    "bare",
    "sdpa",
    """softmax(q @ k^T / sqrt(8) + mask) @ v of q, k, v: [N, 2, 4, 8] (2 heads of 8), mask: [4, 4] (float).

Common: the decomposed attention a torch.onnx export of F.scaled_dot_product_attention emits (Div by
sqrt(head size), additive mask). fuse_xformers turns it into SDPA, then MultiHeadAttention
(sdpa_via_mha). Uncommon: Mul by 1/sqrt(8); the scale split as 8^-1/4 on q and on k^T; k^T through
3-D Reshape/Transpose/Reshape; through two Transposes; the opset-12 Softmax-11; the mask Add with
its operands swapped; the scale Mul with the constant first; Softmax axis 3 for -1 (Operators.md;
see the module doc).""",
    {
        "common": (BARE, ""),
        "scale-mul": (BARE.replace("Div(s, scale)", "Mul(s, inv)"), "Mul by 1/sqrt(8)"),
        "split-scale": (
            KT
            + "qs = Mul(q, quarter)\nks = Mul(kt, quarter)\ns = MatMul(qs, ks)\n"
            + TAIL.replace("(d, mask)", "(s, mask)"),
            "q and k^T each scaled by 8^-1/4",
        ),
        "key-3d": (
            "k3 = Reshape(k, k3s)\nk3t = Transpose <perm = [0, 2, 1]> (k3)\nkt = Reshape(k3t, k4s)\n" + SCORES + TAIL,
            "k^T as Reshape [-1, 4, 8], Transpose [0, 2, 1], Reshape [-1, 2, 8, 4]",
        ),
        "two-transposes": (
            "k1 = Transpose <perm = [0, 2, 1, 3]> (k)\nkt = Transpose <perm = [0, 2, 3, 1]> (k1)\n" + SCORES + TAIL,
            "k^T as Transpose [0, 2, 1, 3] then [0, 2, 3, 1]",
        ),
        "opset-12": (BARE, "opset 12: Softmax-11 on the last axis", 12),
        "mask-first": (BARE.replace("Add(d, mask)", "Add(mask, d)"), "Add(mask, scores)"),
        "scale-first": (BARE.replace("Div(s, scale)", "Mul(inv, s)"), "Mul(1/sqrt(8), scores)"),
        "softmax-axis-3": (BARE.replace("axis = -1", "axis = 3"), "Softmax axis 3 (the last of 4)"),
    },
    "(float[N,2,4,8] q, float[N,2,4,8] k, float[N,2,4,8] v, float[4,4] mask) => (float[N,2,4,8] y)",
    targets=("sdpa_via_mha",),
)


# ---- self-attention with q/k/v projections: sdpa, mha2, mha_bias, attention --------------------
def _proj(p: str, perm: str, out: str) -> str:
    return (
        f"{p}m = MatMul(x, w{p})\n{p}a = Add({p}m, b{p})\n{p}r = Reshape({p}a, s4)\n"
        f"{out} = Transpose <perm = {perm}> ({p}r)\n"
    )


def _attention(*, kv: str, scores: str, softmax_in: str, v: str = "vt") -> str:
    return (
        _proj("q", "[0, 2, 1, 3]", "qt")
        + kv
        + f"s = MatMul(qt, kt)\n{scores}w = Softmax <axis = -1> ({softmax_in})\nc = MatMul(w, {v})\n"
        + "ct = Transpose <perm = [0, 2, 1, 3]> (c)\ny = Reshape(ct, s3)"
    )


KV = _proj("k", "[0, 2, 3, 1]", "kt") + _proj("v", "[0, 2, 1, 3]", "vt")
SELF = _attention(kv=KV, scores="d = Div(s, scale)\na = Add(d, mask)\n", softmax_in="a")
SELF_SIG = "(float[N,4,16] x, float[1,1,4,4] mask) => (float[N,4,16] y)"
_case(
    "self-attention",
    "attention",
    """Self-attention of x: [N, 4, 16] (2 heads of 8) with q/k/v projections (MatMul + bias Add) and
an additive mask: [1, 1, 4, 4] (float): [N, 4, 16].

Common: the HF / torch.onnx export (per-head Reshape [0, 0, 2, 8] and Transpose, k transposed to
[0, 2, 3, 1], a 4-D mask). fuse_xformers: sdpa, mha2, mha_bias, then attention (one com.microsoft
Attention). Uncommon: Mul by 1/sqrt(8); the mask reshaped to [4, 4] and broadcast by the Add; the mask Add
and the q bias Add with their operands swapped; the q bias stored as [1, 1, 16] (Operators.md; see the module doc).""",
    {
        "common": (SELF, ""),
        "scale-mul": (SELF.replace("Div(s, scale)", "Mul(s, inv)"), "Mul by 1/sqrt(8)"),
        "mask-2d": (
            "m2 = Reshape(mask, s44)\n" + SELF.replace("Add(d, mask)", "Add(d, m2)"),
            "the mask reshaped to [4, 4] and broadcast by Add",
        ),
        "mask-first": (SELF.replace("Add(d, mask)", "Add(mask, d)"), "Add(mask, scores)"),
        "bias-first": (SELF.replace("Add(qm, bq)", "Add(bq, qm)"), "the q bias Add as Add(bias, MatMul)"),
        "bias-rank-3": (SELF.replace("Add(qm, bq)", "Add(qm, bq3)"), "the q bias stored [1, 1, 16] (broadcast)"),
    },
    SELF_SIG,
    targets=("sdpa", "mha2", "mha_bias"),
)

SCALED = _attention(kv=KV, scores="a = Add(s, mask)\n", softmax_in="a").replace(
    "qr = Reshape(qa, s4)", "qs = Mul(qa, inv)\nqr = Reshape(qs, s4)"
)
_case(
    "scaled-query",
    "mha_scale",
    """The self-attention of fusion-sdpa/self-attention with the 1/sqrt(8) scale applied to the 3-D
query (q * c) @ k^T = c (q @ k^T) (Operators.md MatMul: linear), as GPT-2-style exports do.

fuse_xformers: sdpa (scale 1), mha2, mha_scale (the Mul into MHA's scale), mha_bias, attention.
Uncommon: the scale on the scores instead; the query Mul with the constant first.""",
    {
        "common": (SCALED, ""),
        "scores-scaled": (SELF, "the scale on q @ k^T (Div by sqrt(8))"),
        "scale-first": (SCALED.replace("Mul(qa, inv)", "Mul(inv, qa)"), "Mul(1/sqrt(8), q)"),
    },
    SELF_SIG,
    targets=("sdpa", "mha2", "mha_bias", "attention"),
)

# ---- attention with a key/value cache: mha1 -------------------------------------------------------
CACHE_KV = (
    _proj("k", "[0, 2, 1, 3]", "kb")
    + "present_k = Concat <axis = -2> (past_k, kb)\nkt = Transpose <perm = [0, 1, 3, 2]> (present_k)\n"
    + _proj("v", "[0, 2, 1, 3]", "vb")
    + "present_v = Concat <axis = -2> (past_v, vb)\n"
)
CACHE = _attention(kv=CACHE_KV, scores="d = Div(s, scale)\n", softmax_in="d", v="present_v")
_case(
    "kv-cache",
    "mha1",
    """Self-attention of x: [N, 4, 16] (2 heads of 8) over a key/value cache past_k, past_v: [N, 2, P, 8]
(float): y [N, 4, 16] and the caches extended by the new keys and values, [N, 2, P + 4, 8].

Common: the HF decoder export (Concat on axis -2, k^T as Transpose [0, 1, 3, 2] of the cache).
fuse_xformers: sdpa, mha1 (MultiHeadAttention with past and present). Uncommon: the Concats on
axis 2; Mul by 1/sqrt(8) (Operators.md; see the module doc).""",
    {
        "common": (CACHE, ""),
        "concat-axis-2": (CACHE.replace("axis = -2", "axis = 2"), "the cache Concats on axis 2"),
        "scale-mul": (CACHE.replace("Div(s, scale)", "Mul(s, inv)"), "Mul by 1/sqrt(8)"),
    },
    "(float[N,4,16] x, float[N,2,P,8] past_k, float[N,2,P,8] past_v) => "
    "(float[N,4,16] y, float[N,2,T,8] present_k, float[N,2,T,8] present_v)",
    targets=("sdpa",),
    bindings=({"N": 1, "P": 2}, {"N": 3, "P": 5}),
)
