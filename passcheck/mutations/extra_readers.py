"""Readers for a graph output's producer: ``y = Max(y', Identity(y'))``, ``y'`` what the producer writes.

IR.md §Nodes: a value is named once and may be read by any number of nodes, a graph output too; Operators.md
Max-8/12/13 (the elementwise maximum of its inputs: of a tensor and its copy, that tensor, NaN and -0.0 included)
and Identity. The producer of a main-graph output gains two readers (the Identity and the Max; one node reading
it twice once a pass removes the Identity); its other readers keep reading it directly, so no node comes between a
producer and a reader it had, and every value is kept.

Graph passes decide by that count. onnxruntime's fusions gate on a producer's output edges
(``optimizer_utils::CheckOutputEdges``; AttentionFusion enters on a LayerNormalization with two to six readers,
``core/optimizer/attention_fusion.cc``), and a pass reads the producer's own inputs on that path only. The
generated bases write their op's output as a graph output with no reader, and the library's pattern bases give
each value the readers the pattern needs, so a path gated on "this node has several readers" was reached only
where a base happened to share a value. A graph output's producer is no fusion's intermediate (a fusion may not
remove a graph output), so the readers added here block no fusion the base allowed.

Sites: ``OUTPUT``, a main-graph output written by a default-domain main-graph node, not computed from constants
alone, of an element type Max takes at the model's opset (Max-8: float16, float, double; Max-12: the integer types;
Max-13: bfloat16). The output keeps its name and declared type.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations import _base
from passcheck.mutations._base import Rewrite
from passcheck.mutations._graph_edit import splice
from passcheck.mutations._schema_types import accepts
from passcheck.mutations._shapes import known
from passcheck.mutations._value_sites import constant_values, inserted
from passcheck.mutations.catalogue import Freedom

if TYPE_CHECKING:
    import onnx


def extra_readers(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Each site output ``y`` (``only``: those labels) → ``Max(y', Identity(y'))``, the producer writing ``y'`` and
    its node readers reading ``y'``, in place; the labels changed, in graph-output order."""
    import onnx

    g, version = model.graph, _base.opset(model)
    types, static, taken = known(model), constant_values(model.graph), _base.all_names(model)
    producer = {o: i for i, n in enumerate(g.node) if _base.is_default_domain(n) for o in n.output if o}
    readers = _base.consumers(g)
    after: dict[int, list] = {}
    labels: list[str] = []
    for out in dict.fromkeys(o.name for o in g.output):
        k = types.get(out)
        if out not in producer or out in static or k is None or not _base.chosen(only, out):
            continue
        if not accepts("Max", version, k.elem_type) or not accepts("Identity", version, k.elem_type):
            continue
        i = producer[out]
        pre, copy = _base.fresh_name(taken, f"{out}_pre"), _base.fresh_name(taken, f"{out}_reader")
        node = g.node[i]
        node.output[:] = [pre if o == out else o for o in node.output]
        _base.redirect_reads(g, readers.get(out, ()), out, pre)
        after.setdefault(i, []).extend(
            [
                onnx.helper.make_node("Identity", [pre], [copy], name=_base.fresh_name(taken, f"{copy}_node")),
                onnx.helper.make_node("Max", [pre, copy], [out], name=_base.fresh_name(taken, f"{out}_max")),
            ]
        )
        labels.append(out)
    if labels:
        splice(g, replace={i: [g.node[i], *made] for i, made in after.items()})
    return labels


REWRITES = (
    Rewrite(
        "extra-readers",
        "a graph output y → Max(y', Identity(y')): its producer gains two readers (site OUTPUT)",
        extra_readers,
        detail="outputs",
        site_signature=inserted("Max"),
    ),
)

FREEDOMS = (
    Freedom(
        "value-extra-readers",
        "values",
        "IR.md §Nodes (a value is named once and read by any number of nodes); Operators.md Max-8/12/13 "
        "(elementwise maximum: of equal inputs, that input), Identity",
        "A graph output may be read by more nodes than the computation needs, their results joined back without a "
        "change (the maximum of a value and its copy is the value); a pass that takes another path when a node's "
        "output has several readers must keep the node's meaning on that path too.",
        ("extra-readers",),
        "one main-graph output written by a default-domain node, not static, of an element type Max takes at the "
        "model's opset (site OUTPUT); the producer's node readers keep reading it",
    ),
)
