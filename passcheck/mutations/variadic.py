"""Variadic ops written with more or fewer inputs (issue 27, schema walk). ONNX operator spec:

- Max-8/12/13 and Min-8/12/13 take "1 to ∞" inputs with multidirectional broadcasting; max and
  min are associative and commutative for every type (no rounding), so ``Max(Max(a, b), c)`` is
  ``Max(a, b, c)`` and back (a left-to-right chain of two-input nodes).
- Sum-8/13 is the element-wise sum of its inputs; with two inputs it is one rounded addition, as
  ``Add(a, b)`` is (Add-7/13/14). More than two float inputs are left alone: the spec does not say
  in which order Sum adds them, so the chain's rounding is not promised to match.

- max and min are idempotent (``max(a, a) = a``, NaN included), so an operand of Max or Min may be
  read a second time; a one-element constant broadcasts alike at every rank up to the output's
  (Broadcasting.md: dims of 1 stretch, missing leading dims are 1s), so the second reading may be a
  copy at another rank (``variadic-repeat``).

Main graph, opset >= 8; an inner node is merged only when its output is read by the outer node
alone (not a graph output, not read by a subgraph). Sites are the outer (or rewritten) nodes."""

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
    static_tensors,
    value_shapes,
)
from passcheck.mutations._graph_edit import protected, splice
from passcheck.mutations._schema_types import accepts
from passcheck.mutations._shapes import known
from passcheck.mutations.catalogue import Freedom

if TYPE_CHECKING:
    import onnx

MIN_OPSET = 8
CHAINABLE = frozenset({"Max", "Min"})


def variadic_merge(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Max(Max(a, b), c) → Max(a, b, c) (Min alike), the inner node read by the outer one only."""
    g = model.graph
    if opset(model) < MIN_OPSET:
        return []
    made = {o: j for j, n in enumerate(g.node) for o in n.output}
    readers, keep_names = consumers(g), protected(g)
    replace, sites, merged = {}, [], set()
    for i, n in enumerate(g.node):
        if n.op_type not in CHAINABLE or not is_default_domain(n) or i in merged:
            continue
        if not chosen(only, label := node_label(n, i)):
            continue
        inputs, changed = [], False
        for x in n.input:
            j = made.get(x)
            inner = g.node[j] if j is not None else None
            if (
                inner is not None
                and j not in replace
                and inner.op_type == n.op_type
                and is_default_domain(inner)
                and x not in keep_names
                and readers.get(x) == [i]
            ):
                inputs.extend(inner.input)
                replace[j], changed = [], True
                merged.add(j)
            else:
                inputs.append(x)
        if changed:
            del n.input[:]
            n.input.extend(inputs)
            sites.append(label)
    if sites:
        splice(g, replace=replace)
    return sites


def variadic_split(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Max(a, b, c, …) → Max(Max(a, b), c) … (Min alike), left to right."""
    import onnx

    g = model.graph
    if opset(model) < MIN_OPSET:
        return []
    taken, before, sites = all_names(model), {}, []
    for i, n in enumerate(g.node):
        if n.op_type not in CHAINABLE or not is_default_domain(n) or len(n.input) < 3:
            continue
        if not chosen(only, label := node_label(n, i)):
            continue
        nodes, current = [], n.input[0]
        for x in n.input[1:-1]:
            out = fresh_name(taken, f"{n.output[0]}_{n.op_type.lower()}")
            nodes.append(onnx.helper.make_node(n.op_type, [current, x], [out], name=fresh_name(taken, f"{out}_node")))
            current = out
        last = n.input[-1]
        del n.input[:]
        n.input.extend([current, last])
        before[i] = nodes
        sites.append(label)
    if sites:
        splice(g, before)
    return sites


def variadic_repeat(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Max(a, …, c) → Max(a, …, c, c') (Min alike; opset >= 8): the last operand read once more.

    ``c'`` is ``c`` itself, except for a one-element constant (an initializer no graph input
    overrides, or a ``Constant(value=…)``): then a new initializer holding the same element at
    another rank, rank 0 for a constant of rank >= 1 and shape ``[1]`` for a scalar when the node's
    output has a known rank >= 1 (a ``[1]`` copy would turn a rank-0 output into ``[1]``). The
    node's output shape and values are unchanged (max and min are idempotent; Broadcasting.md)."""
    import numpy as np
    import onnx

    g = model.graph
    if opset(model) < MIN_OPSET:
        return []
    static, shapes, taken, sites = static_tensors(g), value_shapes(model), all_names(model), []
    for i, n in enumerate(g.node):
        if n.op_type not in CHAINABLE or not is_default_domain(n) or not n.input or not n.input[-1]:
            continue
        if not chosen(only, label := node_label(n, i)):
            continue
        last, copy = n.input[-1], n.input[-1]
        held = static.get(last)
        if held is not None and int(np.prod(held.dims)) == 1:
            value = onnx.numpy_helper.to_array(held)
            out_rank = len(shapes.get(n.output[0], ()))
            shape = () if value.ndim else (1,) if out_rank >= 1 else None
            if shape is not None:
                copy = fresh_name(taken, f"{last}_rank{len(shape)}")
                g.initializer.append(onnx.numpy_helper.from_array(value.reshape(shape), copy))
        n.input.append(copy)
        sites.append(label)
    return sites


def _swap(model: onnx.ModelProto, only: frozenset[str] | None, src: str, dst: str) -> list[str]:
    g, types, version = model.graph, known(model), opset(model)
    if version < MIN_OPSET:
        return []
    sites = []
    for i, n in enumerate(g.node):
        k = types.get(n.input[0]) if n.input else None
        if (
            n.op_type != src
            or not is_default_domain(n)
            or len(n.input) != 2
            or k is None
            or not accepts(dst, version, k.elem_type)
            or not chosen(only, label := node_label(n, i))
        ):
            continue
        n.op_type = dst
        sites.append(label)
    return sites


def add_as_sum(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Add(a, b) → Sum(a, b) where Sum takes the element type (floats)."""
    return _swap(model, only, "Add", "Sum")


def sum_as_add(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Sum(a, b) → Add(a, b)."""
    return _swap(model, only, "Sum", "Add")


REWRITES = (
    Rewrite(
        "variadic-merge",
        "Max(Max(a, b), c) → Max(a, b, c) (Min alike; opset >= 8)",
        variadic_merge,
        inverse="variadic-split",
    ),
    Rewrite(
        "variadic-split",
        "Max(a, b, c) → Max(Max(a, b), c) (Min alike; opset >= 8)",
        variadic_split,
        inverse="variadic-merge",
    ),
    Rewrite(
        "variadic-repeat",
        "Max(a, c) → Max(a, c, c') (Min alike; opset >= 8): the last operand read again, a one-element constant "
        "as a copy at another rank (max/min are idempotent; Broadcasting.md)",
        variadic_repeat,
    ),
    Rewrite("add-as-sum", "Add(a, b) → Sum(a, b) (floats; opset >= 8)", add_as_sum, inverse="sum-as-add"),
    Rewrite("sum-as-add", "Sum(a, b) → Add(a, b) (opset >= 8)", sum_as_add, inverse="add-as-sum"),
)

FREEDOMS = (
    Freedom(
        "variadic-max-min-arity",
        "algebra",
        "Operators.md Max-8/12/13, Min-8/12/13 (1 to ∞ inputs, multidirectional broadcasting); Broadcasting.md",
        "A Max or Min of several inputs may be one variadic node or a chain of two-input nodes (exact for every "
        "type: no rounding), and may read an operand twice (max and min are idempotent), a one-element constant "
        "at any rank up to the output's.",
        ("variadic-merge", "variadic-split", "variadic-repeat"),
        "main-graph Max/Min nodes, opset >= 8; merged only where the inner output has no other reader (not a "
        "graph output, not read by a subgraph); repeated: the last operand, a one-element constant at rank 0 (or "
        "[1] for a scalar, where the output's rank is known >= 1)",
    ),
    Freedom(
        "add-as-binary-sum",
        "algebra",
        "Operators.md Sum-8/13, Add-7/13/14 (one IEEE 754 addition either way)",
        "Add(a, b) is Sum(a, b); Sum of three or more float inputs is not offered (the spec leaves the order of "
        "its additions open).",
        ("add-as-sum", "sum-as-add"),
        "main-graph two-input Add/Sum nodes of a known element type the target op takes (Sum: floats), opset >= 8",
    ),
)
