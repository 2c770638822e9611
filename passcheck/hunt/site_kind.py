"""What kind of site a rewrite's site is, for the hunt: the rewrite's site signature
(:meth:`~passcheck.mutations._base.Rewrite.signature`: a node's op type and its readers', a value's producer and
readers) with the rank and element type of what it names, and the single sites of a rewrite a base keeps: one per
kind first.

**Rank.** A pass's rule often holds for one rank only (Operators.md Gemm takes rank-2 operands, so onnxruntime's
MatMul + Add fusion writes a Gemm for a rank-2 MatMul alone; BatchNormalization reads dim 1 as its channels): the
same op types at a rank-2 and a rank-3 value are two kinds of site. A value's rank is its declared or inferred one
(onnx shape inference); a node's, its inputs' ranks; ``?`` where unknown.

**Element type** (session 27). What a rewrite writes at a site is typed by what the site holds: a value's
``elem_type`` (IR.md "Tensor Element Types"), a node's inputs' and attributes' (an ``INTS`` / ``STRINGS`` list, a
``TENSOR``'s ``data_type``: Operators-ml.md LabelEncoder-4 writes ``keys_strings`` as a STRING ``keys_tensor``). A
pass's rule is often typed (onnxruntime's CommonSubexpressionElimination hashes tensor attributes by type; a constant
folder reads a numeric buffer): the same op types and rank at an INT64 and a STRING site are two kinds.

**Sampling.** A base keeps at most :data:`MAX_SITES` single sites of each rewrite (its forms, :mod:`.space`); drawn
uniformly, a site whose kind occurs once among many of another kind is rarely kept (three of a value × inserted-op
table of 69). One site per kind is drawn first, then the kinds kept are sampled, so a kind with one site is as
likely as a kind with fifty.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import onnx

#: Single-site forms kept per rewrite and base.
MAX_SITES = 3
_PIECES = re.compile(r"->|\.\.|>|:|=")  # the joins of a rewrite's compound site labels (edges, chains, regions)


def types(model: onnx.ModelProto, infer: bool = True) -> dict[str, str]:
    """Site label → the rank and element type text of what it names: ``<rank>:<ELEM>`` for a value (``?`` where
    unknown); for a node its inputs' ranks joined by ``,`` (an omitted input left out), then ``:`` and the sorted
    element types of its inputs and attributes (:func:`attribute_elems`). A node with optional inputs, and each
    value it writes, then carries ``;`` and which of them it gives (:func:`optional_slots`, round 7h; its optional
    outputs too, round 8e).
    ``infer``: with onnx shape inference's types of the intermediate values; else the declared ones alone (graph
    inputs, outputs, ``value_info``, initializers: no inference run, for a cheap look at many bases). Raises
    nothing: a model inference cannot read gives ``?``."""
    import onnx
    from onnx import TensorProto

    from passcheck.hunt import variation
    from passcheck.mutations._base import node_label

    if infer:
        types_ = variation._inferred(model)
    else:
        g = model.graph
        types_ = {v.name: v.type for v in [*g.input, *g.value_info, *g.output]}
        for t in g.initializer:
            types_.setdefault(t.name, onnx.helper.make_tensor_type_proto(t.data_type, list(t.dims)))

    def tensor(name: str):
        t = types_.get(name)
        return t.tensor_type if t is not None and t.HasField("tensor_type") else None

    def rank(name: str) -> str:
        t = tensor(name)
        return "?" if t is None or not t.HasField("shape") else str(len(t.shape.dim))

    def elem(name: str) -> str:
        t = tensor(name)
        return TensorProto.DataType.Name(t.elem_type) if t is not None and t.elem_type else "?"

    out = {name: f"{rank(name)}:{elem(name)}" for name in types_}
    opsets = {o.domain or "ai.onnx": o.version for o in model.opset_import}
    for i, n in enumerate(model.graph.node):
        elems = {elem(x) for x in n.input if x} | attribute_elems(n)
        slots = optional_slots(n, opsets)
        text = ",".join(rank(x) for x in n.input if x) + ":" + ",".join(sorted(elems))
        out[node_label(n, i)] = f"{text};{slots}" if slots else text
        for y in n.output:  # a value's kind carries its producer's optional inputs (round 7a's R53)
            if y and slots:
                out[y] = f"{out.get(y, '?:?')};{slots}"
    return out


def optional_slots(node: onnx.NodeProto, opsets: Mapping[str, int]) -> str:
    """Which of ``node``'s optional inputs and outputs it gives, from its schema (``onnx.defs.get_schema`` at the
    model's opset for the node's domain; ``OpSchema.inputs[i].option`` / ``OpSchema.outputs[i].option``
    ``Optional``; IR.md §Optional Inputs and Outputs, Operators.md: an optional input or output is omitted by leaving
    the trailing ones out or by the empty name ``""``): each optional formal input's name then ``+`` given, ``0``
    written ``""``, ``-`` omitted, joined by ``,`` (``B-`` for a LayerNormalization without bias); then, for a node
    whose schema has optional outputs, ``>`` and the same for them (round 8e: ``B->Mean-,InvStdDev-`` for a
    LayerNormalization writing ``Y`` alone, ``>Indices0`` for a MaxPool writing ``(Y, "")``). ``""`` for a node with
    no optional input or output, or whose schema onnx does not hold (a function, a contrib op). Raises nothing."""
    from onnx import defs

    domain = node.domain or "ai.onnx"
    try:
        schema = defs.get_schema(node.op_type, opsets.get(domain, 1), "" if domain == "ai.onnx" else domain)
    except Exception:  # noqa: BLE001 - an op onnx has no schema for (contrib, a local function) has no slots here
        return ""
    ins = _slots(schema.inputs, node.input)
    outs = _slots(schema.outputs, node.output)
    return f"{ins}>{outs}" if outs else ins


def _slots(formals, names) -> str:
    """``name`` and ``+`` / ``0`` / ``-`` of each optional formal parameter of ``formals`` (an ``OpSchema``'s inputs
    or outputs) as ``names`` (a node's inputs or outputs) give it, joined by ``,``."""
    from onnx import defs

    optional = defs.OpSchema.FormalParameterOption.Optional
    out = []
    for i, formal in enumerate(formals):
        if formal.option != optional:
            continue
        code = "-" if i >= len(names) else "0" if not names[i] else "+"
        out.append(f"{formal.name}{code}")
    return ",".join(out)


def attribute_elems(node: onnx.NodeProto) -> set[str]:
    """The element type names of ``node``'s attribute values (onnx.proto ``AttributeProto.AttributeType``): ``INT`` /
    ``INTS`` hold INT64, ``FLOAT`` / ``FLOATS`` FLOAT, ``STRING`` / ``STRINGS`` STRING, a ``TENSOR`` / ``TENSORS`` /
    ``SPARSE_TENSOR`` its ``data_type``; graphs and type protos none."""
    from onnx import AttributeProto, TensorProto

    scalar = {
        AttributeProto.INT: "INT64",
        AttributeProto.INTS: "INT64",
        AttributeProto.FLOAT: "FLOAT",
        AttributeProto.FLOATS: "FLOAT",
        AttributeProto.STRING: "STRING",
        AttributeProto.STRINGS: "STRING",
    }
    out = set()
    for a in node.attribute:
        if a.type in scalar:
            out.add(scalar[a.type])
        tensors = [a.t] if a.type == AttributeProto.TENSOR else list(a.tensors)
        if a.type == AttributeProto.SPARSE_TENSOR:
            tensors = [a.sparse_tensor.values]
        out |= {TensorProto.DataType.Name(t.data_type) for t in tensors if t.data_type}
    return out


def kind(rewrite_id: str, label: str, signatures: Mapping[str, object], types_: Mapping[str, str]) -> str:
    """The kind of site ``label`` of rewrite ``rewrite_id``: its site signature as text, then ``|t`` and the rank and
    element type text (:func:`types`) of the pieces of the label that name a value or node (an edge ``v->n``, a step
    ``v:name``: each piece's)."""
    from passcheck.mutations.registry import REWRITES

    sig = spell(REWRITES[rewrite_id].signature(label, signatures))
    got = [types_[p] for p in pieces(label, types_)]
    return f"{sig}|t{'/'.join(got)}" if got else sig


_UNNAMED = re.compile(r"#\d+:[^:>=.]+")  # an unnamed node's label, ``#<index>:<OpType>`` (_base.node_label)


def pieces(label: str, table: Mapping[str, object]) -> list[str]:
    """The pieces of site ``label`` that ``table`` names: the label itself when it does, else the unnamed nodes'
    labels in it (``#3:Conv``, which holds a join's ``:``) and the pieces between its joins."""
    if label in table:
        return [label]
    unnamed = _UNNAMED.findall(label)
    rest = _PIECES.split(_UNNAMED.sub(">", label))
    return [p for p in [*unnamed, *rest] if p in table]


def spell(key: object) -> str:
    """A site signature as text: nested tuples joined by ``/`` and ``,``."""
    if isinstance(key, tuple):
        return "/".join(",".join(x) if isinstance(x, tuple) else str(x) for x in key)
    return str(key)


def sample(labels: Sequence[str], kinds: Mapping[str, str], rng: random.Random, k: int = MAX_SITES) -> list[str]:
    """At most ``k`` of ``labels`` (in their order): one per kind (``kinds``: label → kind) drawn with ``rng``, then
    ``k`` of those kinds sampled; every label when there are at most ``k``."""
    if len(labels) <= k:
        return list(labels)
    groups: dict[str, list[str]] = {}
    for label in labels:
        groups.setdefault(kinds[label], []).append(label)
    firsts = [rng.choice(g) for g in groups.values()]
    chosen = set(rng.sample(firsts, min(k, len(firsts))))
    if len(chosen) < k:
        rest = [x for x in labels if x not in chosen]
        chosen |= set(rng.sample(rest, k - len(chosen)))
    return [x for x in labels if x in chosen]


def shape_facts(model: onnx.ModelProto) -> str:
    """The shape facts a base's form states (session 27, round 7h): for its graph inputs (initializers left out),
    its graph outputs and its ``value_info``, the sorted set of what each declared dim is (IR.md "Static tensor
    shapes"): ``v`` a ``dim_value``, ``p`` a ``dim_param``, ``u`` neither (an unknown dim), ``r`` a tensor declared
    without a shape (unknown rank), ``-`` none declared. Text like ``in=p,v out=u vi=-``: a case's ``common``,
    ``symbolic`` and ``anonymous`` forms state different facts, two forms that differ only in the values of their
    static dims the same ones. Raises nothing."""
    g = model.graph
    inits = {t.name for t in g.initializer}

    def codes(values) -> str:
        got = set()
        for v in values:
            if v.name in inits or not v.type.HasField("tensor_type"):
                continue
            t = v.type.tensor_type
            if not t.HasField("shape"):
                got.add("r")
                continue
            for d in t.shape.dim:
                got.add("v" if d.HasField("dim_value") else "p" if d.HasField("dim_param") else "u")
        return ",".join(sorted(got)) or "-"

    return f"in={codes(g.input)} out={codes(g.output)} vi={codes(g.value_info)}"
