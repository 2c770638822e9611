"""Reduce*(keepdims=0) ↔ Reduce*(keepdims=1) followed by Squeeze of the reduced axes (ONNX operator
spec, Reduce*-1…18: keepdims=1 keeps each reduced axis with size 1, keepdims=0 drops it; Squeeze-1/11/13
removes exactly the named size-1 axes, counted against the same rank). The Unsqueeze spelling of the
same freedom is :mod:`passcheck.mutations.keepdims`. Only reductions over a fixed, non-empty list of
axes, in the main graph; sites are the Reduce nodes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations._base import (
    Rewrite,
    all_names,
    consumers,
    drop_unused,
    fresh_name,
    is_default_domain,
    names_used_in_subgraphs,
    node_label,
    opset,
    static_axes,
    static_tensors,
    value_shapes,
)
from passcheck.mutations._graph_edit import int64_constant
from passcheck.mutations.catalogue import Freedom
from passcheck.mutations.keepdims import _normalized, _reduces

if TYPE_CHECKING:
    import onnx

#: Squeeze takes ``axes`` as an input from opset 13 (an attribute before).
SQUEEZE_AXES_INPUT = 13


def to_squeeze(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Reduce*(keepdims=0) → Reduce*(keepdims=1) → Squeeze(the same axes), writing the old output.
    The axes are shared with the Reduce when they are already an input (Reduce*-18, ReduceSum-13)."""
    import onnx

    g = model.graph
    version = opset(model)
    taken: set[str] | None = None
    after: dict[int, list[onnx.NodeProto]] = {}
    sites = []
    for i, n, axes in _reduces(model, only, keepdims=0):
        taken = all_names(model) if taken is None else taken
        out = n.output[0]
        n.output[0] = fresh_name(taken, f"{out}_kept")
        keep = [a for a in n.attribute if a.name != "keepdims"]  # keepdims=1 is the default
        del n.attribute[:]
        n.attribute.extend(keep)
        base = n.name or out
        name = fresh_name(taken, f"{base}_squeeze")
        if version < SQUEEZE_AXES_INPUT:
            after[i] = [onnx.helper.make_node("Squeeze", [n.output[0]], [out], name=name, axes=axes)]
        else:
            axes_in = n.input[1] if len(n.input) > 1 and n.input[1] else None
            made = []
            if axes_in is None:
                made.append(int64_constant(taken, f"{base}_axes", axes))
                axes_in = made[-1].output[0]
            after[i] = [*made, onnx.helper.make_node("Squeeze", [n.output[0], axes_in], [out], name=name)]
        sites.append(node_label(n, i))
    if sites:
        nodes = [m for i, n in enumerate(g.node) for m in [n, *after.get(i, [])]]
        del g.node[:]
        g.node.extend(nodes)
    return sites


def to_no_keepdims(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Reduce*(keepdims=1) read only by a Squeeze of the same axes → Reduce*(keepdims=0), writing the
    Squeeze's output. Axes are compared as sets, normalized against the Reduce input's rank when a
    list has negative entries (left alone when that rank is unknown)."""
    import onnx

    g = model.graph
    static = static_tensors(g)
    readers = consumers(g)
    protected = {o.name for o in g.output} | names_used_in_subgraphs(g)
    found = list(_reduces(model, only, keepdims=1))
    shapes = value_shapes(model) if found else {}
    drop, freed, sites = set(), set(), []
    for i, n, axes in found:
        out = n.output[0]
        users = readers.get(out, [])
        if out in protected or len(users) != 1:
            continue
        s = g.node[users[0]]
        if s.op_type != "Squeeze" or not is_default_domain(s) or s.input[0] != out:
            continue
        s_axes = static_axes(s, static)
        rank = len(shapes[out]) if out in shapes else None
        norm = _normalized(s_axes, rank) if s_axes else None
        if not s_axes or norm is None or norm != _normalized(axes, rank):
            continue
        keep = [a for a in n.attribute if a.name != "keepdims"]
        del n.attribute[:]
        n.attribute.extend([*keep, onnx.helper.make_attribute("keepdims", 0)])
        n.output[0] = s.output[0]
        drop.add(users[0])
        freed.update([out, *s.input[1:]])
        sites.append(node_label(n, i))
    if sites:
        nodes = [n for j, n in enumerate(g.node) if j not in drop]
        del g.node[:]
        g.node.extend(nodes)
        drop_unused(g, freed)
    return sites


REWRITES = (
    Rewrite(
        "keepdims-squeeze",
        "Reduce*(keepdims=0, fixed axes) → Reduce*(keepdims=1) then Squeeze(the same axes)",
        to_squeeze,
        inverse="squeeze-keepdims",
    ),
    Rewrite(
        "squeeze-keepdims",
        "Reduce*(keepdims=1, fixed axes) then Squeeze(the same axes) → Reduce*(keepdims=0)",
        to_no_keepdims,
        inverse="keepdims-squeeze",
    ),
)

FREEDOMS = (
    Freedom(
        "keepdims-or-squeeze",
        "operator schemas",
        "Operators.md Reduce*-1…18 (keepdims: keep the reduced axes with size 1, or drop them), Squeeze-1/11/13",
        "A reduction may drop the reduced axes (keepdims=0) or keep them and remove them with Squeeze.",
        ("keepdims-squeeze", "squeeze-keepdims"),
        "main-graph Reduce* nodes over a fixed, non-empty list of axes (back: a keepdims=1 Reduce read only by a "
        "Squeeze of the same axes).",
    ),
)
