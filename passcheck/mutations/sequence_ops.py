"""Concat and Split spelled with sequence ops (ONNX operator spec, each op's definition; IR.md §Types):

- ``concat-from-sequence``: ``Concat(a, b, …, axis)`` → ``ConcatFromSequence(SequenceConstruct(a, b, …), axis)``
  (ConcatFromSequence-11 with ``new_axis`` 0 concatenates the sequence's tensors along an existing axis,
  negative axes counted as Concat-11 counts them);
- ``sequence-concat``: the inverse, a ConcatFromSequence (``new_axis`` 0) of a SequenceConstruct nothing else
  reads → Concat of the constructed tensors;
- ``split-to-sequence``: ``Split(x, …)`` → ``SplitToSequence(x, split, axis)`` then ``SequenceAt(·, i)`` writing
  output i. Explicit sizes (Split-2/11 ``split`` attribute, Split-13/18 ``split`` input) become the 1-D
  ``split`` input; equal parts become a scalar chunk size, which SplitToSequence-11 reads as "chunks of that
  size, the last one smaller": Split before 18 needs the axis's dim to divide evenly by the output count,
  Split-18 ``num_outputs`` takes chunks of ceil(dim / num_outputs) (the last smaller), so the dim must be known
  and the chunks must number the outputs.

Main graph, opset >= 11, only element types the schemas and the installed onnxruntime's CPU kernels take
(:mod:`passcheck.mutations._kinds`); sites are the Concat / ConcatFromSequence / Split nodes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations._base import (
    Rewrite,
    all_names,
    chosen,
    consumers,
    fresh_name,
    is_default_domain,
    node_label,
    opset,
)
from passcheck.mutations._graph_edit import attr_value, int64_constant, protected, splice
from passcheck.mutations._kinds import runs
from passcheck.mutations._shapes import known
from passcheck.mutations.catalogue import Freedom

if TYPE_CHECKING:
    import onnx

#: Sequence ops from opset 11; Split takes ``split`` as an input from 13 and ``num_outputs`` from 18.
SEQUENCE_OPSET, SPLIT_INPUT_OPSET, NUM_OUTPUTS_OPSET = 11, 13, 18


def _elem(types: dict, n: onnx.NodeProto) -> int:
    return next((types[v].elem_type for v in (*n.output, *n.input) if v in types and types[v].elem_type), 0)


def _replace_each(op: str, model: onnx.ModelProto, only: frozenset[str] | None, make) -> list[str]:
    """Each main-graph ``op`` node (default domain, a site in ``only``) → ``make(node, version, types, taken)``'s
    nodes in its place (None: left alone); the labels changed. Nothing below opset 11."""
    g = model.graph
    version = opset(model)
    if version < SEQUENCE_OPSET:
        return []
    types, taken = known(model), all_names(model)
    replace, labels = {}, []
    for i, n in enumerate(g.node):
        label = node_label(n, i)
        if n.op_type != op or not is_default_domain(n) or not chosen(only, label):
            continue
        if (nodes := make(n, version, types, taken)) is not None:
            replace[i] = nodes
            labels.append(label)
    if labels:
        splice(g, replace=replace)
    return labels


def _sequence_concat(n: onnx.NodeProto, version: int, types: dict, taken: set[str]):
    import onnx

    if not all(n.input) or not runs(("SequenceConstruct", "ConcatFromSequence"), version, _elem(types, n)):
        return None
    seq = fresh_name(taken, f"{n.output[0]}_seq")
    construct = onnx.helper.make_node("SequenceConstruct", list(n.input), [seq], name=fresh_name(taken, f"{seq}_node"))
    concat = onnx.helper.make_node(
        "ConcatFromSequence", [seq], list(n.output), name=n.name, axis=attr_value(n, "axis", 0)
    )
    return [construct, concat]


def to_sequence_concat(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Each Concat → ConcatFromSequence(SequenceConstruct(its inputs), axis) writing its output."""
    return _replace_each("Concat", model, only, _sequence_concat)


def to_concat(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Each ConcatFromSequence (new_axis 0) of a SequenceConstruct read by nothing else → Concat(its inputs)."""
    import onnx

    g = model.graph
    readers, keep = consumers(g), protected(g)
    producer = {o: i for i, n in enumerate(g.node) for o in n.output if o}
    replace, labels = {}, []
    for i, n in enumerate(g.node):
        label = node_label(n, i)
        if n.op_type != "ConcatFromSequence" or not is_default_domain(n) or not chosen(only, label):
            continue
        j = producer.get(n.input[0])
        if attr_value(n, "new_axis", 0) != 0 or attr_value(n, "axis") is None or j is None or j in replace:
            continue
        s = g.node[j]
        if s.op_type != "SequenceConstruct" or not is_default_domain(s) or readers.get(s.output[0]) != [i]:
            continue
        if s.output[0] in keep:
            continue
        replace[j] = []
        replace[i] = [
            onnx.helper.make_node("Concat", list(s.input), list(n.output), name=n.name, axis=attr_value(n, "axis"))
        ]
        labels.append(label)
    if labels:
        splice(g, replace=replace)
    return labels


def _split_input(n: onnx.NodeProto, version: int, dims, taken: set[str]) -> tuple[str, list] | None:
    """The ``split`` input SplitToSequence needs for Split ``n`` (module docs), and the Constant nodes it takes."""
    outputs = len(n.output)
    if version < SPLIT_INPUT_OPSET and (sizes := attr_value(n, "split")):
        c = int64_constant(taken, f"{n.output[0]}_split", list(sizes))
        return c.output[0], [c]
    if version >= SPLIT_INPUT_OPSET and len(n.input) > 1 and n.input[1]:
        return n.input[1], []
    axis = attr_value(n, "axis", 0)
    if dims is None or not -len(dims) <= axis < len(dims) or not isinstance(dims[axis], int):
        return None
    d = dims[axis]
    if version < NUM_OUTPUTS_OPSET:
        if outputs == 0 or d % outputs:
            return None
        chunk = d // outputs
    else:
        chunk = -(-d // outputs)
        if chunk == 0 or -(-d // chunk) != outputs:
            return None
    if chunk == 0:
        return None
    c = int64_constant(taken, f"{n.output[0]}_chunk", [chunk], [])
    return c.output[0], [c]


def _split_to_sequence(n: onnx.NodeProto, version: int, types: dict, taken: set[str]):
    import onnx

    k = types.get(n.input[0])
    if not all(n.output) or k is None or not runs(("SplitToSequence", "SequenceAt"), version, k.elem_type):
        return None
    if (split := _split_input(n, version, k.dims, taken)) is None:
        return None
    split_name, nodes = split
    seq = fresh_name(taken, f"{n.output[0]}_seq")
    axis = attr_value(n, "axis", 0)
    nodes.append(onnx.helper.make_node("SplitToSequence", [n.input[0], split_name], [seq], name=n.name, axis=axis))
    for j, out in enumerate(n.output):
        at = int64_constant(taken, f"{out}_position", [j], [])
        nodes += [
            at,
            onnx.helper.make_node("SequenceAt", [seq, at.output[0]], [out], name=fresh_name(taken, f"{out}_at")),
        ]
    return nodes


def to_split_to_sequence(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Each Split → SplitToSequence(x, split, axis) and one SequenceAt per output (module docs)."""
    return _replace_each("Split", model, only, _split_to_sequence)


REWRITES = (
    Rewrite(
        "concat-from-sequence",
        "Concat(a, b, …, axis) → ConcatFromSequence(SequenceConstruct(a, b, …), axis) (opset >= 11)",
        to_sequence_concat,
        inverse="sequence-concat",
    ),
    Rewrite(
        "sequence-concat",
        "ConcatFromSequence(SequenceConstruct(a, b, …), axis, new_axis=0) → Concat(a, b, …, axis)",
        to_concat,
        inverse="concat-from-sequence",
    ),
    Rewrite(
        "split-to-sequence",
        "Split(x, …) → SplitToSequence(x, split, axis) then SequenceAt(·, i) per output (opset >= 11)",
        to_split_to_sequence,
    ),
)

FREEDOMS = (
    Freedom(
        "concat-through-sequence",
        "data types",
        "IR.md §Types (sequence types); Operators.md Concat-11/13, SequenceConstruct-11, ConcatFromSequence-11",
        "Concatenating tensors along an axis may be written as concatenating a sequence built from them.",
        ("concat-from-sequence", "sequence-concat"),
        "main-graph Concat nodes (back: a ConcatFromSequence with new_axis 0 of a SequenceConstruct read by "
        "nothing else); element types with CPU kernels in the installed onnxruntime",
    ),
    Freedom(
        "split-through-sequence",
        "data types",
        "IR.md §Types (sequence types); Operators.md Split-2/11/13/18, SplitToSequence-11, SequenceAt-11",
        "Splitting a tensor into outputs may be written as splitting it into a sequence and taking each position out.",
        ("split-to-sequence",),
        "main-graph Split nodes with explicit sizes, or equal parts over an axis whose dim is known; element "
        "types with CPU kernels in the installed onnxruntime",
    ),
)
