"""One Concat as two (``concat-nested``): ``Concat(a, b, c, …, axis)`` → ``Concat(Concat(a, b, axis), c, …, axis)``.

Operators.md Concat-1/4/11/13: the inputs are joined along ``axis`` in the order given, every other dim equal, for
every element type; no arithmetic is done, so joining the first two and then the rest gives the same tensor bit for
bit (concatenation is associative). Passes read a Concat by its input list: onnxruntime's fusions gate on its length
and read inputs by position (``FuseSliceConcatToSpaceToDepth`` wants four inputs; the attention and reshape fusions
read a shape vector built by a Concat before a Reshape), and constant folding and data propagation build a shape
vector out of the parts. Bases write each Concat flat; a model whose writer built a vector in two steps (a prefix,
then the rest) was never offered.

Sites: main-graph default-domain Concat nodes with three inputs or more, none of them empty. The node keeps its name,
output and attributes and reads the inner Concat (given the same attributes) first. One way: flattening nested
Concats is a pass's work.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite, all_names, fresh_name, is_default_domain, node_label
from passcheck.mutations._graph_edit import set_nodes
from passcheck.mutations._only import wanted
from passcheck.mutations.catalogue import Freedom

if TYPE_CHECKING:
    import onnx


def nest(model: onnx.ModelProto, only: Collection[str] | None = None) -> list[str]:
    """Each site ``Concat(a, b, rest…)`` → ``Concat(Concat(a, b), rest…)``, in place, the inner Concat placed just
    before the node. Returns the labels changed, in node order."""
    import onnx

    g = model.graph
    taken: set[str] | None = None
    sites, nodes = [], []
    for i, n in enumerate(g.node):
        label = node_label(n, i)
        nodes.append(n)
        if n.op_type != "Concat" or not is_default_domain(n) or len(n.input) < 3 or not all(n.input):
            continue
        if not wanted(only, label):
            continue
        taken = all_names(model) if taken is None else taken
        stem = n.name or n.output[0]
        mid = fresh_name(taken, f"{stem}_head")
        inner = onnx.helper.make_node("Concat", list(n.input[:2]), [mid], name=fresh_name(taken, f"{stem}_head_node"))
        inner.attribute.extend(n.attribute)
        nodes.insert(len(nodes) - 1, inner)
        rest = list(n.input[2:])
        del n.input[:]
        n.input.extend([mid, *rest])
        sites.append(label)
    if sites:
        set_nodes(g, nodes)
    return sites


REWRITES = (
    Rewrite(
        "concat-nested",
        "Concat(a, b, c, …) → Concat(Concat(a, b), c, …) on the same axis (Concat-1/4/11/13: no arithmetic, "
        "associative)",
        nest,
    ),
)

FREEDOMS = (
    Freedom(
        "concat-associative",
        "optional and variadic slots",
        "Operators.md Concat-1/4/11/13 (variadic inputs joined along axis in order)",
        "A Concat of three or more inputs is the same tensor as a Concat of its first two followed by a Concat of "
        "that with the rest, on the same axis.",
        ("concat-nested",),
        "main-graph Concat nodes with three or more inputs, none empty; one way (flattening is a pass's work)",
    ),
)
