"""Slice's static parameters spelled another way (ONNX operator spec, Slice-10/11/13):

- axes omitted means [0, …, len(starts)-1]; steps omitted means all 1 (Slice-10+). The rewrites
  write the defaults out, or drop them where they hold (axes as "" when steps stay).
- for a positive step, starts and ends are clamped to [0, d] on an axis of size d after a negative
  entry is counted from the back (+d) (Slice-11+: negative starts/ends). So on a static dim
  ``start`` and ``start - d`` name the same element, ``end`` and ``end - d`` too, and every end at
  or past d (``d``, ``INT64_MAX``) is the same. ``slice-bounds-negative`` writes each start and end
  counted from the back (an end at d as INT64_MAX), ``slice-bounds-positive`` the clamped
  non-negative values (an end past d as d).

Main graph only; sites are the rewritten Slice nodes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations._base import (
    Rewrite,
    all_names,
    chosen,
    drop_unused,
    is_default_domain,
    node_label,
    opset,
    static_tensors,
)
from passcheck.mutations._graph_edit import splice, trim_trailing_empty
from passcheck.mutations._shapes import known
from passcheck.mutations.catalogue import Freedom
from passcheck.mutations.index_sign import fresh_static

if TYPE_CHECKING:
    import onnx


def _params(n: onnx.NodeProto, static) -> list | None:
    """Slice's starts, ends, axes, steps as numpy arrays (None for an absent slot), or None when one is not static."""
    from onnx import numpy_helper

    out = []
    for slot in (1, 2, 3, 4):
        name = n.input[slot] if len(n.input) > slot else ""
        if name and name not in static:
            return None
        out.append(numpy_helper.to_array(static[name]).reshape(-1) if name else None)
    return out


def _candidates(model: onnx.ModelProto, only, lowest: int):
    g = model.graph
    if opset(model) < lowest:
        return
    static = static_tensors(g)
    for i, n in enumerate(g.node):
        if n.op_type == "Slice" and is_default_domain(n) and chosen(only, node_label(n, i)):
            p = _params(n, static)
            if p is not None and p[0] is not None and p[1] is not None and len(p[0]) == len(p[1]):
                yield i, n, p


def _set(g, taken, n, slot: int, array, before: list, freed: set) -> None:
    """Give ``n``'s input ``slot`` a fresh static tensor holding ``array`` (the slot appended when absent),
    an initializer or a Constant as the one it replaces (as ``starts`` when the slot was empty)."""
    like = n.input[slot] if len(n.input) > slot and n.input[slot] else n.input[1]
    made = fresh_static(g, taken, f"{n.output[0]}_{('starts', 'ends', 'axes', 'steps')[slot - 1]}", array, like)
    while len(n.input) <= slot:
        n.input.append("")
    if n.input[slot]:
        freed.add(n.input[slot])
    n.input[slot] = made[0].output[0] if made else g.initializer[-1].name
    before.extend(made)


def _bounds(model: onnx.ModelProto, only: frozenset[str] | None, negative: bool) -> list[str]:
    import numpy as np

    g, types = model.graph, known(model)
    taken, before, sites, freed = all_names(model), {}, [], set()
    for i, n, (starts, ends, axes, steps) in list(_candidates(model, only, 11)):
        k = types.get(n.input[0])
        if k is None or not k.rank or (steps is not None and (steps <= 0).any()):
            continue
        axes_ = np.arange(len(starts)) if axes is None else axes
        if len(axes_) != len(starts) or not ((axes_ >= -k.rank) & (axes_ < k.rank)).all():
            continue
        dims = [k.dims[int(a) % k.rank] for a in axes_]
        if not all(isinstance(d, int) and d > 0 for d in dims):
            continue
        top = np.iinfo(ends.dtype).max
        new_s, new_e = starts.copy(), ends.copy()
        for j, d in enumerate(dims):
            s = min(max(int(starts[j]) + d if starts[j] < 0 else int(starts[j]), 0), d)
            e = min(max(int(ends[j]) + d if ends[j] < 0 else int(ends[j]), 0), d)
            if negative:
                new_s[j] = s - d if s < d else s
                new_e[j] = top if e == d else e - d
            else:
                new_s[j], new_e[j] = s, e
        if (new_s == starts).all() and (new_e == ends).all():
            continue
        added: list = []
        if not (new_s == starts).all():
            _set(g, taken, n, 1, new_s, added, freed)
        if not (new_e == ends).all():
            _set(g, taken, n, 2, new_e, added, freed)
        before[i] = added
        sites.append(node_label(n, i))
    if sites:
        splice(g, before)
        drop_unused(g, freed)
    return sites


def _defaults(model: onnx.ModelProto, only: frozenset[str] | None, explicit: bool) -> list[str]:
    import numpy as np

    g, types = model.graph, known(model)
    taken, before, sites, freed = all_names(model), {}, [], set()
    for i, n, (starts, _ends, axes, steps) in list(_candidates(model, only, 10)):
        count, added = len(starts), []
        if explicit:
            if axes is None:
                _set(g, taken, n, 3, np.arange(count, dtype=starts.dtype), added, freed)
            if steps is None:
                _set(g, taken, n, 4, np.ones(count, dtype=starts.dtype), added, freed)
            if axes is not None and steps is not None:
                continue
            before[i] = added
        else:
            k = types.get(n.input[0])
            rank = None if k is None else k.rank
            plain_axes = axes is not None and (
                (axes == np.arange(count)).all()
                or (rank and opset(model) >= 11 and ((axes % rank) == np.arange(count)).all())
            )
            unit_steps = steps is not None and (steps == 1).all()
            if not plain_axes and not unit_steps:
                continue
            if unit_steps:
                freed.add(n.input[4])
                del n.input[4:]
            if plain_axes:
                freed.add(n.input[3])
                n.input[3] = ""
            trim_trailing_empty(n.input)  # data, starts and ends are required: never ""
        sites.append(node_label(n, i))
    if sites:
        splice(g, before)
        drop_unused(g, freed)
    return sites


def bounds_negative(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Slice with static parameters, positive steps, static dims: starts/ends counted from the back."""
    return _bounds(model, only, negative=True)


def bounds_positive(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Slice with static parameters, positive steps, static dims: starts/ends clamped to [0, d]."""
    return _bounds(model, only, negative=False)


def defaults_explicit(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Slice without axes or steps: axes [0, …, k-1] and steps [1, …, 1] written out."""
    return _defaults(model, only, explicit=True)


def defaults_omitted(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Slice with axes [0, …, k-1] (negative entries counted) or all-1 steps: those inputs dropped."""
    return _defaults(model, only, explicit=False)


REWRITES = (
    Rewrite(
        "slice-bounds-negative",
        "Slice starts/ends on static dims → counted from the back (an end at d → INT64_MAX) (opset >= 11)",
        bounds_negative,
        inverse="slice-bounds-positive",
    ),
    Rewrite(
        "slice-bounds-positive",
        "Slice starts/ends on static dims → clamped non-negative values in [0, d] (opset >= 11)",
        bounds_positive,
        inverse="slice-bounds-negative",
    ),
    Rewrite(
        "slice-defaults-explicit",
        "Slice without axes/steps → axes [0, …, k-1], steps [1, …, 1] written out (opset >= 10)",
        defaults_explicit,
        inverse="slice-defaults-omitted",
    ),
    Rewrite(
        "slice-defaults-omitted",
        'Slice with axes [0, …, k-1] or all-1 steps → those inputs omitted (axes as "" when steps stay)',
        defaults_omitted,
        inverse="slice-defaults-explicit",
    ),
)

FREEDOMS = (
    Freedom(
        "slice-bounds-spelling",
        "operator schemas",
        "Operators.md Slice-11/13 (negative starts/ends count from the back; for a positive step both are "
        "clamped to [0, d])",
        "On an axis of static size d a Slice start or end may be counted from the front or from the back, and "
        "any end at or past d (d, INT64_MAX) takes the rest of the axis.",
        ("slice-bounds-negative", "slice-bounds-positive"),
        "main-graph Slice nodes with static starts/ends/axes/steps, positive steps and a static dim on every "
        "sliced axis; the node gets fresh tensors, initializers or Constants as the ones they replace (shared "
        "ones stay for their other readers)",
    ),
    Freedom(
        "slice-default-inputs",
        "optional and variadic slots",
        "Operators.md Slice-10/11/13 (axes omitted: [0, …, len(starts)-1]; steps omitted: all 1)",
        "Slice's optional axes and steps may be omitted or written out with their default values.",
        ("slice-defaults-explicit", "slice-defaults-omitted"),
        "main-graph Slice-10+ nodes with static starts and ends; omitted where the axes are [0, …, k-1] "
        '(negative entries counted with a known rank, opset >= 11) or every step is 1; axes become "" when '
        "steps stay",
    ),
)
