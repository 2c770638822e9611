"""contrib/*: one node of an onnxruntime ``com.microsoft`` contrib op, for every contrib op whose CPU kernel the
installed onnxruntime registers, in the generator's spellings (M342; the gate M343).

Source: onnxruntime's own schemas (:mod:`passcheck.runtime.ort_schemas`; docs/ContribOperators.md in the
onnxruntime repository is generated from them) and its kernel registry (:mod:`passcheck.runtime.kernels`). Each
op's node is the generator's recipe (:func:`passcheck.generate.recipe.build_node`: the inputs and attributes the
schema states, element types the CPU provider runs, optional inputs omitted), with the rows of :data:`ROWS` on top
where the schema alone does not say what the kernel accepts (a bias of the hidden size, a scale that is a scalar:
the op's doc in ContribOperators.md). An op whose recipe still needs unknown semantics (a subgraph, an int index
input, packed weights) raises :class:`~passcheck.generate.recipe.NoRecipe` and is left out.

The forms are the generator's own spelling kinds, whose spec freedom does not depend on the domain:
``shape`` (graph input dims static / ``dim_param`` / anonymous, IR.md §Static tensor shapes), ``optional-input``
(a trailing optional input omitted vs written ``""``, IR.md §Nodes) and ``attr-default`` (an attribute omitted vs
written with the default its schema states). Output annotations carry the element type only (onnx's inference does
not know the domain). A pair is kept only when onnxruntime runs every form in a real session on the same feeds and
the forms agree (:func:`_gate`: :mod:`passcheck.cases.schema_gate`, run once per onnxruntime version in passcheck's
isolation worker, so a form that crashes onnxruntime costs that pair; the verdicts are cached under
``<cache>/contrib/``, ``passcheck list`` does not rebuild them). The generated set's code and cache key are untouched.

Before this family no base held a contrib op, so onnxruntime's symbolic shape inference
(``onnxruntime/tools/symbolic_shape_infer.py``) listed its contrib-op handlers untriggered (round 17f: 53 of 116).
"""

from __future__ import annotations

import functools
import math
import re
from pathlib import Path

import onnx

from passcheck.case_model import Case, Form
from passcheck.cases import register, schema_gate
from passcheck.cases._support import ir_version_for
from passcheck.generate import generator_hash, recipe
from passcheck.generate import model as gen_model
from passcheck.generate.node_spellings import attr_defaults, optional_inputs
from passcheck.generate.pair import Ctx, Pair
from passcheck.generate.spellings import shapes
from passcheck.passes import DEFAULT_PASSES
from passcheck.runtime import kernels, ort_schemas

FAMILY = "contrib"
#: What a selection names this family's cases by: read without importing this module
#: (:class:`passcheck.cases.sources.GatedModule`), which is imported, and its gate judged, only when one does.
SELECTED_BY = {"ids": ["contrib/*"], "tags": ["contrib", "contrib-*"]}
_OPTIONAL = onnx.defs.OpSchema.FormalParameterOption.Optional
DOMAIN = "com.microsoft"
#: the default-domain opset the forms import (onnxruntime's contrib schemas are version 1)
OPSET = 17
#: A default value an optional input's schema text states ("It's optional and default value is 0", "Default value is
#: 0 if it's not specified", "Defaults to 1", "by default it is 0.0").
_STATED = re.compile(r"(?:default value(?: is)?|defaults to|by default it is)\s+(-?\d+(?:\.\d+)?)", re.IGNORECASE)


def stated_default(param) -> float | None:
    """The default an optional formal input's description states (a number), or None."""
    m = _STATED.search(getattr(param, "description", "") or "")
    return float(m.group(1)) if m and param.option == _OPTIONAL else None


def stated_defaults(node: recipe.Node, ctx: Ctx) -> list[Pair]:
    """One pair per optional input whose schema text states its default (M355): ``common`` gives it, a scalar of
    that value (the quantization ops' zero points: "It's a scalar"), ``omitted`` leaves it out (an empty name, or
    nothing when it is last: IR.md §Nodes). The op's text says the two compute the same; onnx's ``optional_inputs``
    kind reaches a default only through the domain table's ``defaults``, which holds no contrib op."""
    out = []
    for k, f in enumerate(node.schema.inputs):
        if (d := stated_default(f)) is None:
            continue
        elem = node.dtypes.get(f.type_str) or (recipe.elem_type(f.type_str) if f.type_str.startswith("tensor(") else 0)
        if not elem:
            continue
        value = int(d) if recipe.np_dtype(elem).kind in "iub" else float(d)
        given = node.copy()
        while len(given.inputs) <= k:
            given.inputs.append(recipe.Input("", onnx.TensorProto.FLOAT, (), empty=True))
        given.inputs[k] = recipe.Input(f.name, elem, (), value=value)
        omitted = given.copy()
        omitted.inputs[k] = recipe.Input("", onnx.TensorProto.FLOAT, (), empty=True)
        while omitted.inputs and omitted.inputs[-1].empty:
            omitted.inputs.pop()
        forms = {"common": (given, "static", ""), "omitted": (omitted, "static", f"{f.name} left out")}
        doc = f"{f.name} given as its stated default {value} vs left out"
        out.append(Pair("stated-default", f.name.lower().replace("_", "-"), forms, doc))
    return out


def stated_attr_default(attr) -> float | None:
    """The default a scalar INT / FLOAT attribute's description states ("Default value is 0", "Default value is
    -10000.0f") when its schema records none, or None (also for a stated expression, "1/sqrt(head_size)")."""
    if attr.default_value.type or attr.type not in (onnx.AttributeProto.INT, onnx.AttributeProto.FLOAT):
        return None
    m = _STATED.search(attr.description or "")
    if not m or attr.description[m.end() :].lstrip().startswith("/"):
        return None
    return float(m.group(1))


def stated_attr_defaults(node: recipe.Node, ctx: Ctx) -> list[Pair]:
    """One pair per attribute the recipe leaves out whose schema text states a default its schema does not record
    (M392): ``common`` leaves it out, ``explicit`` writes that value (an INT as an int). IR.md §Attributes lets an
    optional attribute be left out; which value it then takes is the op's text, here the description only (the
    schema's own default, which :func:`~passcheck.generate.node_spellings.attr_defaults` writes, is empty). The
    kernel and every pass reading the attribute (``get_attribute(node, name, default)``) each carry the default in
    their own code; the gate keeps the pair only when onnxruntime computes the same for both."""
    out = []
    for name, a in node.schema.attributes.items():
        if name in node.attrs or a.required or (d := stated_attr_default(a)) is None:
            continue
        value = int(d) if a.type == onnx.AttributeProto.INT else d
        explicit = node.copy()
        explicit.attrs[name] = value
        forms = {"common": (node, "static", ""), "explicit": (explicit, "static", f"{name}={value!r} written out")}
        doc = f"attribute {name} omitted vs written with the default {value!r} its schema text states"
        out.append(Pair("stated-attr-default", name.lower().replace("_", "-"), forms, doc))
    return out


KINDS = (shapes, optional_inputs, attr_defaults, stated_defaults, stated_attr_defaults)
#: the spec section that makes each kind's forms one computation
SOURCES = {
    "shape": "IR.md §Static tensor shapes: a dim_param or an unknown dim holds for any size",
    "optional-input": "IR.md §Nodes: an optional input omitted at the end or written as an empty name",
    "attr-default": "IR.md §Attributes: an attribute left out takes the default its schema states",
    "stated-default": "IR.md §Nodes: an optional input may be left out; the op's schema text states the value it then "
    "takes",
    "stated-attr-default": "IR.md §Attributes: an optional attribute may be left out; the op's schema text states the "
    "value it then takes",
}
#: Rows on top of the generator's recipe (the domain table's keys, :func:`passcheck.generate.recipe.build_node`),
#: from each op's doc in ContribOperators.md: what a kernel checks that the schema's types do not say.
_SCALES = {
    "A_scale": {"value": 0.1},
    "A_zero_point": {"value": 1, "dtype": "int8"},
    "B_scale": {"value": 0.2},
    "B_zero_point": {"value": 2, "dtype": "int8"},
    "C_scale": {"value": 0.3},
    "C_zero_point": {"value": 3, "dtype": "int8"},
}
#: a quantized activation's four parameters, each a scalar (QLinearSigmoid / QLinearLeakyRelu: "It's a scalar")
_ACT_QPARAMS = {
    "X_scale": {"value": 0.1},
    "X_zero_point": {"value": 1, "dtype": "int8"},
    "Y_scale": {"value": 0.2},
    "Y_zero_point": {"value": 2, "dtype": "int8"},
}


def _ints(shape: tuple[int, ...], mod: int = 17, low: int = -8) -> list:
    """A constant integer payload of ``shape`` (nested lists), entries in ``[low, low + mod)``, no long runs."""
    flat = [(5 * i + 3) % mod + low for i in range(math.prod(shape))]
    for d in reversed(shape[1:]):
        flat = [flat[i : i + d] for i in range(0, len(flat), d)]
    return flat


def _qparams(names: tuple[str, ...], dtype: str = "int8", shape: tuple[int, ...] = ()) -> dict:
    """The ``<name>_scale`` / ``<name>_zero_point`` inputs of each quantized operand in ``names``: per-tensor (a
    scalar, or ``shape`` where the schema gives a per-tensor size such as ``[num_directions]``), scale 0.1, zero point
    0 of the operand's type ("per-tensor/layer quantization" in the quantized ops' schema text)."""
    value = lambda v: v if not shape else [v] * math.prod(shape)  # noqa: E731
    out = {}
    for n in names:
        out[f"{n}_scale"] = {"value": value(0.1)}
        out[f"{n}_zero_point"] = {"value": value(0), "dtype": dtype}
    return out


ROWS: dict[str, dict] = {
    # bias: 1-D of the last dim of A
    "BiasGelu": {"inputs": {"B": {"shape": [4]}}},
    "FastGelu": {"inputs": {"bias": {"shape": [4]}}},
    # gamma / beta / bias: 1-D of the hidden size (the input's last dim)
    "SkipLayerNormalization": {"inputs": {"gamma": {"shape": [4]}, "beta": {"shape": [4]}}},
    "SkipSimplifiedLayerNormalization": {"inputs": {"gamma": {"shape": [4]}}},
    # input (batch, sequence, hidden 4), weights (hidden, 3 hidden), bias (3 hidden); num_heads divides hidden
    "Attention": {
        "inputs": {"weights": {"shape": [4, 12], "constant": True}, "bias": {"shape": [12], "constant": True}},
        "attrs": {"num_heads": 2},
        "shape": [2, 3, 4],
    },
    "MultiHeadAttention": {
        "inputs": {"key": {"shape": [2, 3, 4]}, "value": {"shape": [2, 3, 4]}},
        "attrs": {"num_heads": 2},
    },
    # the scales and zero points are scalars (a per-tensor quantization)
    "QLinearAdd": {"inputs": {**_SCALES, "B": {"shape": [2, 3, 4]}}},
    "QLinearMul": {"inputs": {**_SCALES, "B": {"shape": [2, 3, 4]}}},
    # round 19d (M391): the zero points given (their schema: "It's optional. Default value is 0"); with the trailing
    # Y_zero_point left off the session aborts (row 1062), which the stated-default pairs keep in the gate's dropped
    "QLinearLeakyRelu": {"inputs": {**_ACT_QPARAMS}, "attrs": {"alpha": 0.1}},
    "QLinearSigmoid": {"inputs": {**_ACT_QPARAMS}},
    "QLinearGlobalAveragePool": {
        "shape": [1, 2, 3, 4],
        "inputs": {
            "x_scale": {"value": 0.1},
            "x_zero_point": {"value": 1, "dtype": "int8"},
            "y_scale": {"value": 0.2},
            "y_zero_point": {"value": 2, "dtype": "int8"},
        },
    },
    # a (sequence, sequence) cost matrix
    "DynamicTimeWarping": {"shape": [3, 4]},
    # the window size along the last axis
    "UnfoldTensor": {"attrs": {"size": 2}},
    # (batch, sequence, hidden 4); position_ids (batch, sequence); the caches (max position, rotary dim / 2)
    "RotaryEmbedding": {
        "inputs": {
            "position_ids": {"value": [[0, 1, 2], [0, 1, 2]], "dtype": "int64"},
            "cos_cache": {"shape": [3, 2], "constant": True},
            "sin_cache": {"shape": [3, 2], "constant": True},
        },
        "attrs": {"num_heads": 1},
        "shape": [2, 3, 4],
    },
    # the inner dims of a square matrix
    "Inverse": {"shape": [2, 3, 3]},
    # batched operands (..., M, K) and (..., K, N)
    "FusedMatMul": {"inputs": {"B": {"shape": [2, 4, 3]}}},
    "TransposeMatMul": {"inputs": {"B": {"shape": [2, 4, 3]}}},
    # round 18c (M354): the rows below from each op's schema text (its input docs: shapes, scalar scales, value ranges)
    # A (M, N) and B (K, N): rank 2
    "CDist": {"shape": [3, 4], "inputs": {"B": {"shape": [2, 4]}}},
    # X (N, C, L); W (C, M / group, k) as ConvTranspose (Operators.md); Pads (begin, end) per spatial axis (the
    # schema says optional, the CPU kernel requires it: "Dynamic pads tensor is required")
    "ConvTransposeWithDynamicPads": {
        "inputs": {"W": {"shape": [3, 2, 2], "constant": True}, "Pads": {"value": [0, 1], "dtype": "int64"}}
    },
    # input_ids (batch, sequence) int32 ids below the vocabulary size; the embeddings (rows, hidden); gamma / beta
    # (hidden); mask_index is an output the schema's inference writes (mask_index_type defaults to 1)
    "EmbedLayerNormalization": {
        "inputs": {
            "input_ids": {"value": [[0, 1, 2], [2, 1, 0]], "dtype": "int32"},
            "word_embedding": {"shape": [5, 4], "constant": True},
            "position_embedding": {"shape": [3, 4], "constant": True},
            "gamma": {"shape": [4], "constant": True},
            "beta": {"shape": [4], "constant": True},
        },
        "outputs": 2,
    },
    # Gemm's operands (M, K), (K, N); an activation the kernel knows
    "FusedGemm": {"shape": [3, 4], "inputs": {"B": {"shape": [4, 2]}}, "attrs": {"activation": "Relu"}},
    # plain mode: gate (..., 1)
    "GatedAdd": {"inputs": {"gate": {"shape": [2, 3, 1]}}},
    # scale (C), C dividing X's last dim
    "GatedRMSNorm": {"inputs": {"scale": {"shape": [4]}}},
    # X (N, C, H, W), Grid (N, H_out, W_out, 2)
    "GridSample": {"shape": [1, 2, 3, 4], "inputs": {"Grid": {"shape": [1, 2, 2, 2]}}},
    # a (B, T, H); dt_bias / decay_scale (H)
    "LinearAttentionGate": {"inputs": {"dt_bias": {"shape": [4]}, "decay_scale": {"shape": [4]}}},
    # a 1-D input; three outputs (uniques, idx, counts)
    "Unique": {"shape": [6], "outputs": 3},
    # streams (..., C, H), block_output (..., H), post_mix (..., C)
    "HyperConnectionPostMix": {"inputs": {"block_output": {"shape": [2, 4]}, "post_mix": {"shape": [2, 3]}}},
    # X (N, C, H, W); rois (num_rois, 4) normalized; batch_indices (num_rois) int32; crop_size [h, w] int32
    "CropAndResize": {
        "shape": [1, 2, 4, 4],
        "inputs": {
            "rois": {"value": [[0.0, 0.0, 1.0, 1.0], [0.2, 0.1, 0.8, 0.9]]},
            "batch_indices": {"value": [0, 0], "dtype": "int32"},
            "crop_size": {"value": [2, 3], "dtype": "int32"},
        },
    },
    # A (M, K) float; B (K, N) int8; b_scale a scalar (per-tensor)
    "DynamicQuantizeMatMul": {
        "shape": [3, 4],
        "inputs": {"B": {"value": [[1, -2], [3, 4], [-5, 6], [7, -8]], "dtype": "int8"}, "b_scale": {"value": 0.1}},
    },
    # axis an int32 scalar within [-rank - 1, rank]
    "ExpandDims": {"inputs": {"axis": {"value": 1, "dtype": "int32"}}},
    # A (M, K); B uint8 (N, k_blocks, block_size * bits / 8); scales (N, k_blocks); K=16, N=2, 4 bits, block 16
    "MatMulNBits": {
        "shape": [3, 16],
        "inputs": {
            "B": {"value": [[[(7 * i + 3 * n) % 256 for i in range(8)]] for n in range(2)], "dtype": "uint8"},
            "scales": {"value": [[0.1], [0.2]]},
        },
        "attrs": {"K": 16, "N": 2, "bits": 4, "block_size": 16},
    },
    # A (M, K) int8; B (K, N) int8; a_scale / b_scale scalars
    "MatMulIntegerToFloat": {
        "shape": [3, 4],
        "inputs": {
            "B": {"value": [[1, -2], [3, 4], [-5, 6], [7, -8]], "dtype": "int8"},
            "a_scale": {"value": 0.1},
            "b_scale": {"value": 0.2},
        },
    },
    # input_ids (batch, sequence) int64 below the vocabulary; scores (batch, vocabulary)
    "NGramRepeatBlock": {
        "inputs": {"input_ids": {"value": [[1, 2, 1], [3, 4, 5]], "dtype": "int64"}, "scores": {"shape": [2, 6]}},
        "attrs": {"ngram_size": 2},
    },
    # x (N, H, W, C)
    "NhwcMaxPool": {"shape": [1, 4, 4, 2], "attrs": {"kernel_shape": [2, 2]}},
    # input (batch, sequence, input hidden 4) uint8 / int8; weight (4, 3 * hidden); bias (3 * hidden); scalar scales
    "QAttention": {
        "inputs": {
            "weight": {"value": [[(5 * i + 3 * j) % 17 - 8 for j in range(12)] for i in range(4)], "dtype": "int8"},
            "bias": {"shape": [12], "constant": True},
            "input_scale": {"value": 0.05},
            "weight_scale": {"value": 0.1},
        },
        "attrs": {"num_heads": 2},
        "dtypes": {"T1": "uint8", "T2": "int8"},
    },
    # A (M, K), B (K, N); scalar scales and zero points of A's and B's types; no y_scale: a float output
    "QGemm": {
        "shape": [3, 4],
        "inputs": {
            "a_scale": {"value": 0.1},
            "a_zero_point": {"value": 1, "dtype": "int8"},
            "B": {"value": [[1, -2], [3, 4], [-5, 6], [7, -8]], "dtype": "int8"},
            "b_scale": {"value": 0.2},
            "b_zero_point": {"value": 0, "dtype": "int8"},
        },
        "dtypes": {"TY": "float"},
    },
    # X (N, C, H, W); scalar scales
    "QLinearAveragePool": {
        "shape": [1, 2, 4, 4],
        "inputs": {
            "x_scale": {"value": 0.1},
            "x_zero_point": {"value": 1, "dtype": "int8"},
            "y_scale": {"value": 0.2},
            "y_zero_point": {"value": 2, "dtype": "int8"},
        },
        "attrs": {"kernel_shape": [2, 2]},
    },
    # scalar scales and zero points; the Softmax opset it follows
    "QLinearSoftmax": {
        "inputs": {
            "X_scale": {"value": 0.1},
            "y_scale": {"value": 1 / 256},
            "y_zero_point": {"value": -128, "dtype": "int8"},
        },
        "attrs": {"opset": 13, "axis": -1},
    },
    # X and Y of the condition's shape; scalar scales and zero points
    "QLinearWhere": {
        "inputs": {
            "X": {"shape": [2, 3, 4]},
            "x_scale": {"value": 0.1},
            "x_zero_point": {"value": 1, "dtype": "int8"},
            "Y": {"shape": [2, 3, 4]},
            "y_scale": {"value": 0.2},
            "y_zero_point": {"value": 2, "dtype": "int8"},
            "z_scale": {"value": 0.3},
            "z_zero_point": {"value": 3, "dtype": "int8"},
        },
        "dtypes": {"T": "int8"},
    },
    # data a constant uint8 (rows, 16) of 8-bit values quantized in one block of 16 along the last axis (the default
    # quantize_axis 1); indices int64; scales (rows, 1)
    "GatherBlockQuantized": {
        "inputs": {
            "data": {"value": [[(3 * i + 5 * j) % 256 for j in range(16)] for i in range(2)], "dtype": "uint8"},
            "indices": {"value": [1, 0, 1], "dtype": "int64"},
            "scales": {"value": [[0.1], [0.2]]},
        },
        "attrs": {"bits": 8, "block_size": 16},
    },
    # query (batch, sequence, num_heads * head 8: the CPU kernel wants a multiple of 8), key / value (batch, sequence,
    # kv_num_heads * 8); seqlens_k (batch) = total length - 1; total_sequence_length an int32 scalar
    "GroupQueryAttention": {
        "shape": [1, 3, 16],
        "inputs": {
            "key": {"shape": [1, 3, 8]},
            "value": {"shape": [1, 3, 8]},
            "seqlens_k": {"value": [2], "dtype": "int32"},
            "total_sequence_length": {"value": 3, "dtype": "int32"},
        },
        "attrs": {"num_heads": 2, "kv_num_heads": 1},
    },
    # round 19d (M391): the rows below from each op's schema text, for the CPU-kernel ops 18c left without a base
    # X int32/int64/float of any shape; positive 0 gives the int32 output (1, the default, a uint32 one: not a type
    # passcheck feeds or compares)
    "MurmurHash3": {"dtypes": {"T1": "int64"}, "attrs": {"positive": 0}},
    # X (N, C, H, W) as MaxPool; M the int32 mask of X's shape (1 keeps an element)
    "MaxpoolWithMask": {
        "shape": [1, 2, 4, 4],
        "inputs": {
            "M": {
                "value": [[[[(h * 4 + w + c) % 3 and 1 for w in range(4)] for h in range(4)] for c in range(2)]],
                "dtype": "int32",
            }
        },
        "attrs": {"kernel_shape": [2, 2]},
    },
    # input (batch, sequence, hidden 4); position_ids (3, batch, sequence) below max_sequence_length; the caches
    # (max_sequence_length, head_size / 2); mrope_section sums to head_size / 2
    "MRotaryEmbedding": {
        "shape": [2, 3, 4],
        "inputs": {
            "position_ids": {
                "value": [[[0, 1, 2], [2, 1, 0]], [[0, 0, 1], [1, 2, 2]], [[2, 0, 1], [0, 2, 1]]],
                "dtype": "int64",
            },
            "cos_cache": {"shape": [3, 2], "constant": True},
            "sin_cache": {"shape": [3, 2], "constant": True},
        },
        "attrs": {"num_heads": 1, "mrope_section": [1, 1, 0]},
    },
    # logits (tokens, num_experts 4); expert_bias (num_experts); the first output, router_probs
    "MoEGroupRouter": {"shape": [3, 4], "inputs": {"expert_bias": {"shape": [4]}}, "attrs": {"top_k": 2}, "outputs": 1},
    # input_ids (batch, sequence); multipliers (max_ngram_size); vocab_sizes ((max_ngram_size - 1) * n_head_per_ngram)
    # strictly positive
    "NGramHashMapping": {
        "inputs": {
            "input_ids": {"value": [[1, 2, 3], [4, 5, 6]], "dtype": "int64"},
            "multipliers": {"value": [3, 5], "dtype": "int64"},
            "vocab_sizes": {"value": [7], "dtype": "int64"},
        },
        "attrs": {"pad_id": 0, "n_head_per_ngram": 1, "max_ngram_size": 2},
    },
    # 1-D token ids (the kernel: "src_tokens must be a 1-D tensor"); prev_suffix_match_idx a scalar
    "BifurcationDetector": {
        "inputs": {
            "src_tokens": {"value": [1, 2, 3, 4, 5], "dtype": "int64"},
            "cur_tokens": {"value": [1, 2], "dtype": "int64"},
            "prev_suffix_match_idx": {"value": 0, "dtype": "int64"},
        },
    },
    # key / query (batch, sequence, hc_mult 2, hidden 4); value (batch, sequence, hidden); the scales (hc_mult, hidden)
    "EngramGate": {
        "shape": [1, 3, 2, 4],
        "inputs": {
            "value": {"shape": [1, 3, 4]},
            "key_norm_scale": {"shape": [2, 4]},
            "query_norm_scale": {"shape": [2, 4]},
        },
    },
    # input (batch, channels 2, L); weight (channels, 1, k) depthwise
    "CausalConvWithState": {"shape": [1, 2, 5], "inputs": {"weight": {"shape": [2, 1, 3], "constant": True}}},
    # query / key / value (B, T, heads * d 4), two heads each; decay and beta (B, T, H_kv) for the default gated_delta
    "LinearAttention": {
        "shape": [1, 3, 8],
        "inputs": {"decay": {"shape": [1, 3, 2]}, "beta": {"shape": [1, 3, 2]}},
        "attrs": {"q_num_heads": 2, "kv_num_heads": 2},
    },
    # Sequence int32 (words, chars) below the char vocabulary, 0 a padding char (a word is its chars before the
    # first 0; an all-padding word's output row is left unwritten: row 1128); C (char vocabulary 5, char embedding
    # 4); W (filters 3, 1, window 2, char embedding) rank 4 (the kernel's "rank greater than 3"); B (filters)
    "WordConvEmbedding": {
        "inputs": {
            "Sequence": {"value": [[1, 2, 3], [4, 1, 0]], "dtype": "int32"},
            "W": {"shape": [3, 1, 2, 4]},
            "B": {"shape": [3]},
            "C": {"shape": [5, 4]},
        },
        "attrs": {"embedding_size": 3, "conv_window_size": 2, "char_embedding_size": 4},
    },
    # input (tokens 3, hidden 4); router_probs (tokens, num_experts 2); fc1 (experts, inter 3, hidden); fc2 (experts,
    # hidden, inter)
    "MoE": {
        "shape": [3, 4],
        "inputs": {
            "router_probs": {"shape": [3, 2]},
            "fc1_experts_weights": {"shape": [2, 3, 4], "constant": True},
            "fc2_experts_weights": {"shape": [2, 4, 3], "constant": True},
        },
    },
    # query (tokens 3, heads 2, head_size 4) and key / value alike; decay / beta (tokens, heads) for the default
    # gated_delta rule; initial_state (batch 1, heads, head_size_v, head_size_qk): without cu_seqlens the kernel
    # reads the batch size from it ("initial_state is required to determine batch size")
    "GatedDeltaNet": {
        "shape": [3, 2, 4],
        "inputs": {
            "key": {"shape": [3, 2, 4]},
            "value": {"shape": [3, 2, 4]},
            "decay": {"shape": [3, 2]},
            "beta": {"shape": [3, 2]},
            "initial_state": {"shape": [1, 2, 4, 4]},
        },
    },
    # query (batch, sequence 3, heads 2 * head 8), key / value (batch, sequence, kv heads 1 * 8); the caches (batch,
    # kv heads, max 16, 8); one block of 16 (max_blocks = 16 / 16): CSR rows [0, 1], cols [0]; lengths 3. The gate
    # drops it: the CPU kernel wants past_key and present_key to be one buffer ("past_key->DataRaw() ==
    # present_key->DataRaw()"), which only an IOBinding gives, not a session's run()
    "SparseAttention": {
        "shape": [1, 3, 16],
        "inputs": {
            "key": {"shape": [1, 3, 8]},
            "value": {"shape": [1, 3, 8]},
            "past_key": {"shape": [1, 1, 16, 8]},
            "past_value": {"shape": [1, 1, 16, 8]},
            "block_row_indices": {"value": [[0, 1]], "dtype": "int32"},
            "block_col_indices": {"value": [[0]], "dtype": "int32"},
            "total_sequence_length": {"value": 3, "dtype": "int32"},
            "key_total_sequence_lengths": {"value": [3], "dtype": "int32"},
        },
        "attrs": {"num_heads": 2, "kv_num_heads": 1, "sparse_block_size": 16},
    },
    # query / key / value (batch, 1, hidden 8), two heads; past_key / past_value (batch, heads, max 4, head 4) with
    # past_present_share_buffer (the CPU kernel: "past_present_share_buffer_ was false" without it) and
    # past_sequence_length ("required to specify past_sequence_length"); present_key / present_value written out
    # (left off, the process dies: SIGSEGV, row 1129)
    "DecoderMaskedMultiHeadAttention": {
        "outputs": 3,
        "shape": [1, 1, 8],
        "inputs": {
            "key": {"shape": [1, 1, 8]},
            "value": {"shape": [1, 1, 8]},
            "past_key": {"shape": [1, 2, 4, 4]},
            "past_value": {"shape": [1, 2, 4, 4]},
            "past_sequence_length": {"value": [2], "dtype": "int32"},
        },
        "attrs": {"num_heads": 2, "past_present_share_buffer": 1},
    },
    # X (seq 3, batch 1, input 4); W int8 (num_directions 1, input, 4 * hidden 2); R int8 (1, hidden, 4 * hidden);
    # per-tensor scales / zero points of size [num_directions]; the first output Y
    "DynamicQuantizeLSTM": {
        "shape": [3, 1, 4],
        "inputs": {
            "W": {"value": _ints((1, 4, 8)), "dtype": "int8"},
            "R": {"value": _ints((1, 2, 8)), "dtype": "int8"},
            **_qparams(("W", "R"), shape=(1,)),
        },
        "attrs": {"hidden_size": 2},
        "outputs": 1,
    },
    # input (total_tokens 5, channels 2) token-major; weight (channels, 1, kernel 3); cumulative_sequence_length
    # (batch 2 + 1) half-open ranges; initial_state (batch, channels, kernel - 1) required
    "VarlenCausalConvWithState": {
        "shape": [5, 2],
        "inputs": {
            "weight": {"shape": [2, 1, 3], "constant": True},
            "cumulative_sequence_length": {"value": [0, 2, 5], "dtype": "int32"},
            "initial_state": {"shape": [2, 2, 2]},
        },
    },
    # NGramHashMapping's row packed token-major: input_ids (total_tokens 5); cumulative_sequence_length (batch 2 + 1)
    "VarlenNGramHashMapping": {
        "inputs": {
            "input_ids": {"value": [1, 2, 3, 4, 5], "dtype": "int64"},
            "multipliers": {"value": [3, 5], "dtype": "int64"},
            "vocab_sizes": {"value": [7], "dtype": "int64"},
            "cumulative_sequence_length": {"value": [0, 2, 5], "dtype": "int32"},
        },
        "attrs": {"pad_id": 0, "n_head_per_ngram": 1, "max_ngram_size": 2},
    },
    # EmbedLayerNormalization's row with its weights quantized (int8 payloads, per-tensor scalar scales / zero points)
    "QEmbedLayerNormalization": {
        "inputs": {
            "input_ids": {"value": [[0, 1, 2], [2, 1, 0]], "dtype": "int32"},
            "word_embedding_quant": {"value": _ints((5, 4)), "dtype": "int8"},
            "position_embedding_quant": {"value": _ints((3, 4), 13), "dtype": "int8"},
            "gamma_quant": {"value": _ints((4,), 7, 1), "dtype": "int8"},
            "beta_quant": {"value": _ints((4,), 7), "dtype": "int8"},
            **_qparams(("word_embedding", "position_embedding", "gamma", "beta")),
        },
        "outputs": 2,
    },
    # X (seq 3, batch 1, input 4); W (1, 4 * hidden 2, input + memory depth: the cell reads X and the attention,
    # the kernel's "Input W must have shape {1,4*2,8}"), R (1, 4 * hidden, hidden); the attention mechanism: QW (1,
    # hidden, attn 3), MW (1, memory depth 4, attn), V (1, attn), M (batch, memory steps 2, memory depth)
    "AttnLSTM": {
        "shape": [3, 1, 4],
        "inputs": {
            "W": {"shape": [1, 8, 8], "constant": True},
            "R": {"shape": [1, 8, 2], "constant": True},
            "QW": {"shape": [1, 2, 3], "constant": True},
            "MW": {"shape": [1, 4, 3], "constant": True},
            "V": {"shape": [1, 3], "constant": True},
            "M": {"shape": [1, 2, 4]},
        },
        "attrs": {"hidden_size": 2},
        "outputs": 1,
    },
}


def contrib_schemas() -> list[ort_schemas.Schema]:
    """The installed onnxruntime's ``com.microsoft`` schemas it has a CPU kernel for, sorted by name."""
    return [s for s in ort_schemas.schemas(DOMAIN) if kernels.versions(DOMAIN, s.name)]


def pairs(schema: ort_schemas.Schema) -> list[tuple[str, Pair]]:
    """``(case id, pair)`` for each spelling kind that applies to ``schema``'s recipe; [] without a recipe.

    Raises nothing: a recipe the schema cannot give (:class:`~passcheck.generate.recipe.NoRecipe`) is no pair."""
    try:
        node = recipe.build_node(schema, OPSET, override=ROWS.get(schema.name, {}))
    except recipe.NoRecipe:
        return []
    if any(i.wrap for i in node.inputs):
        return []
    out = []
    for kind in KINDS:
        for pair in kind(node, Ctx(OPSET, None)):
            detail = f".{pair.detail}" if pair.detail else ""
            out.append((f"{FAMILY}/{schema.name.lower()}-{schema.since_version}.{pair.kind}{detail}", pair))
    return out


def _no_inference(model):
    return model  # onnx does not know the domain: outputs keep their element type only


def form_model(pair: Pair, form: str, ranks: dict[str, int] | None = None):
    """The model of ``form``; ``ranks`` (output name → rank, from the gate's onnxruntime run of ``common``) gives
    each output that many anonymous dims (the checker requires a shape on graph outputs, IR.md §Graphs; onnx's
    inference cannot give one here), as the generator does with a reference run's rank."""
    node, mode, _doc = pair.forms[form]
    m = gen_model.to_model(node, mode, infer=_no_inference)
    for o in m.graph.output:
        if ranks and o.name in ranks and not o.type.tensor_type.HasField("shape"):
            o.type.tensor_type.shape.SetInParent()
            for _ in range(ranks[o.name]):
                o.type.tensor_type.shape.dim.add()
    return m


def candidates(ops: tuple[str, ...] = ()) -> list[schema_gate.Candidate]:
    """Every pair of :func:`pairs` (of ``ops``, every op when empty) as a :class:`~passcheck.cases.schema_gate.
    Candidate`: each form built by :func:`form_model` with the ranks of the common form's onnxruntime run."""
    return [
        schema_gate.Candidate(cid, {f: functools.partial(form_model, pair, f) for f in pair.forms})
        for schema in contrib_schemas()
        if not ops or schema.name in ops
        for cid, pair in pairs(schema)
    ]


def _gate(ops: tuple[str, ...] = ()) -> dict:
    """``{"kept": {case id: {output: rank}}, "dropped": {case id: why}}``: a pair is kept when every form passes the
    gate (:func:`passcheck.cases.schema_gate.judge`, in the isolation worker; a form that kills onnxruntime gives
    "onnxruntime killed its process: SIGABRT"), else dropped with the first form's reason."""
    return _split(schema_gate.judge_all(candidates(ops), family=FAMILY))


def _split(index: dict) -> dict:
    kept, dropped = {}, {}
    for cid, v in index.items():
        why = next((f"{f}: {w}" for f, w in v["forms"].items() if w), None)
        if why:
            dropped[cid] = why
        else:
            kept[cid] = v["ranks"]
    return {"kept": kept, "dropped": dropped}


@functools.cache
def verdicts() -> dict:
    """:func:`_gate` of every op, built once per cache key (:func:`passcheck.cases.schema_gate.verdicts`: the
    generator's hash, the gate, this module and the schema reader)."""
    return _split(schema_gate.verdicts(FAMILY, candidates, _parts()))


def _parts() -> tuple:
    return (generator_hash(), Path(__file__), Path(ort_schemas.__file__))


def gate_key() -> str:
    """The verdicts' cache key (16 hex, :func:`passcheck.cases.schema_gate.gate_key`: the generator's hash, the gate,
    this module and the schema reader): ``<cache>/contrib/<key>/``."""
    return schema_gate.gate_key(_parts())


def _passes(op: str) -> tuple[str, ...]:
    """The default passes; onnxruntime's symbolic shape inference only for an op it has a handler for (without
    one, onnx's inference does not know the domain either and the tool raises "Incomplete symbolic shape
    inference" by design: ``infer_shapes`` refuses a model it cannot type)."""
    from passcheck.coverage.symbolic import PASSES, handler_names

    return tuple(p for p in DEFAULT_PASSES if op in handler_names() or p not in PASSES)


def _register(schema: ort_schemas.Schema, cid: str, pair: Pair, ranks: dict[str, int]) -> None:
    forms = {f: Form(functools.partial(form_model, pair, f, ranks), doc) for f, (_n, _m, doc) in pair.forms.items()}
    static = all(mode == "static" for _n, mode, _d in pair.forms.values())
    register(
        Case(
            id=cid,
            forms=forms,
            opset=OPSET,
            doc=f"{DOMAIN}.{schema.name}-{schema.since_version}: one node of onnxruntime's contrib op, its recipe from "
            f"onnxruntime's own schema (docs/ContribOperators.md in the onnxruntime repository).\n\n"
            f"Uncommon: {pair.doc} ({SOURCES[pair.kind]}); the forms ran and agreed in onnxruntime (the family's "
            f"gate).\nValid: opset {OPSET}, com.microsoft 1 (ir_version {ir_version_for(OPSET)}+).",
            tags=frozenset({FAMILY, f"contrib-{schema.name.lower()}", f"contrib-{pair.kind}"}),
            passes=_passes(schema.name),
            parity=frozenset({"status", "ops"} if static else {"status"}),
        )
    )


if contrib_schemas():
    _kept = verdicts()["kept"]
    for _schema in contrib_schemas():
        for _cid, _pair in pairs(_schema):
            if _cid in _kept:
                _register(_schema, _cid, _pair, _kept[_cid])
