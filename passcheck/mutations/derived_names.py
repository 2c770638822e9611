"""Values already named the way a pass derives new names: ``d = Identity(v)`` named ``v`` + a suffix a pass appends.

IR.md §Names Within a Graph: a value's name is any string unique in its graph, so a model may already hold
``y_intermediate`` beside ``y``. A pass that derives a new value's name from an old one must check the derived
name is free, as onnx's graph IR does for its own fresh names (``Graph::getNextUnique`` skips names in use). Where a
pass appends a fixed suffix instead, a model holding that name gets two writers of one value (not SSA). The bases
name values ``X``, ``Y``, ``t0``…, so no derived name was ever taken.

:data:`SUFFIXES` holds the suffixes the passes' own sources append, each with where it is written. Each site ``v``
(a main-graph value a default-domain node writes) gets, per suffix ``s`` whose ``v + s`` is free, a node
``Identity(v)`` writing ``v + s``; nothing reads it (IR.md does not require a node's outputs to be read), so every
output keeps its value. Labels: the value names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations import _base
from passcheck.mutations._base import Rewrite
from passcheck.mutations._freedom import Freedom
from passcheck.mutations._graph_edit import splice

if TYPE_CHECKING:
    import onnx

#: Suffix → where a pass appends it to an existing value's name without asking whether the result is free.
SUFFIXES = {
    "_intermediate": "onnx version_converter adapters/softmax_12_13.h (Softmax, LogSoftmax, Hardmax 12 -> 13)",
    "_intermediate_output": "onnx version_converter adapters/extend_supported_types.h (ExtendSupportedTypes)",
}


def decoys(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Each site value ``v`` (``only``: those names) → ``Identity(v)`` writing ``v + s`` for every free suffix of
    :data:`SUFFIXES`, right after ``v``'s producer; the names changed, in node order."""
    import onnx

    g = model.graph
    taken = _base.all_names(model)
    after: dict[int, list] = {}
    sites: list[str] = []
    for i, n in enumerate(g.node):
        if not _base.is_default_domain(n):
            continue
        for v in n.output:
            if not v or not _base.chosen(only, v):
                continue
            made = [
                onnx.helper.make_node("Identity", [v], [v + s], name=_base.fresh_name(taken, f"{v}{s}_node"))
                for s in SUFFIXES
                if v + s not in taken
            ]
            if made:
                taken.update(m.output[0] for m in made)
                after.setdefault(i, []).extend(made)
                sites.append(v)
    if sites:
        splice(g, replace={i: [g.node[i], *made] for i, made in after.items()})
    return sites


REWRITES = (
    Rewrite(
        "derived-name-decoys",
        "each node output v → also Identity(v) named v + a suffix a pass appends (_intermediate, …), unread",
        decoys,
        detail="values",
    ),
)

FREEDOMS = (
    Freedom(
        "value-names-derived",
        "names and domains",
        "IR.md §Names Within a Graph (a value's name is any string unique in its graph), §Nodes (a node's outputs "
        "need no reader)",
        "A graph may already hold a value named like one a pass derives from another (y_intermediate beside y); a "
        "pass that names what it adds must pick a name not in use.",
        ("derived-name-decoys",),
        "main-graph outputs of default-domain nodes; one unread Identity per suffix a pass's source appends "
        "(passcheck/mutations/derived_names.py SUFFIXES) whose name is free",
    ),
)
