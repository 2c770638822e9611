"""A second reader of one value: ``v → Max(v, Identity(v))``, so the node that writes ``v`` has two readers.

IR.md §Nodes: a value is named once and may be read by any number of nodes; Operators.md Max-8/12/13 (the
elementwise maximum of its inputs: of two equal tensors, that tensor, NaN and -0.0 included) and Identity. The
rewrite leaves every value as it was and changes only how many nodes read the producer's output: one more
(the Identity) besides the Max, two edges into the producer where a graph output had none and a single reader had
one.

Graph passes decide by that count. onnxruntime's fusions gate on a producer's output edges
(``optimizer_utils::CheckOutputEdges``, ``GetOutputEdgesCount() == 1`` before a node may be folded into its reader;
AttentionFusion enters on a LayerNormalization with two to six readers, ``core/optimizer/attention_fusion.cc``), and
a pass reads the producer's own inputs on that path only. The generated bases write their op's output as a graph
output (no reader) and the library's pattern bases give each intermediate the readers the pattern needs, so a
path gated on "this node has several readers" was reached only where a base happened to share a value.

Sites (:mod:`passcheck.mutations._value_sites`): ``VALUE``, a main-graph value read by a node or a graph output,
not computed from constants alone, of an element type Max takes at the model's opset (Max-8: float16, float,
double; Max-12: the integer types; Max-13: bfloat16). A graph output keeps its name (the Max writes it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations import _value_sites
from passcheck.mutations._base import Rewrite
from passcheck.mutations._schema_types import accepts
from passcheck.mutations._value_sites import inserted
from passcheck.mutations.catalogue import Freedom

if TYPE_CHECKING:
    import onnx

    from passcheck.mutations._shapes import Known
    from passcheck.mutations._value_sites import Namer


def _max_of_copy(x: str, k: Known, version: int, names: Namer) -> list[onnx.NodeProto] | None:
    """``Max(x, Identity(x))``; None where Max at ``version`` does not take ``x``'s element type."""
    if not accepts("Max", version, k.elem_type) or not accepts("Identity", version, k.elem_type):
        return None
    copy, out = names.value("reader"), names.value("max")
    return [names.node("Identity", [x], copy), names.node("Max", [x, copy], out)]


def extra_readers(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Each value site ``v`` (``only``: those labels) → ``Max(v, Identity(v))`` in place; the labels changed."""
    return _value_sites.insert(model, only, [("extra-reader", _max_of_copy)])


REWRITES = (
    Rewrite(
        "extra-readers",
        "a value v → Max(v, Identity(v)): its producer gains a second reader (site VALUE)",
        extra_readers,
        detail="values",
        site_signature=inserted("Max"),
    ),
)

FREEDOMS = (
    Freedom(
        "value-extra-readers",
        "values",
        "IR.md §Nodes (a value is named once and read by any number of nodes); Operators.md Max-8/12/13 "
        "(elementwise maximum: of equal inputs, that input), Identity",
        "A value may be read by more nodes than the computation needs, their results joined back without a change "
        "(the maximum of a value and its copy is the value); a pass that takes another path when a node's output "
        "has several readers must keep the node's meaning on that path too.",
        ("extra-readers",),
        "one main-graph value that is not static, of an element type Max takes at the model's opset (site VALUE)",
    ),
)
