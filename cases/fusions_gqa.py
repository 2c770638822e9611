"""fusion-gqa/*: a Llama decoder attention step (grouped-query attention over a KV cache).

``onnxscript:optimize-for-ort`` runs ``fuse_xformers`` (onnxscript rewriter/ort_fusions/_core.py):
``rotary_embedding`` and ``cos_sin_cache`` turn the RoPE of q and k into com.microsoft
RotaryEmbedding, ``sdpa`` the attention core into SDPA, then ``gqa`` (gqa.py) matches the per-head
Reshape/Transpose of q, k, v, the two RotaryEmbeddings, the cache Concats on axis -2, the KV-head
repeat (Unsqueeze [2], Expand, Reshape) and an SDPA whose mask is the HF causal mask (Shape of the
input and of the cache, Range, Greater, Cast, Mul by the float32 minimum, Trilu, Unsqueeze, Expand,
then the padding mask ``attention_mask`` merged through Add, Equal 0, Where), and emits one
com.microsoft GroupQueryAttention; ``packed_qkv_for_gqa`` (gqa_packed_qkv.py) then feeds it the
packed projection when q, k, v are Slices of one MatMul.

Sizes: batch 1 (onnxruntime's CPU GroupQueryAttention takes a prompt of more than one token over a
cache only at batch 1; head size 16, a multiple of 16), 3 new tokens over a cache of 2, 2 query heads
sharing 1 KV head of 16. Feeds: attention_mask all ones and position_ids 2, 3, 4 (the tokens after
the cache), the contract of the fused op (its seqlens_k is ReduceMax(position_ids)).

Equivalences the uncommon forms use (Operators.md): Div by c equals Mul by 1/c up to rounding; Add is
commutative; Concat axis 2 of rank-4 inputs is -2; without Trilu the mask is the same, since
Greater(j, i + past) already implies j >= i + 1; Slice ``steps`` default to 1; three MatMuls by the
column blocks of a packed weight equal Slices of the packed MatMul.
"""

from __future__ import annotations

import numpy as np

from passcheck.cases.builders import rng
from passcheck.cases.rules import onnxscript_case

FAMILY = "fusion-gqa"
PASS = "onnxscript:optimize-for-ort"
H, HKV, DH = 2, 1, 16
D, DKV = H * DH, HKV * DH
R = rng(FAMILY)
WQ, WK, WV = (R.standard_normal((D, n)).astype(np.float32) * 0.3 for n in (D, DKV, DKV))
CONSTS = {
    "wq": WQ,
    "wk": WK,
    "wv": WV,
    "wqkv": np.concatenate([WQ, WK, WV], axis=1),
    "sq": np.array([0, 0, H, DH], np.int64),
    "skv": np.array([0, 0, HKV, DH], np.int64),
    "s3": np.array([0, 0, D], np.int64),
    "inv_freq": (1.0 / 10000 ** (np.arange(0, DH, 2) / DH)).reshape(1, DH // 2, 1).astype(np.float32),
    "one1": np.array([1], np.int64),
    "zero1": np.array([0], np.int64),
    "half": np.array([DH // 2], np.int64),
    "big": np.array([np.iinfo(np.int64).max], np.int64),
    "ax2": np.array([2], np.int64),
    "ax3": np.array([3], np.int64),
    "kvexp": np.array([1, HKV, H // HKV, 5, DH], np.int64),
    "kvshape": np.array([1, H, 5, DH], np.int64),
    "m1": np.array([-1], np.int64),
    "m11": np.array([-1, 1], np.int64),
    "zero": np.array(0, np.int64),
    "one": np.array(1, np.int64),
    "minval": np.array(np.finfo(np.float32).min, np.float32),
    "ax01": np.array([0, 1], np.int64),
    "ax12": np.array([1, 2], np.int64),
    "b111": np.array([1, 1, 1, 1], np.int64),
    "fzero": np.array(0.0, np.float32),
    "scale": np.array(np.sqrt(DH), np.float32),
    "inv": np.array(1 / np.sqrt(DH), np.float32),
    "e_q": np.array([D], np.int64),
    "e_k": np.array([D + DKV], np.int64),
    "e_v": np.array([D + 2 * DKV], np.int64),
}


def _rope(x: str, out: str) -> str:
    return (
        f"{out}1 = Slice({x}, zero1, half, ax3, one1)\n{out}2 = Slice({x}, half, big, ax3, one1)\n"
        f"{out}n = Neg({out}2)\n{out}r = Concat <axis = -1> ({out}n, {out}1)\n"
        f"{out}c = Mul({x}, cos)\n{out}s = Mul({out}r, sin)\n{out} = Add({out}c, {out}s)\n"
    )


PROJ = "qm = MatMul(x, wq)\nkm = MatMul(x, wk)\nvm = MatMul(x, wv)\n"
BODY = (
    PROJ
    + "qr = Reshape(qm, sq)\nqt = Transpose <perm = [0, 2, 1, 3]> (qr)\n"
    + "kr = Reshape(km, skv)\nkt = Transpose <perm = [0, 2, 1, 3]> (kr)\n"
    + "vr = Reshape(vm, skv)\nvt = Transpose <perm = [0, 2, 1, 3]> (vr)\n"
    + "pu = Unsqueeze(position_ids, one1)\npf = Cast <to = 1> (pu)\nfr = MatMul(inv_freq, pf)\n"
    + "ft = Transpose <perm = [0, 2, 1]> (fr)\nemb = Concat <axis = -1> (ft, ft)\nco = Cos(emb)\nsi = Sin(emb)\n"
    + "cos = Unsqueeze(co, one1)\nsin = Unsqueeze(si, one1)\n"
    + _rope("qt", "qe")
    + _rope("kt", "ke")
    + "present_key = Concat <axis = -2> (past_key, ke)\npresent_value = Concat <axis = -2> (past_value, vt)\n"
    + "ku = Unsqueeze(present_key, ax2)\nkx = Expand(ku, kvexp)\nkk = Reshape(kx, kvshape)\n"
    + "vu = Unsqueeze(present_value, ax2)\nvx = Expand(vu, kvexp)\nvv = Reshape(vx, kvshape)\n"
    + "seq_len = Shape <start = 1, end = 2> (x)\nseq0 = Squeeze(seq_len)\n"
    + "past_len = Shape <start = 2, end = 3> (past_key)\npast0 = Squeeze(past_len)\n"
    + "tot0 = Add(past0, seq0)\ntot = Reshape(tot0, m1)\ncur = Range(past0, tot0, one)\n"
    + "mshape = Concat <axis = 0> (seq_len, tot)\nmall = Expand(minval, mshape)\nmtri = Trilu <upper = 1> (mall, one)\n"
    + "row = Range(zero, tot0, one)\ncol = Reshape(cur, m11)\nnc = Greater(row, col)\nncf = Cast <to = 1> (nc)\n"
    + "m01 = Mul(mtri, ncf)\nm4 = Unsqueeze(m01, ax01)\nmb = Expand(m4, b111)\n"
    + "am4 = Unsqueeze(attention_mask, ax12)\namc = Cast <to = 1> (am4)\nsm = Add(mb, amc)\niz = Equal(sm, fzero)\n"
    + "mask = Where(iz, minval, mb)\n"
    + "kT = Transpose <perm = [0, 1, 3, 2]> (kk)\ns = MatMul(qe, kT)\nd = Div(s, scale)\na = Add(d, mask)\n"
    + "w = Softmax <axis = -1> (a)\nc = MatMul(w, vv)\nct = Transpose <perm = [0, 2, 1, 3]> (c)\ny = Reshape(ct, s3)"
)
SIG = (
    f"(float[1,3,{D}] x, int64[1,5] attention_mask, int64[1,3] position_ids, float[1,{HKV},2,{DH}] past_key, "
    f"float[1,{HKV},2,{DH}] past_value) => "
    f"(float[1,3,{D}] y, float[1,{HKV},5,{DH}] present_key, float[1,{HKV},5,{DH}] present_value)"
)


def _feeds(binding, seed):
    """x, past_key, past_value: normal; attention_mask: ones [1, 5]; position_ids: [[2, 3, 4]]."""
    g = np.random.default_rng(seed)
    return {
        "x": g.standard_normal((1, 3, D)).astype(np.float32),
        "attention_mask": np.ones((1, 5), np.int64),
        "position_ids": np.array([[2, 3, 4]], np.int64),
        "past_key": g.standard_normal((1, HKV, 2, DH)).astype(np.float32),
        "past_value": g.standard_normal((1, HKV, 2, DH)).astype(np.float32),
    }


def _case(name: str, rule: str, doc: str, forms: dict, targets: tuple) -> None:
    onnxscript_case(
        f"{FAMILY}/{name}", rule, doc, forms, SIG, consts=CONSTS, pass_id=PASS, kind="fusion", targets=targets,
        bindings=({}, {}), feeds=_feeds,
    )  # fmt: skip


_case(
    "llama",
    "gqa",
    """One Llama attention step: x: [1, 3, 32], 2 query heads and 1 KV head of 16, RoPE at position_ids,
a KV cache past_key, past_value: [1, 1, 2, 16], the causal + padding mask (float): y [1, 3, 32] and
the caches extended to [1, 1, 5, 16].

Common: the HF LlamaAttention export (see the module doc). Uncommon: Mul by 1/4 for Div by 4; the
mask Add with its operands swapped; the cache Concats on axis 2; the causal mask without Trilu;
opset 17 (Operators.md Div, Mul, Add, Concat, Trilu, Greater).""",
    {
        "common": (BODY, ""),
        "scale-mul": (BODY.replace("Div(s, scale)", "Mul(s, inv)"), "Mul by 1/sqrt(16)"),
        "mask-first": (BODY.replace("Add(d, mask)", "Add(mask, d)"), "Add(mask, scores)"),
        "concat-axis-2": (BODY.replace("<axis = -2>", "<axis = 2>"), "the cache Concats on axis 2"),
        "no-trilu": (
            BODY.replace("mtri = Trilu <upper = 1> (mall, one)\n", "").replace("Mul(mtri, ncf)", "Mul(mall, ncf)"),
            "the causal mask without Trilu (Phi)",
        ),
        "opset-17": (BODY, "opset 17 (no op of the graph changed at opset 18)", 17),
    },
    ("rotary_embedding", "cos_sin_cache", "sdpa"),
)

PACKED = (
    "qkv = MatMul(x, wqkv)\nqm = Slice(qkv, zero1, e_q, ax2, one1)\nkm = Slice(qkv, e_q, e_k, ax2, one1)\n"
    "vm = Slice(qkv, e_k, e_v, ax2, one1)\n"
)
_case(
    "packed-qkv",
    "packed_qkv_for_gqa",
    """The Llama attention step of fusion-gqa/llama with q, k, v sliced from one packed projection by
wqkv: [32, 64] (Phi-3 style). fuse_xformers: gqa, then packed_qkv_for_gqa (GroupQueryAttention on the
packed input). Uncommon: the Slices without steps; three separate MatMuls (Operators.md Slice,
MatMul; see the module doc).""",
    {
        "common": (BODY.replace(PROJ, PACKED), ""),
        "no-steps": (BODY.replace(PROJ, PACKED.replace(", one1)", ")")), "the q/k/v Slices without steps"),
        "separate": (BODY, "three MatMuls by the column blocks of wqkv"),
    },
    ("gqa", "rotary_embedding", "cos_sin_cache", "sdpa"),
)
