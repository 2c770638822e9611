"""One element or piece of an axis selected by Gather, Slice or Split (issue 27). ONNX operator spec:

- Gather-1+ with a static scalar index ``i`` on ``axis`` drops that axis and keeps element ``i``
  (negative counts from the back, Gather-11+); with a 1-element 1-D index it keeps the axis at
  size 1. Slice-10+ with ``starts = [i]``, ``ends = [i + 1]`` (``INT64_MAX`` when ``i = -1``),
  ``axes = [axis]`` is the 1-element form; Squeeze-13 (axes input) or Squeeze-1 (attribute) drops
  the axis. So Gather ↔ Slice (+ Squeeze).
- Split-2+ cuts an axis into consecutive pieces (``split`` sizes, attribute before 13 and input
  from 13, else equal parts; Split-18's ``num_outputs`` n: chunks of ceil(dim / n), only the last one
  smaller): piece ``k`` is Slice of ``[offset_k, offset_k + size_k)``.

Main graph only, opset >= 13 (Slice, Squeeze and Split in their input-taking forms), where shape
inference knows the rank (and, for Split without sizes, the dim). Sites are the rewritten nodes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations._base import (
    Rewrite,
    all_names,
    chosen,
    drop_unused,
    fresh_name,
    is_default_domain,
    node_label,
    opset,
    static_tensors,
)
from passcheck.mutations._graph_edit import attr_value, int64_constant, splice
from passcheck.mutations._shapes import known
from passcheck.mutations.catalogue import Freedom

if TYPE_CHECKING:
    import onnx

INT64_MAX, INPUT_FORMS = 2**63 - 1, 13


def _slice_nodes(taken: set[str], x: str, out: str, start: int, end: int, axis: int) -> list[onnx.NodeProto]:
    import onnx

    params = (("starts", start), ("ends", end), ("axes", axis))
    cs, ce, ca = (int64_constant(taken, f"{out}_{w}", [v]) for w, v in params)
    node = onnx.helper.make_node(
        "Slice", [x, cs.output[0], ce.output[0], ca.output[0]], [out], name=fresh_name(taken, f"{out}_slice")
    )
    return [cs, ce, ca, node]


def gather_to_slice(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Gather(x, static scalar or [i] index, axis) → Slice(x, [i], [i+1], [axis]) (+ Squeeze(axis) for a scalar)."""
    import onnx
    from onnx import numpy_helper

    g, types, static = model.graph, known(model), static_tensors(model.graph)
    if opset(model) < INPUT_FORMS:
        return []
    taken, replace, sites, freed = all_names(model), {}, [], set()
    for i, n in enumerate(g.node):
        if (
            n.op_type != "Gather"
            or not is_default_domain(n)
            or n.input[1] not in static
            or not chosen(only, label := node_label(n, i))
        ):
            continue
        index = numpy_helper.to_array(static[n.input[1]])
        k = types.get(n.input[0])
        if index.size != 1 or index.ndim > 1 or k is None or not k.rank:
            continue
        axis, at = attr_value(n, "axis", 0), int(index.reshape(-1)[0])
        end = INT64_MAX if at == -1 else at + 1
        out = n.output[0]
        if index.ndim == 0:
            mid = fresh_name(taken, f"{out}_kept")
            nodes = _slice_nodes(taken, n.input[0], mid, at, end, axis)
            ax = int64_constant(taken, f"{out}_squeeze_axes", [axis])
            name = n.name or fresh_name(taken, out)
            nodes += [ax, onnx.helper.make_node("Squeeze", [mid, ax.output[0]], [out], name=name)]
        else:
            nodes = _slice_nodes(taken, n.input[0], out, at, end, axis)
            nodes[-1].name = n.name or nodes[-1].name
        replace[i] = nodes
        freed.add(n.input[1])
        sites.append(label)
    if sites:
        splice(g, replace=replace)
        drop_unused(g, freed)
    return sites


def _static_ints(n: onnx.NodeProto, slot: int, static) -> list[int] | None:
    from onnx import numpy_helper

    if len(n.input) <= slot or not n.input[slot]:
        return []
    if n.input[slot] not in static:
        return None
    return [int(v) for v in numpy_helper.to_array(static[n.input[slot]]).reshape(-1)]


def slice_to_gather(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Slice(x, [i], [i+1], [axis], [1]) with static 0 <= i < dim → Gather(x, [i], axis) (keeps the axis)."""
    import onnx

    g, types, static = model.graph, known(model), static_tensors(model.graph)
    if opset(model) < INPUT_FORMS:
        return []
    taken, before, sites, freed = all_names(model), {}, [], set()
    for i, n in enumerate(g.node):
        if n.op_type != "Slice" or not is_default_domain(n) or not chosen(only, label := node_label(n, i)):
            continue
        starts, ends, axes, steps = (_static_ints(n, s, static) for s in (1, 2, 3, 4))
        k = types.get(n.input[0])
        if None in (starts, ends, axes, steps) or len(starts) != 1 or k is None or not k.rank:
            continue
        axis = (axes or [0])[0]
        dim = k.dims[axis % k.rank] if -k.rank <= axis < k.rank else None
        if steps not in ([], [1]) or not isinstance(dim, int) or not 0 <= starts[0] < dim or ends[0] != starts[0] + 1:
            continue
        c = int64_constant(taken, f"{n.output[0]}_index", [starts[0]])
        freed.update(x for x in n.input[1:] if x)
        n.op_type = "Gather"
        n.input[:] = [n.input[0], c.output[0]]
        n.attribute.append(onnx.helper.make_attribute("axis", axis))
        before[i] = [c]
        sites.append(label)
    if sites:
        splice(g, before)
        drop_unused(g, freed)
    return sites


def split_to_slices(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Split(x, static sizes | equal parts of a static dim, axis) → one Slice per output."""
    g, types, static = model.graph, known(model), static_tensors(model.graph)
    if opset(model) < INPUT_FORMS:
        return []
    taken, replace, sites, freed = all_names(model), {}, [], set()
    for i, n in enumerate(g.node):
        if n.op_type != "Split" or not is_default_domain(n) or not chosen(only, label := node_label(n, i)):
            continue
        k = types.get(n.input[0])
        sizes = _static_ints(n, 1, static)
        num_outputs = attr_value(n, "num_outputs", None)
        if k is None or not k.rank or sizes is None or (sizes and num_outputs is not None):
            continue
        axis = attr_value(n, "axis", 0)
        dim = k.dims[axis % k.rank] if -k.rank <= axis < k.rank else None
        if not sizes:
            sizes = _equal_parts(dim, len(n.output), num_outputs)
            if sizes is None:
                continue
        if len(sizes) != len(n.output):
            continue
        nodes, offset = [], 0
        for out, size in zip(n.output, sizes, strict=True):
            if out:
                nodes += _slice_nodes(taken, n.input[0], out, offset, offset + size, axis)
            offset += size
        replace[i] = nodes
        freed.update(n.input[1:])
        sites.append(label)
    if sites:
        splice(g, replace=replace)
        drop_unused(g, freed)
    return sites


def _equal_parts(dim: object, outputs: int, num_outputs: int | None) -> list[int] | None:
    """The sizes of a Split with no ``split`` input over a static ``dim``: equal parts (Split-13), or with
    ``num_outputs`` (Split-18) chunks of ceil(dim / n) with only the last one smaller; None when ``dim`` is not
    static, Split-13's parts are not equal, or the last chunk would be empty or negative (no such split)."""
    if not isinstance(dim, int) or (num_outputs is not None and num_outputs != outputs) or outputs < 1:
        return None
    if num_outputs is None:
        return None if dim % outputs else [dim // outputs] * outputs
    chunk = -(-dim // outputs)
    last = dim - chunk * (outputs - 1)
    return None if last <= 0 else [chunk] * (outputs - 1) + [last]


REWRITES = (
    Rewrite(
        "gather-as-slice",
        "Gather(x, static i, axis) → Slice(x, [i], [i+1], [axis]) (+ Squeeze, scalar index)",
        gather_to_slice,
        inverse="slice-as-gather",
    ),
    Rewrite(
        "slice-as-gather",
        "Slice of one element [i, i+1) of an axis → Gather(x, [i], axis)",
        slice_to_gather,
        inverse="gather-as-slice",
    ),
    Rewrite(
        "split-as-slices",
        "Split(x, sizes | equal parts | num_outputs, axis) → one Slice per output (opset >= 13)",
        split_to_slices,
    ),
)

FREEDOMS = (
    Freedom(
        "gather-as-slice",
        "algebra",
        "Operators.md Gather-13, Slice-13, Squeeze-13",
        "Gather of one static index on an axis is Slice of [i, i+1) on that axis, then Squeeze of the axis for "
        "a scalar index; back, a one-element Slice is Gather with the 1-D index [i].",
        ("gather-as-slice", "slice-as-gather"),
        "main-graph Gather nodes with a static one-element index (back: Slice with static parameters, step 1, "
        "0 <= i < a static dim); opset >= 13",
    ),
    Freedom(
        "split-as-slices",
        "algebra",
        "Operators.md Split-13/18, Slice-13",
        "Split into consecutive pieces is one Slice per piece, at the running offset.",
        ("split-as-slices",),
        "main-graph Split nodes with static sizes, equal parts of a static dim, or Split-18's num_outputs (chunks of "
        "ceil(dim / n), the last one smaller); one way (merging sibling "
        "Slices into a Split is a pass's job)",
    ),
)
