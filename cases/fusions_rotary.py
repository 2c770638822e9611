"""fusion-rotary/*: rotary position embedding (RoPE) as HF Llama exports emit it.

``onnxscript:optimize-for-ort`` runs ``fuse_xformers`` (onnxscript rewriter/ort_fusions/_core.py):
``rotary_embedding`` (rotary_embedding.py) matches x * cos + rotate_half(x) * sin on a rank-4 x
[B, H, S, Dh], rotate_half(x) = Concat(-x[..., Dh/2:], x[..., :Dh/2], axis -1) with both halves
taken by Slice(x, start, end, axes [3], steps [1]); ``cos_sin_cache`` (cos_sin_cache.py) then
replaces the cos/sin computed from position_ids (Unsqueeze, Cast, MatMul by a constant inv_freq
[1, Dh/2, 1], Transpose [0, 2, 1], Concat(freqs, freqs), Cos/Sin, Unsqueeze [1]) by a cache and
emits com.microsoft RotaryEmbedding; ``partial_rotary_embedding`` folds a RoPE on the first
channels, Concat with the untouched rest, into RotaryEmbedding's ``rotary_embedding_dim``.

Equivalences the uncommon forms use (Operators.md): Slice-13 ``steps`` defaults to 1 and a negative
axis counts from the back (-1 is 3 on rank 4), ``ends`` are clamped to the dim (8 and INT64_MAX take
the rest of an 8-wide axis); Mul and Add are commutative; Neg(x) equals Mul(x, -1) exactly;
Concat ``axis`` 3 of rank-4 inputs is -1. The feeds give position ids 0..3 shifted per batch row
(non-negative, as a decoder's are).
"""

from __future__ import annotations

import numpy as np

from passcheck.cases.rules import onnxscript_case

FAMILY = "fusion-rotary"
PASS = "onnxscript:optimize-for-ort"
BIG = np.iinfo(np.int64).max
CONSTS = {
    "inv_freq": (1.0 / 10000 ** (np.arange(0, 8, 2) / 8)).reshape(1, 4, 1).astype(np.float32),
    "one": np.array([1], np.int64),
    "zero": np.array([0], np.int64),
    "half": np.array([4], np.int64),
    "rot": np.array([8], np.int64),
    "big": np.array([BIG], np.int64),
    "ax3": np.array([3], np.int64),
    "axm1": np.array([-1], np.int64),
    "step": np.array([1], np.int64),
    "minus": np.array(-1.0, np.float32),
}
COS_SIN = (
    "pu = Unsqueeze(position_ids, one)\npf = Cast <to = 1> (pu)\nfr = MatMul(inv_freq, pf)\n"
    "ft = Transpose <perm = [0, 2, 1]> (fr)\nemb = Concat <axis = -1> (ft, ft)\nco = Cos(emb)\nsi = Sin(emb)\n"
    "cos = Unsqueeze(co, one)\nsin = Unsqueeze(si, one)\n"
)


def _rope(x: str, out: str) -> str:
    """out = x * cos + rotate_half(x) * sin, the halves of an 8-wide last axis."""
    return (
        f"{out}1 = Slice({x}, zero, half, ax3, step)\n{out}2 = Slice({x}, half, big, ax3, step)\n"
        f"{out}n = Neg({out}2)\n{out}r = Concat <axis = -1> ({out}n, {out}1)\n"
        f"{out}c = Mul({x}, cos)\n{out}s = Mul({out}r, sin)\n{out} = Add({out}c, {out}s)"
    )


def _feeds(width: int):
    """x: [N, 2, 4, width] normal; position_ids: row b holds b % 3 * 2 + [0, 1, 2, 3] (non-negative)."""

    def feeds(binding, seed):
        n = binding["N"]
        x = np.random.default_rng(seed).standard_normal((n, 2, 4, width)).astype(np.float32)
        pos = np.arange(4, dtype=np.int64)[None, :] + (np.arange(n, dtype=np.int64)[:, None] % 3) * 2
        return {"x": x, "position_ids": pos}

    return feeds


FULL = COS_SIN + _rope("x", "y")
onnxscript_case(
    f"{FAMILY}/llama",
    "rotary_embedding",
    """RoPE of x: [N, 2, 4, 8] (2 heads, 4 positions, head size 8) at position_ids: [N, 4] (int64), the
cos/sin computed in the graph from a constant inv_freq (base 10000): [N, 2, 4, 8] (float).

Common: the HF LlamaRotaryEmbedding + apply_rotary_pos_emb export. fuse_xformers: rotary_embedding,
then cos_sin_cache (com.microsoft RotaryEmbedding with a cos/sin cache). Uncommon: the Slices
without steps; with axes [-1]; the second half's end 8 for INT64_MAX; Mul(cos, x); Neg as Mul by
-1; the rotate_half Concat on axis 3 (Operators.md Slice, Mul, Neg, Concat; see the module doc).""",
    {
        "common": (FULL, ""),
        "no-steps": (FULL.replace(", step)", ")"), "Slice without steps (default 1)"),
        "axes-negative": (FULL.replace("ax3", "axm1"), "Slice axes [-1]"),
        "end-8": (FULL.replace("half, big", "half, rot"), "the second half ends at 8, not INT64_MAX"),
        "cos-first": (FULL.replace("Mul(x, cos)", "Mul(cos, x)"), "Mul(cos, x)"),
        "neg-as-mul": (FULL.replace("yn = Neg(y2)", "yn = Mul(y2, minus)"), "-x2 as Mul(x2, -1)"),
        "concat-axis-3": (FULL.replace("<axis = -1> (yn, y1)", "<axis = 3> (yn, y1)"), "rotate_half Concat on axis 3"),
    },
    "(float[N,2,4,8] x, int64[N,4] position_ids) => (float[N,2,4,8] y)",
    consts=CONSTS,
    pass_id=PASS,
    kind="fusion",
    targets=("cos_sin_cache",),
    feeds=_feeds(8),
)

PARTIAL = (
    COS_SIN
    + "xa = Slice(x, zero, rot, ax3, step)\nxb = Slice(x, rot, big, ax3, step)\n"
    + _rope("xa", "ra")
    + "\ny = Concat <axis = -1> (ra, xb)"
)
onnxscript_case(
    f"{FAMILY}/partial",
    "partial_rotary_embedding",
    """RoPE on the first 8 of 16 channels of x: [N, 2, 4, 16] at position_ids: [N, 4] (int64), the other
8 passed through: [N, 2, 4, 16] (float), as Phi / GPT-NeoX exports (partial_rotary_factor 0.5) emit.

fuse_xformers: rotary_embedding, cos_sin_cache, then partial_rotary_embedding (RotaryEmbedding with
rotary_embedding_dim 8). Uncommon: the pass-through Slice ending at 16 for INT64_MAX; the outer
Concat on axis 3 (Operators.md Slice, Concat; see the module doc).""",
    {
        "common": (PARTIAL, ""),
        "end-16": (PARTIAL.replace("xb = Slice(x, rot, big", "xb = Slice(x, rot, sixteen"), "the rest ends at 16"),
        "concat-axis-3": (PARTIAL.replace("<axis = -1> (ra, xb)", "<axis = 3> (ra, xb)"), "the outer Concat on axis 3"),
    },
    "(float[N,2,4,16] x, int64[N,4] position_ids) => (float[N,2,4,16] y)",
    consts={**CONSTS, "sixteen": np.array([16], np.int64)},
    pass_id=PASS,
    kind="fusion",
    targets=("rotary_embedding", "cos_sin_cache"),
    feeds=_feeds(16),
)
