"""xformers-bert/*: the subgraphs onnxruntime's transformers optimizer documents it fuses under ``bert``, spelled
every valid way.

onnxruntime's ``transformers/fusion_attention.py`` (``FusionAttention.fuse``) fuses a post-LN BERT self-attention
layer: starting at the LayerNormalization after the residual Add (the Add and it become SkipLayerNormalization
first), it matches the output projection ``Add(MatMul(Reshape(Transpose(MatMul(softmax, v)))))``, the value, query
and key paths ``Transpose(Reshape(Add(MatMul(root, W), b)))`` (the key's Transpose either ``[0, 2, 3, 1]`` or
``[0, 2, 1, 3]`` then ``[0, 1, 3, 2]``), the scores ``Softmax(Add(Div|Mul(MatMul(q, k), s), mask term))`` and the
mask term ``Mul(Sub(1, Cast(Unsqueeze(Unsqueeze(mask)))), -10000)``, and writes one ``com.microsoft`` Attention (or
MultiHeadAttention with ``use_multi_head_attention``) fed by a mask index (``AttentionMask.process_mask``:
``ReduceSum`` of the mask under bert's default ``MaskIndexEnd``, the raw mask with ``attention_mask_format=2``).
The three ``ort-transformers:bert+…`` flags round 23e found reaching no library form (``enable_attention=False``,
``use_multi_head_attention``, ``attention_mask_format=2``) act on these bases.

The computation (opset 17): ``ln = LayerNormalization(x)`` (x: [N, 4, 8]); per projection ``MatMul(ln, W) + b``,
``Reshape [0, 0, 2, 4]``, ``Transpose``; ``scores = q @ k^T * s`` plus ``(1 - mask) * -10000`` (mask: int64
[N, 4], 0/1); ``Softmax`` over the last axis; ``context @ v``, ``Transpose [0, 2, 1, 3]``, ``Reshape [0, 0, 8]``;
the output projection; the residual ``+ ln``; a second LayerNormalization. Operators.md: MatMul, Add (commutative,
multidirectional broadcast), Reshape (0 copies the input dim), Transpose (two permutations compose), Softmax-13
(``axis`` -1 and 3 name the same axis of a 4-D input), Div by ``c`` equals Mul by ``1/c`` (exact when ``1/c`` is a
power of two), Unsqueeze-13, Cast, LayerNormalization-17. The feeds give right-padded 0/1 masks, the contract of
the mask index the fusion writes (``fusion_attention.py``: ``AttentionMaskFormat.MaskIndexEnd``).
"""

from __future__ import annotations

import re

import numpy as np

from passcheck.case_model import COMMON, Case, Expectation
from passcheck.cases import register
from passcheck.cases.builders import rng, tensor, text_form

FAMILY = "xformers-bert"
W, HEADS, HEAD = 8, 2, 4
OPSET = 17
R = rng(FAMILY)
CONSTS = {
    **{f"w{p}": R.standard_normal((W, W)) * 0.3 for p in "qkvo"},
    **{f"b{p}": R.standard_normal(W) * 0.1 for p in "qkvo"},
    "g": np.linspace(0.5, 1.5, W),
    "b": np.linspace(-0.5, 0.5, W),
    "g2": np.linspace(1.5, 0.5, W),
    "b2": np.linspace(0.2, -0.2, W),
    "sqrt_head": np.array(np.sqrt(HEAD)),
    "inv_sqrt_head": np.array(1 / np.sqrt(HEAD)),
    "three": np.array(3.0),
    "third": np.array(1 / 3),
    "one": np.array(1.0),
    "neg": np.array(-10000.0),
    "shape4": np.array([0, 0, HEADS, HEAD], dtype=np.int64),
    "shape3": np.array([0, 0, W], dtype=np.int64),
    "ax1": np.array([1], dtype=np.int64),
    "ax2": np.array([2], dtype=np.int64),
}
SIGNATURE = "(float[N,4,8] x, int64[N,4] mask) => (float[N,4,8] y)"
#: the passes these bases are for: the plain bert optimizer and the flags that act on its attention fusion
PASSES = (
    "ort-transformers:bert",
    "ort-transformers:bert+enable_attention=False",
    "ort-transformers:bert+use_multi_head_attention",
    "ort-transformers:bert+attention_mask_format=2",
    "ort:extended",
)
VALID = f"Valid: opset {OPSET} (Operators.md Softmax-13, LayerNormalization-17)."
SOURCE = "onnxruntime/transformers/fusion_attention.py FusionAttention.fuse"


def _proj(name: str, perm: str, bias_first: bool = False) -> str:
    add = f"Add(b{name}, {name}m)" if bias_first else f"Add({name}m, b{name})"
    return (
        f"{name}m = MatMul(ln, w{name})\n{name}a = {add}\n{name}r = Reshape({name}a, shape4)\n"
        f"{name}t = Transpose <perm = {perm}> ({name}r)"
    )


def _layer(
    *,
    k: str | None = None,
    scale: str = "qd = Div(qk, sqrt_head)",
    mask_add: str = "sa = Add(qd, mm)",
    residual: str = "r = Add(oa, ln)",
    softmax_axis: int = -1,
    bias_first: bool = False,
) -> str:
    return "\n".join(
        (
            "ln = LayerNormalization <axis = -1, epsilon = 0.00001> (x, g, b)",
            _proj("q", "[0, 2, 1, 3]", bias_first),
            k or _proj("k", "[0, 2, 3, 1]", bias_first),
            _proj("v", "[0, 2, 1, 3]", bias_first),
            "qk = MatMul(qt, kt)",
            scale,
            "mu1 = Unsqueeze(mask, ax1)\nmu2 = Unsqueeze(mu1, ax2)\nmc = Cast <to = 1> (mu2)\nms = Sub(one, mc)\n"
            "mm = Mul(ms, neg)",
            mask_add,
            f"sm = Softmax <axis = {softmax_axis}> (sa)",
            "ctx = MatMul(sm, vt)",
            "ct = Transpose <perm = [0, 2, 1, 3]> (ctx)",
            "cr = Reshape(ct, shape3)",
            "om = MatMul(cr, wo)",
            "oa = Add(om, bo)",
            residual,
            "y = LayerNormalization <axis = -1, epsilon = 0.00001> (r, g2, b2)",
        )
    )


def _initializers(body: str):
    def build():
        out = []
        for name, value in CONSTS.items():
            if re.search(rf"(?<![\w.]){re.escape(name)}(?![\w.])", body):
                arr = np.asarray(value)
                out.append(tensor(name, arr.astype(np.float32) if arr.dtype.kind == "f" else arr))
        return out

    return build


def feeds(binding, seed):
    """x: float32 normal [N, 4, 8]; mask: int64 [N, 4] right-padded 0/1 rows (row i keeps its first 4 - i % 4
    tokens), the padding the fused mask index assumes (``MaskIndexEnd``)."""
    n = binding["N"]
    x = np.random.default_rng(seed).standard_normal((n, 4, W)).astype(np.float32)
    mask = np.array([[1 if j < 4 - i % 4 else 0 for j in range(4)] for i in range(n)], dtype=np.int64)
    return {"x": x, "mask": mask}


def _case(name: str, doc: str, forms: dict[str, tuple[str, str]]) -> Case:
    built = {
        f: text_form(f"g {SIGNATURE} {{\n{body}\n}}", fdoc, opset=OPSET, initializers=_initializers(body))
        for f, (body, fdoc) in forms.items()
    }
    fused = Expectation(
        pass_id="ort-transformers:bert",
        form=COMMON,
        no_op_types=("Softmax",),
        reason=f"{SOURCE}: the attention subgraph becomes com.microsoft Attention",
    )
    return register(
        Case(
            id=f"{FAMILY}/{name}",
            forms=built,
            opset=OPSET,
            bindings=({"N": 1}, {"N": 3}),
            doc=f"{doc.strip()}\n{VALID}\nSource: {SOURCE}.",
            tags=frozenset({"xformers", "attention", "ort-transformers"}),
            expect=(fused,),
            passes=PASSES,
            feeds=feeds,
        )
    )


_case(
    "attention",
    """A post-LN BERT self-attention layer (2 heads of 4, hidden 8), scores scaled by 1/sqrt(4).

Common: the layer as torch.onnx exports BERT at opset 17, the subgraph FusionAttention documents. Uncommon, each the
same computation (Operators.md): the scaling as Mul by 0.5; the mask and residual Adds with swapped operands; each
bias Add with the bias first; the key's Transpose [0, 2, 3, 1] as [0, 2, 1, 3] then [0, 1, 3, 2] (a path the fusion
matches too); Softmax's axis written 3 instead of -1.""",
    {
        COMMON: (_layer(), ""),
        "scale-mul": (_layer(scale="qd = Mul(qk, inv_sqrt_head)"), "q @ k^T times 0.5 instead of divided by 2"),
        "mask-add-swapped": (_layer(mask_add="sa = Add(mm, qd)"), "Add(mask term, scores)"),
        "residual-swapped": (_layer(residual="r = Add(ln, oa)"), "the residual Add with the LayerNorm output first"),
        "bias-first": (_layer(bias_first=True), "each projection's bias Add as Add(b, MatMul(ln, W))"),
        "k-two-transposes": (
            _layer(
                k=_proj("k", "[0, 2, 1, 3]").replace("kt = ", "k1 = ") + "\nkt = Transpose <perm = [0, 1, 3, 2]> (k1)"
            ),
            "k's Transpose [0, 2, 3, 1] as [0, 2, 1, 3] then [0, 1, 3, 2]",
        ),
        "softmax-axis-3": (_layer(softmax_axis=3), "Softmax over axis 3 of the 4-D scores, the last axis"),
    },
)

_case(
    "attention-scaled",
    """The same layer with its scores scaled by 1/3 instead of 1/sqrt(head size) = 1/2 (any scale is valid: it is
a Div by a constant; models with a temperature or a query scaled elsewhere write one).

Common: the scaling as Div by 3, the spelling FusionAttention's ``path1`` matches (``Softmax, Add, Div, MatMul``).
Uncommon: the scaling as Mul by 1/3 (``path2``), equal up to float rounding (Operators.md Div, Mul).""",
    {
        COMMON: (_layer(scale="qd = Div(qk, three)"), ""),
        "scale-mul": (_layer(scale="qd = Mul(qk, third)"), "q @ k^T times 1/3 instead of divided by 3"),
    },
)
