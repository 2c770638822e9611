"""A neighbour where one float node is a QDQ node group: its inputs dequantized, its outputs quantized and back.

Operators.md QuantizeLinear / DequantizeLinear (since 10; per-tensor scale and zero point, 13 adds ``axis``)
define ``y = saturate(round(x / s) + z)`` and ``x = (y - z) * s``; a model in the "QDQ" format (onnxruntime's
quantization docs) writes a quantized op as ``DequantizeLinear`` on each input, the float op, and
``QuantizeLinear`` → ``DequantizeLinear`` on each output. onnxruntime's QDQ transformers match exactly that
group: ``QDQSelectorActionTransformer`` turns it into a QLinear / integer op through a selector per op type
(``qdq_transformer/selectors_actions/qdq_selectors.cc``, the op lists of
``qdq_selector_action_transformer.cc``: Conv, MatMul, Gemm, the pools, Resize, Pad, the unary and binary
ops, …), ``QDQPropagationTransformer`` and ``DoubleQDQPairsRemover`` move or drop the pairs around it. Each
selector reads the node's own attributes and optional inputs in its own way. The bases hold QDQ groups only
where a hand-written ``pattern-ort-qdq`` case writes one (about a dozen ops); the generated bases' nodes, with
every attribute and optional-input spelling the generator writes, never reach a selector.

Form ids ``vary:qdq-wrap@<node>``, ``vary:qdq-own-scale@<node>``, ``vary:qdq-16bit@<node>``,
``vary:qdq-float-params@<node>`` and ``vary:qdq-requant@<node>`` (:mod:`.variation`);
the change, for the node named by the site:

- each float input read at run time: ``QuantizeLinear(v, 1/32, uint8 128)`` → ``DequantizeLinear`` (the
  activation spelling: a range of ±4);
- each float initializer input: ``DequantizeLinear`` of a new initializer quantized symmetrically per tensor,
  int8 with scale ``max|c| / 63`` (7 bits, :data:`WEIGHT_PEAK`) and zero point 0 — except a third input
  (index ≥ 2) of a node whose first two inputs are dequantized, which is written int32 with scale ``s0 · s1``
  and zero point 0, the bias convention of Operators.md QLinearConv (``B``: "quantized using scale = x_scale *
  w_scale and zero_point = 0") that onnxruntime's Conv, Gemm and normalization selectors require (``dt_bias == INT32``);
- ``qdq-own-scale`` (offered where the third input is an initializer): that int32 input is written
  with a scale of its own instead, ``max|c| / 2^20``: Operators.md DequantizeLinear allows any scale, and only the
  QLinear ops (QLinearConv's ``B``, com.microsoft QGemm's ``C``) require ``s0 · s1``, so a transformer that fuses
  the group into one of them must rescale the bias or decline;
- ``qdq-float-params`` (offered where the node reads a float initializer): the group with every float
  initializer input left float, only the run-time inputs and the outputs quantized and back. Operators.md puts no
  tie between a node's inputs, so a group may dequantize some and not others, and onnxruntime names the form:
  ``WeightBiasQuantization`` (``qdq_transformer/weight_bias_quantization.cc``, Level 1) quantizes the float
  weight and bias of such a Conv, ConvTranspose or Gemm group itself (new Q / DQ, Mul, Div, Round, Cast nodes)
  before the selectors see it;
- each float output ``o``: the node writes ``o__f``, and ``o = DequantizeLinear(QuantizeLinear(o__f, 1/16,
  uint8 128))`` (±8), so readers and graph outputs keep their names.
- ``qdq-requant`` (offered where the node reads a run-time float input not already dequantized): the group of
  ``qdq-wrap`` with each such input requantized: ``QuantizeLinear(v, 1/32, uint8 128)`` → ``DequantizeLinear`` →
  ``QuantizeLinear(·, 1/16, uint8 128)`` → ``DequantizeLinear`` (:data:`REQUANT_SCALE`), two pairs at two scales.
  Operators.md QuantizeLinear / DequantizeLinear put no tie between one pair's parameters and the next's, onnxruntime's
  quantizer writes such a chain where a tensor's readers are given other quantization parameters (a ``convert``
  override: ``Q1 → DQ1 → Q2 → DQ2``, ``qdq_quantizer._add_qdq_ops_for_converted_activation``), and
  ``DoubleQDQPairsRemover``
  (``core/optimizer/double_qdq_pairs_remover.cc``, Level 1) says in its source that "each pair is allowed to have
  different scales and zero-points" and that the outer Q and DQ then get a scale and zero point it recomputes —
  new initializers the selectors downstream read as the group's own. Before this kind every QDQ neighbour's input
  had one pair, and the library's one double pair (``pattern-ort-qdq/double-pair``) has equal scales and feeds a
  float Neg no selector takes;
- ``qdq-16bit`` (offered at a default-domain opset ≥ 21): the same group with every activation pair (run-time
  inputs and outputs) uint16, zero point 2^15 and 1/256 of the uint8 scale (the same ranges, 256 times finer);
  weights and bias as in ``qdq-wrap``. QuantizeLinear-21 / DequantizeLinear-21 add int16 / uint16 to their
  quantized types (Operators.md) and onnxruntime's quantizer writes such groups (``QUInt16`` activations, int8
  weights); its selectors take or refuse a group by its types (``Is16BitIntType``, their ``allow_16bit`` flags),
  and the transformers that move or drop Q/DQ pairs meet another zero-point type. Before this kind every QDQ
  neighbour was 8-bit.

An input a DequantizeLinear (of an initializer scale) already writes keeps its pair, and its scale stands for the
product; an output only QuantizeLinear nodes read keeps its readers: a node already half in a group is completed,
not given a second pair. Sites: main-graph nodes of the default domain at an opset ≥ 13 (other than Q/DQ, Constant
and the ops with a graph attribute), every present input and output a float32 tensor (inferred), at least one
input, and not already a whole group. The
neighbour computes something else than its base (values rounded to the quantization grid); the unoptimized
neighbour is the reference like any neighbour's, so the numeric oracle compares what a QDQ transformer makes of
the group with what the group means.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import onnx

KIND = "qdq-wrap"
#: The kind whose third input is written at a scale of its own (a kind apart: the scheduler tells kinds apart, and
#: a selector's bias-scale condition is not its group condition).
OWN_KIND = "qdq-own-scale"
#: The kind whose activations (run-time inputs and outputs) are uint16: QuantizeLinear-21 / DequantizeLinear-21 add
#: int16 and uint16 to ``T2`` / ``T1`` (Operators.md), and onnxruntime's quantizer writes them (``QUInt16``
#: activations, int8 weights); the selectors' type checks (``Is16BitIntType``, ``allow_16bit``) see them.
WIDE_KIND = "qdq-16bit"
#: The kind whose float initializer inputs stay float (the activations-only group WeightBiasQuantization completes).
FLOAT_KIND = "qdq-float-params"
#: The kind whose run-time inputs are requantized: two Q/DQ pairs at two scales (the chain DoubleQDQPairsRemover
#: collapses, recomputing the outer pair's scale and zero point).
REQUANT_KIND = "qdq-requant"
KINDS = (KIND, OWN_KIND, WIDE_KIND, FLOAT_KIND, REQUANT_KIND)
#: The lowest default-domain opset of a site (QuantizeLinear-13 / DequantizeLinear-13).
MIN_OPSET = 13
#: The lowest default-domain opset of a :data:`WIDE_KIND` site (QuantizeLinear-21: 16-bit types).
WIDE_OPSET = 21
#: The uint16 activation grid: the uint8 ranges (±4 in, ±8 out) at 256 times the resolution, zero point 2^15.
WIDE_STEPS, WIDE_ZERO = 256, 2**15
#: Activation and output scales: powers of two, so the scales multiply exactly.
IN_SCALE, OUT_SCALE = 1 / 32, 1 / 16
#: The second pair's scale of a requantized input (:data:`REQUANT_KIND`): another power of two (±8 at uint8 128), so
#: the first pair's grid is a subset of the second's range and both roundings are exact in float32.
REQUANT_SCALE = 1 / 16
#: Ops never wrapped: the pair itself, Constant, and those holding a graph.
SKIP = frozenset({"QuantizeLinear", "DequantizeLinear", "DynamicQuantizeLinear", "Constant", "If", "Loop", "Scan"})
FLOAT = 1
#: The peak of an int8 weight: 7 bits. onnxruntime's uint8 x int8 kernels on x86 without VNNI add pairs of products
#: in int16 (VPMADDUBSW) and saturate past 7-bit weights (its quantization docs: ``reduce_range``), so a full-range
#: weight gives a fused QLinearConv a result that depends on the machine's instruction set, not on the pass.
WEIGHT_PEAK = 63

#: The int32 range the own-scale bias spans (2^20: far finer than ``s0 · s1``, exact in float32).
OWN_RANGE = float(2**20)


def is_kind(kind: str) -> bool:
    """Whether ``kind`` (without the ``vary:`` prefix) is this module's."""
    return kind in KINDS


def candidates(model: onnx.ModelProto, types: dict[str, Any]):
    """(kind, site) of every neighbour of ``model``; ``types``: value name → inferred TypeProto."""
    wide = _opset(model) >= WIDE_OPSET
    for node in sites(model, types):
        yield KIND, node
        if _has_bias(model, node):
            yield OWN_KIND, node
        if wide:
            yield WIDE_KIND, node
        if _reads_initializer(model, node):
            yield FLOAT_KIND, node
        if _reads_runtime(model, node):
            yield REQUANT_KIND, node


def _has_bias(model: onnx.ModelProto, name: str) -> bool:
    """Whether the node ``name`` has a third input that is an initializer (the int32 bias spelling applies)."""
    inits = {t.name for t in model.graph.initializer} - {i.name for i in model.graph.input}
    node = next(n for n in model.graph.node if n.name == name)
    return len(node.input) > 2 and node.input[2] in inits


def _reads_initializer(model: onnx.ModelProto, name: str) -> bool:
    """Whether the node ``name`` reads an initializer that is not a graph input (sites read float inputs only)."""
    inits = {t.name for t in model.graph.initializer} - {i.name for i in model.graph.input}
    node = next(n for n in model.graph.node if n.name == name)
    return any(v in inits for v in node.input)


def _reads_runtime(model: onnx.ModelProto, name: str) -> bool:
    """Whether the node ``name`` reads a value computed or fed at run time that no DequantizeLinear writes yet (the
    input a :data:`REQUANT_KIND` group requantizes)."""
    inits = {t.name for t in model.graph.initializer} - {i.name for i in model.graph.input}
    done_in = _dequantized(model)
    node = next(n for n in model.graph.node if n.name == name)
    return any(v and v not in inits and v not in done_in for v in node.input)


def sites(model: onnx.ModelProto, types: dict[str, Any]) -> list[str]:
    """Names of the nodes ``model`` may wrap, in node order (see module docs)."""
    if _opset(model) < MIN_OPSET:
        return []
    done_in, done_out = _dequantized(model), _quantized(model)
    out = []
    for n in model.graph.node:
        if n.domain not in ("", "ai.onnx") or n.op_type in SKIP or not n.name:
            continue
        ins = [v for v in n.input if v]
        outs = [v for v in n.output if v]
        if not (ins and outs and all(_is_float(types.get(v)) for v in ins + outs)):
            continue
        if all(v in done_in for v in ins) and all(o in done_out for o in outs):
            continue  # already a QDQ group: nothing to add
        out.append(n.name)
    return out


def _dequantized(model: onnx.ModelProto) -> dict[str, str]:
    """Value → the scale initializer of the DequantizeLinear that writes it (a value already dequantized)."""
    inits = {t.name for t in model.graph.initializer} - {i.name for i in model.graph.input}
    return {
        n.output[0]: n.input[1]
        for n in model.graph.node
        if n.op_type == "DequantizeLinear" and n.domain in ("", "ai.onnx") and len(n.input) > 1 and n.input[1] in inits
    }


def _quantized(model: onnx.ModelProto) -> set[str]:
    """Values every reader of which is a QuantizeLinear, and no graph output (a value already quantized)."""
    readers: dict[str, set[str]] = {}
    for n in model.graph.node:
        for v in n.input:
            readers.setdefault(v, set()).add(n.op_type)
    outputs = {o.name for o in model.graph.output}
    return {v for v, ops in readers.items() if ops == {"QuantizeLinear"} and v not in outputs}


def build(model: onnx.ModelProto, kind: str, site: str, types: dict[str, Any]) -> bool:
    """Wrap the node named ``site`` of ``model`` in place as ``kind`` says (see module docs); False when it is no
    site."""
    import numpy as np
    from onnx import helper, numpy_helper

    if site not in sites(model, types) or kind not in KINDS or (kind == WIDE_KIND and _opset(model) < WIDE_OPSET):
        return False
    if kind == REQUANT_KIND and not _reads_runtime(model, site):
        return False
    g = model.graph
    idx = next(i for i, n in enumerate(g.node) if n.name == site)
    node = g.node[idx]
    inits = {t.name: t for t in g.initializer}
    fed = {i.name for i in g.input}
    before: list = []
    new_inits: list = []
    scales: dict[int, Any] = {}
    done_in, done_out = _dequantized(model), _quantized(model)
    wide = kind == WIDE_KIND
    steps = WIDE_STEPS if wide else 1
    in_scale, out_scale = IN_SCALE / steps, OUT_SCALE / steps
    zero_point = np.array(WIDE_ZERO, np.uint16) if wide else np.array(128, np.uint8)

    def const(name: str, value) -> str:
        new_inits.append(numpy_helper.from_array(value, name))
        return name

    for k, v in enumerate(node.input):
        if not v:
            continue
        tag = f"{site}__q{k}"
        if v in done_in:  # already dequantized: its pair is kept, its scale read
            scales[k] = numpy_helper.to_array(inits[done_in[v]]).astype(np.float32)
            continue
        if v in inits and v not in fed and kind == FLOAT_KIND:
            continue  # the float parameter stays as it is
        if v in inits and v not in fed:
            c = numpy_helper.to_array(inits[v]).astype(np.float64)
            product = np.asarray(scales[0] * scales[1], np.float32) if 0 in scales and 1 in scales else None
            if k >= 2 and product is not None and product.size in (1, c.size):  # a per-axis product: per element
                s = product.reshape(c.shape) if product.size > 1 else product.reshape(())
                if kind == OWN_KIND:  # its own symmetric int32 scale: the range of int32 over the bias's peak
                    s = np.asarray((float(np.abs(c).max()) or 1.0) / OWN_RANGE)
                q = np.clip(np.round(c / s), -(2**31), 2**31 - 1).astype(np.int32)
                zero = np.array(0, np.int32)
            else:
                peak = float(np.abs(c).max()) if c.size else 0.0
                s = np.asarray(peak / WEIGHT_PEAK if peak > 0 else 1.0)
                q = np.clip(np.round(c / s), -WEIGHT_PEAK, WEIGHT_PEAK).astype(np.int8)
                zero = np.array(0, np.int8)
            s32 = np.asarray(s, np.float32)
            scales[k] = s32
            zero = np.zeros(s32.shape, zero.dtype)
            args = [const(tag, q), const(f"{tag}_s", s32), const(f"{tag}_z", zero)]
        else:
            scales[k] = in_scale
            s_name = const(f"{tag}_s", np.array(in_scale, np.float32))
            z_name = const(f"{tag}_z", zero_point)
            before.append(helper.make_node("QuantizeLinear", [v, s_name, z_name], [f"{tag}_q"], name=f"{tag}_Q"))
            args = [f"{tag}_q", s_name, z_name]
            if kind == REQUANT_KIND:  # the first pair, then the second at its own scale
                before.append(helper.make_node("DequantizeLinear", args, [f"{tag}_r"], name=f"{tag}_DQ0"))
                scales[k] = REQUANT_SCALE
                r_name = const(f"{tag}_rs", np.array(REQUANT_SCALE, np.float32))
                rz_name = const(f"{tag}_rz", zero_point)
                before.append(
                    helper.make_node("QuantizeLinear", [f"{tag}_r", r_name, rz_name], [f"{tag}_rq"], name=f"{tag}_Q1")
                )
                args = [f"{tag}_rq", r_name, rz_name]
        axis = {"axis": 0} if np.ndim(scales[k]) == 1 else {}  # a per-channel bias scale: along its one axis
        before.append(helper.make_node("DequantizeLinear", args, [f"{tag}_d"], name=f"{tag}_DQ", **axis))
        node.input[k] = f"{tag}_d"
    after = []
    for k, o in enumerate(node.output):
        if not o or o in done_out:  # already quantized by its readers
            continue
        raw, tag = f"{o}__f", f"{site}__o{k}"
        node.output[k] = raw
        s_name = const(f"{tag}_s", np.array(out_scale, np.float32))
        z_name = const(f"{tag}_z", zero_point)
        after.append(helper.make_node("QuantizeLinear", [raw, s_name, z_name], [f"{tag}_q"], name=f"{tag}_Q"))
        after.append(helper.make_node("DequantizeLinear", [f"{tag}_q", s_name, z_name], [o], name=f"{tag}_DQ"))
    nodes = list(g.node)
    nodes[idx : idx + 1] = [*before, nodes[idx], *after]
    del g.node[:]
    g.node.extend(nodes)
    g.initializer.extend(new_inits)
    read = {v for n in g.node for v in n.input} | {o.name for o in g.output} | fed
    kept = [t for t in g.initializer if t.name in read]  # a weight only the node read is now its quantized copy
    del g.initializer[:]
    g.initializer.extend(kept)
    return True


def _is_float(t) -> bool:
    return t is not None and t.HasField("tensor_type") and t.tensor_type.elem_type == FLOAT


def _opset(model: onnx.ModelProto) -> int:
    return max((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), default=0)
