"""Squeeze / Unsqueeze spelled as Reshape to a static shape, and back (Operators.md Squeeze-13,
Unsqueeze-13, Reshape-14: Squeeze drops the named size-1 axes, Unsqueeze inserts size-1 axes at the
named output positions; Reshape to a shape holding the same dims in the same order gives the same
tensor, row-major order being unchanged by size-1 axes). A Reshape entry 0 copies the input's dim at
the same index (allowzero 0), so a dim that is not static is written 0 where it keeps its index and
the rewrite is left out where it would move.

- ``squeeze-as-reshape``: Squeeze with static axes (or none: every dim must then be static) → Reshape;
- ``unsqueeze-as-reshape``: Unsqueeze with static axes → Reshape;
- ``reshape-as-squeeze``: Reshape whose input and output dims onnx shape inference knows, and whose
  output is the input with only size-1 dims dropped (→ Squeeze) or only size-1 dims inserted
  (→ Unsqueeze).

Main-graph nodes of the default domain; opset >= 9 to Reshape (its shape an int64 Constant,
Constant-9), >= 5 back (Reshape-5's shape input); axes as an attribute before opset 13, as an int64
input from it. Sites are the rewritten nodes, which keep their name
and output."""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations._base import (
    Rewrite,
    all_names,
    drop_unused,
    is_default_domain,
    node_label,
    opset,
    static_axes,
    static_tensors,
)
from passcheck.mutations._graph_edit import int64_constant, splice
from passcheck.mutations._only import wanted
from passcheck.mutations._shapes import known
from passcheck.mutations.catalogue import Freedom

if TYPE_CHECKING:
    import onnx

MIN_OPSET = 5
#: The shape is an int64 Constant, which Constant takes from opset 9 (Constant-1: float types only).
TO_RESHAPE_OPSET = 9
#: Squeeze / Unsqueeze take ``axes`` as an input from opset 13 (an attribute before).
AXES_INPUT = 13


def _shape(in_dims, out_dims) -> list[int] | None:
    """A Reshape shape giving ``out_dims`` from ``in_dims``: static dims as themselves, a dim that is
    not static as 0 when it is the input's dim at the same index; None when a dim cannot be written."""
    shape = []
    for j, d in enumerate(out_dims):
        if isinstance(d, int) and d > 0:
            shape.append(d)
        elif d is not None and j < len(in_dims) and in_dims[j] == d:
            shape.append(0)  # a static 0 too: copied, never literal (allowzero 0)
        else:
            return None
    return shape


def _squeezed(n, dims, static) -> list | None:
    """The output dims of a Squeeze of ``dims``, or None."""
    axes = static_axes(n, static)
    if axes is None:
        if len(n.input) > 1 and n.input[1]:
            return None
        if not all(isinstance(d, int) for d in dims):
            return None
        return [d for d in dims if d != 1]
    if not all(-len(dims) <= a < len(dims) for a in axes):
        return None
    gone = {a % len(dims) for a in axes}
    return [d for j, d in enumerate(dims) if j not in gone]


def _unsqueezed(n, dims, static) -> list | None:
    """The output dims of an Unsqueeze of ``dims``, or None."""
    axes = static_axes(n, static)
    rank = len(dims) + len(axes or [])
    if not axes or not all(-rank <= a < rank for a in axes) or len({a % rank for a in axes}) != len(axes):
        return None
    put = {a % rank for a in axes}
    rest = iter(dims)
    return [1 if j in put else next(rest) for j in range(rank)]


def _to_reshape(model: onnx.ModelProto, only: frozenset[str] | None, op: str, out_dims) -> list[str]:
    import onnx

    if opset(model) < TO_RESHAPE_OPSET:
        return []
    g = model.graph
    types = static = taken = None
    before, sites, freed = {}, [], set()
    for i, n in enumerate(g.node):
        label = node_label(n, i)
        if n.op_type != op or not is_default_domain(n) or not wanted(only, label):
            continue
        types = known(model) if types is None else types
        static = static_tensors(g) if static is None else static
        x = types.get(n.input[0])
        if x is None or x.dims is None:
            continue
        dims = out_dims(n, list(x.dims), static)
        shape = None if dims is None else _shape(x.dims, dims)
        if shape is None:
            continue
        taken = all_names(model) if taken is None else taken
        c = int64_constant(taken, f"{n.output[0]}_shape", shape)
        before[i] = [c]
        freed.update(n.input[1:])
        n.CopyFrom(onnx.helper.make_node("Reshape", [n.input[0], c.output[0]], [n.output[0]], name=n.name))
        sites.append(label)
    if sites:
        splice(g, before)
        drop_unused(g, freed)
    return sites


def squeeze_as_reshape(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Each Squeeze whose input rank and kept dims are known → Reshape to a static shape."""
    return _to_reshape(model, only, "Squeeze", _squeezed)


def unsqueeze_as_reshape(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Each Unsqueeze with static axes whose input rank and dims are known → Reshape to a static shape."""
    return _to_reshape(model, only, "Unsqueeze", _unsqueezed)


def _ones_moved(short, long) -> list[int] | None:
    """The positions in ``long`` whose removal (each a static 1) leaves ``short``, or None."""
    if None in short or None in long:
        return None
    picked, j = [], 0
    for i, d in enumerate(long):
        if j < len(short) and d == short[j]:
            j += 1
        elif d == 1:
            picked.append(i)
        else:
            return None
    return picked if j == len(short) and len(picked) == len(long) - len(short) else None


def reshape_as_squeeze(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Each Reshape that only drops size-1 dims → Squeeze, or only inserts them → Unsqueeze."""
    import onnx

    version = opset(model)
    if version < MIN_OPSET:
        return []
    g = model.graph
    types = taken = None
    before, sites, freed = {}, [], set()
    for i, n in enumerate(g.node):
        label = node_label(n, i)
        if n.op_type != "Reshape" or not is_default_domain(n) or not wanted(only, label):
            continue
        types = known(model) if types is None else types
        x, y = types.get(n.input[0]), types.get(n.output[0])
        if x is None or y is None or x.dims is None or y.dims is None or len(x.dims) == len(y.dims):
            continue
        op, short, long = ("Squeeze", y.dims, x.dims) if len(y.dims) < len(x.dims) else ("Unsqueeze", x.dims, y.dims)
        axes = _ones_moved(short, long)
        if not axes:
            continue
        taken = all_names(model) if taken is None else taken
        freed.add(n.input[1])
        if version < AXES_INPUT:
            new = onnx.helper.make_node(op, [n.input[0]], [n.output[0]], name=n.name, axes=axes)
        else:
            c = int64_constant(taken, f"{n.output[0]}_axes", axes)
            before[i] = [c]
            new = onnx.helper.make_node(op, [n.input[0], c.output[0]], [n.output[0]], name=n.name)
        n.CopyFrom(new)
        sites.append(label)
    if sites:
        splice(g, before)
        drop_unused(g, freed)
    return sites


REWRITES = (
    Rewrite(
        "squeeze-as-reshape",
        "Squeeze(x, axes) → Reshape(x, static shape; 0 copies a non-static dim at its own index) (Reshape-5+)",
        squeeze_as_reshape,
        inverse="reshape-as-squeeze",
    ),
    Rewrite(
        "unsqueeze-as-reshape",
        "Unsqueeze(x, static axes) → Reshape(x, static shape; 0 copies a non-static dim at its own index) (Reshape-5+)",
        unsqueeze_as_reshape,
        inverse="reshape-as-squeeze",
    ),
    Rewrite(
        "reshape-as-squeeze",
        "Reshape that only drops / inserts size-1 dims → Squeeze / Unsqueeze of those axes",
        reshape_as_squeeze,
        inverse="squeeze-as-reshape",
    ),
)

FREEDOMS = (
    Freedom(
        "squeeze-or-reshape",
        "operator schemas",
        "Operators.md Squeeze-1/11/13, Unsqueeze-1/11/13, Reshape-5/13/14 (0 copies the input dim at the same "
        "index unless allowzero)",
        "Dropping or inserting size-1 axes may be written as Squeeze / Unsqueeze of those axes or as Reshape to "
        "the resulting shape.",
        ("squeeze-as-reshape", "unsqueeze-as-reshape", "reshape-as-squeeze"),
        "main-graph Squeeze / Unsqueeze with static axes (Squeeze without axes: every dim static) whose kept dims "
        "are static or stay at their index (written 0), opset >= 9; back: Reshape whose known input and output "
        "dims differ only by static 1s, opset >= 5",
    ),
)
