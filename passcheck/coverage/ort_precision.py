"""onnxruntime's precision-reducing passes (``ort-transformers:float16``, ``ort-quant:quantize-dynamic``), and which
ops of a model they act on.

Catalogue, from the installed onnxruntime's own lists (:func:`passcheck.passes.ort_float16.declared`,
:func:`passcheck.passes.ort_quantize.declared`):

- ``block:Op``: each op type of ``float16.DEFAULT_OP_BLOCK_LIST``, which the float16 conversion keeps float behind
  Casts (TopK, Range, CumSum, Min, Max, Upsample, …);
- ``float-input:Op``: each op of ``float16.ALWAYS_FLOAT_INPUTS``, some of whose inputs it keeps float (Resize's
  scales);
- ``quantize:Op``: each op type of the registries ``quantize_dynamic`` draws from (``IntegerOpsRegistry``: Conv,
  MatMul, Gather, Transpose, Attention, LSTM, EmbedLayerNormalization);
- ``quantize-qdq:Op`` / ``quantize-qlinear:Op``: each op type of ``QDQRegistry`` / ``QLinearOpsRegistry``, which
  ``quantize_static`` draws from in the QDQ / QOperator format (``ort-quant:quantize-static*``).

Evidence, by effect, only for a model holding such an op (any graph, subgraphs included; otherwise the pass is not
run): the float16 conversion is run and an op of the first two kinds counts when one of its nodes in the output
reads or writes a value a Cast the pass added reads or writes; the quantizer is run (one variant per registry) and
an op counts when the output has fewer nodes of it than the model (replaced by its quantized form) or one of its
nodes reads an 8-bit value or, in the QDQ format, a DequantizeLinear output.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from passcheck.coverage.entry import Entry, key
from passcheck.passes import ort_float16, ort_quantize

TOOL = "ort-precision"
FLOAT16 = (ort_float16.ID,)
QUANTIZE = tuple(f"{ort_quantize.PREFIX}{v}" for v in ort_quantize.VARIANTS)


def catalogue() -> list[Entry]:
    f16 = ort_float16.declared()
    if not f16:
        raise ImportError("onnxruntime.transformers.float16 is not importable")
    src16 = "onnxruntime.transformers.float16 (installed)"
    out = [Entry(TOOL, "block", op, FLOAT16, "kept float behind Casts", src16) for op in f16["op_block_list"]]
    out += [
        Entry(TOOL, "float-input", op, FLOAT16, f"inputs {idx} kept float", src16)
        for op, idx in sorted(f16["always_float_inputs"].items())
    ]
    for kind, (variants, ops) in _by_kind().items():
        names = ", ".join(ort_quantize.REGISTRIES[variants[0]])
        pids = tuple(f"{ort_quantize.PREFIX}{v}" for v in variants)
        out += [Entry(TOOL, kind, op, pids, names, "registry.py") for op in ops]
    return out


#: Entry kind by the registries a quantizer variant draws from.
KIND_OF = {
    ("IntegerOpsRegistry",): "quantize",
    ("QDQRegistry",): "quantize-qdq",
    ("QLinearOpsRegistry",): "quantize-qlinear",
}


def _by_kind() -> dict[str, tuple[list[str], list[str]]]:
    """Entry kind → (the variants drawing from its registries, the op types they hold)."""
    out: dict[str, tuple[list[str], list[str]]] = {}
    for variant, ops in ort_quantize.declared().items():
        kind = KIND_OF.get(ort_quantize.REGISTRIES[variant], "quantize")
        out.setdefault(kind, ([], list(ops)))[0].append(variant)
    return out


def _ops(graph) -> set[str]:
    out = set()
    for n in graph.node:
        out.add(n.op_type)
        for a in n.attribute:
            for g in ([a.g] if a.HasField("g") else []) + list(a.graphs):
                out |= _ops(g)
    return out


def _nodes(graph):
    for n in graph.node:
        yield n
        for a in n.attribute:
            for g in ([a.g] if a.HasField("g") else []) + list(a.graphs):
                yield from _nodes(g)


def triggers(model) -> dict[str, str]:
    """Entry key → effect for every op of the catalogue the passes acted on in ``model`` (see module docs)."""
    f16 = ort_float16.declared()
    present = _ops(model.graph)
    out: dict[str, str] = {}
    blocked = present & set(f16.get("op_block_list", ()))
    floats = present & set(f16.get("always_float_inputs", {}))
    if blocked or floats:
        after = _run(ort_float16.ADAPTERS[0], model)
        if after is not None:
            nodes = list(_nodes(after.graph))
            cast_io = {x for n in nodes if n.op_type == "Cast" for x in (*n.input, *n.output)}
            for kind, ops in (("block", blocked), ("float-input", floats)):
                for n in nodes:
                    if n.op_type in ops and cast_io & {*n.input, *n.output}:
                        out.setdefault(key(TOOL, kind, n.op_type), f"{ort_float16.ID}: {n.op_type} next to a Cast")
    for kind, (variants, ops) in _by_kind().items():
        wanted = present & set(ops)
        if not wanted:
            continue
        pid = f"{ort_quantize.PREFIX}{variants[0]}"
        after = _run(ort_quantize.OrtQuantizeAdapter(variants[0]), model)
        if after is None:
            continue
        eight = _eight_bit(after) | {n.output[0] for n in _nodes(after.graph) if n.op_type == "DequantizeLinear"}
        before_n = [n.op_type for n in _nodes(model.graph)]
        after_nodes = list(_nodes(after.graph))
        for op in sorted(wanted):
            fewer = sum(n.op_type == op for n in after_nodes) < before_n.count(op)
            reads = any(n.op_type == op and eight & set(n.input) for n in after_nodes)
            if fewer or reads:
                reading = "a quantized value" if kind == "quantize-qdq" else "an 8-bit value"
                how = "replaced" if fewer else f"reads {reading}"
                out[key(TOOL, kind, op)] = f"{pid}: {op} {how}"
    return out


def _run(adapter, model):
    """The pass's output on a copy of ``model``, or None when it fails (no evidence; the hunt's finding)."""
    with tempfile.TemporaryDirectory(prefix="passcheck-cov-") as d:
        outcome = adapter.run(model, Path(d))
    return outcome.model if outcome.ok else None


def _eight_bit(model) -> set[str]:
    """Names of int8 / uint8 values of ``model``: initializers, outputs of (Dynamic)QuantizeLinear and the output of
    every ``QLinear*`` node (Operators.md QLinearConv / QLinearMatMul ``y``: int8 or uint8; onnxruntime's
    ContribOperators.md QLinearAdd, QLinearMul, QLinearConcat, …: the same), which the QOperator format writes in
    place of a float op, so an op reading one reads a quantized value."""
    from onnx import TensorProto

    out = {t.name for t in model.graph.initializer if t.data_type in (TensorProto.INT8, TensorProto.UINT8)}
    q = ("QuantizeLinear", "DynamicQuantizeLinear")
    written = (n for n in _nodes(model.graph) if (n.op_type in q or n.op_type.startswith("QLinear")) and n.output)
    return out | {n.output[0] for n in written}
