"""Variadic ops written with more or fewer inputs (issue 27, schema walk). ONNX operator spec:

- Max-8/12/13 and Min-8/12/13 take "1 to ∞" inputs with multidirectional broadcasting; max and
  min are associative and commutative for every type (no rounding), so ``Max(Max(a, b), c)`` is
  ``Max(a, b, c)`` and back (a left-to-right chain of two-input nodes).
- Sum-8/13 is the element-wise sum of its inputs; with two inputs it is one rounded addition, as
  ``Add(a, b)`` is (Add-7/13/14). More than two float inputs are left alone: the spec does not say
  in which order Sum adds them, so the chain's rounding is not promised to match.

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
    Rewrite("add-as-sum", "Add(a, b) → Sum(a, b) (floats; opset >= 8)", add_as_sum, inverse="sum-as-add"),
    Rewrite("sum-as-add", "Sum(a, b) → Add(a, b) (opset >= 8)", sum_as_add, inverse="add-as-sum"),
)

FREEDOMS = (
    Freedom(
        "variadic-max-min-arity",
        "algebra",
        "Operators.md Max-8/12/13, Min-8/12/13 (1 to ∞ inputs, multidirectional broadcasting)",
        "A Max or Min of several inputs may be one variadic node or a chain of two-input nodes (exact for every "
        "type: no rounding).",
        ("variadic-merge", "variadic-split"),
        "main-graph Max/Min nodes, opset >= 8; merged only where the inner output has no other reader (not a "
        "graph output, not read by a subgraph)",
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
