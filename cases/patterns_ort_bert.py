"""pattern-ort-bert/*: BERT's embedding layer in front of the fusion-attention/bert-block layer.

EmbedLayerNormFusion (onnxruntime core/optimizer/embed_layer_norm_fusion.cc) matches, for a
LayerNormalization whose output feeds a com.microsoft Attention (AttentionFusion runs first):
``Add(Add(Gather(word, input_ids), position), Gather(segment, segment_ids))`` with 2-D word and
segment tables of the hidden size, int64 ``input_ids``/``segment_ids`` of one shape [N, S], and
the position term ``Gather(position_table, Expand(Unsqueeze(Range(0, S, 1)), [N, S]))`` with N and
S read from ``Shape(input_ids)`` (a static shape would let MatMulAddFusion rewrite the attention's
projections first). Each form is a form of fusion-attention/bert-block with its input x computed
by that embedding.
"""

from __future__ import annotations

import numpy as np
import onnx
import onnx.helper as oh

from passcheck.cases import COMMON, Case, Form
from passcheck.cases._registry import REGISTRY
from passcheck.cases.builders import rng, tensor
from passcheck.cases.fusion import expect_fused, transformer_tag
from passcheck.passes import DEFAULT_PASSES

FAMILY = "pattern-ort-bert"
HIDDEN, VOCAB, MAX_SEQ = 8, 16, 8
R = rng(FAMILY)
WORD = (R.standard_normal((VOCAB, HIDDEN)) * 0.5).astype(np.float32)
POSITION = (R.standard_normal((MAX_SEQ, HIDDEN)) * 0.5).astype(np.float32)
SEGMENT = (R.standard_normal((2, HIDDEN)) * 0.5).astype(np.float32)
#: Position ids as the exporter writes them: Expand(Unsqueeze(Range(0, S, 1)), [N, S]) from Shape(input_ids).
POSITIONS = (
    ("sh", "Shape", ("input_ids",), {}),
    ("b0", "Gather", ("sh", "k0"), {}),
    ("s1", "Gather", ("sh", "k1"), {}),
    ("rg", "Range", ("k0", "s1", "k1"), {}),
    ("ru", "Unsqueeze", ("rg",), {"axes": [0]}),
    ("u0", "Unsqueeze", ("b0",), {"axes": [0]}),
    ("u1", "Unsqueeze", ("s1",), {"axes": [0]}),
    ("cc", "Concat", ("u0", "u1"), {"axis": 0}),
    ("pid", "Expand", ("ru", "cc"), {}),
    ("pg", "Gather", ("position", "pid"), {}),
)
WORD_SEGMENT = (("we", "Gather", ("word", "input_ids"), {}), ("se", "Gather", ("segment", "segment_ids"), {}))
EMBED = {
    COMMON: (("pe", "Add", ("we", "pg"), {}), ("x", "Add", ("pe", "se"), {})),
    "segment-first": (("pe", "Add", ("we", "pg"), {}), ("x", "Add", ("se", "pe"), {})),
    "position-first": (("pe", "Add", ("pg", "we"), {}), ("x", "Add", ("pe", "se"), {})),
}


def _embedded(block_form: str, embed: str):
    """The bert-block form ``block_form`` with x: [N, S, 8] computed by the embedding ``embed``."""

    def build() -> onnx.ModelProto:
        m = REGISTRY.get("fusion-attention/bert-block").build(block_form)
        g = m.graph
        ids = [
            oh.make_tensor_value_info(n, onnx.TensorProto.INT64, ["N", "S"])
            for n in ("input_ids", "segment_ids", "mask")
        ]
        kept = [i for i in g.input if i.name not in ("x", "mask")]
        del g.input[:]
        g.input.extend(ids + kept)
        out = g.output[0]
        out.CopyFrom(oh.make_tensor_value_info(out.name, out.type.tensor_type.elem_type, ["N", "S", HIDDEN]))
        spec = POSITIONS + WORD_SEGMENT + EMBED[embed]
        nodes = [oh.make_node(op, list(ins), [name], **attrs) for name, op, ins, attrs in spec]
        old = list(g.node)
        del g.node[:]
        g.node.extend(nodes + old)
        g.initializer.extend(
            [
                tensor("word", WORD),
                tensor("position", POSITION),
                tensor("segment", SEGMENT),
                tensor("k0", np.array(0, dtype=np.int64)),
                tensor("k1", np.array(1, dtype=np.int64)),
            ]
        )
        return m

    return build


def _feeds(binding, seed):
    """input_ids in [0, 16), segment_ids 0 then 1 (second half), mask right-padded 0/1 rows; [N, S]."""
    n, s = binding["N"], binding["S"]
    r = np.random.default_rng(seed)
    mask = np.array([[1 if j < s - i % s else 0 for j in range(s)] for i in range(n)], dtype=np.int64)
    seg = np.array([[0 if j < s // 2 else 1 for j in range(s)]] * n, dtype=np.int64)
    return {"input_ids": r.integers(0, VOCAB, (n, s)).astype(np.int64), "segment_ids": seg, "mask": mask}


FORMS = {
    COMMON: Form(_embedded(COMMON, COMMON), ""),
    "segment-first": Form(_embedded(COMMON, "segment-first"), "Add(segment embedding, word + position)"),
    "position-first": Form(_embedded(COMMON, "position-first"), "Add(position, word embedding)"),
    "scale-mul": Form(_embedded("scale-mul", COMMON), "the scores scaled by Mul 0.5 (bert-block's scale-mul)"),
}
REGISTRY.register(
    Case(
        id=f"{FAMILY}/embed-layer",
        forms=FORMS,
        opset=12,
        feeds=_feeds,
        bindings=({"N": 1, "S": 4}, {"N": 3, "S": 3}),
        tags=frozenset(
            {
                "fusion",
                "pattern",
                "attention",
                transformer_tag("EmbedLayerNormFusion"),
                transformer_tag("AttentionFusion"),
                transformer_tag("LayerNormFusionL2"),
            }
        ),
        expect=expect_fused("EmbedLayerNormFusion", "extended", ("Gather",)),
        passes=DEFAULT_PASSES,
        doc="""BERT embedding (word + position + segment, hidden 8) then one self-attention layer; ids: [N, S] (int64).

Common: Add(Add(word[input_ids], position[ids]), segment[segment_ids]) feeding bert-block's common
form.
Uncommon: the Adds' operands swapped (Add is commutative, Operators.md Add), the attention
scaling written Mul by 0.5.
Valid: opset 12 (ir_version 7+).

Targets onnxruntime's EmbedLayerNormFusion (ort:extended).""",
    )
)
