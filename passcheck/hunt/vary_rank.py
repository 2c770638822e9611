"""Neighbours whose reader reads a value through a Reshape to another rank, its outputs reshaped back.

Reshape keeps the elements in row-major order and takes any shape of the same element count (Operators.md
Reshape), so between a value x of rank r and a node reading it the spec allows a Reshape to rank r ± 1, the
node's outputs reshaped back to their own shape: the graph's interface and every other value are kept, only what
the reader sees changes. Round 13a (R147) read that onnxruntime's MatmulBNFusion skips any Reshape between a MatMul
and a BatchNormalization (``matmul_bn_fusion.cc`` ``ignorable_nodes``) without reading its shape; no neighbour
changed the rank a reader sees (``shape-target-*`` move a Reshape the base already has, ``transpose-regroup`` keeps
the rank). Hunt only: these are not equivalent forms (a Softmax over a last axis of 1 is all ones).

Form id ``vary:reshape-rank@<node>=<tag>`` (:mod:`.variation`), x the node's input 0, d its dims:

=========  =====================================================================================================
tag        x read as
=========  =====================================================================================================
``up``     ``[d0, …, d(r-1), 1]``: the last dim split into ``(d, 1)``; every element keeps its index on every
           axis (rank r + 1)
``lead``   ``[1, d1, …, d(r-1), d0]`` (r ≥ 2): a new leading 1, the leading dim moved last; every axis ≥ 1 keeps
           its size (a reader's per-channel operand on axis 1 still fits) but the elements regroup (rank r + 1)
``down``   ``[d0, …, d(r-3), d(r-2)·d(r-1)]`` (r ≥ 3): the last two dims merged (rank r - 1)
=========  =====================================================================================================

Sites: main-graph nodes whose input 0 is a computed value or a graph input (not an initializer or a Constant's
output) of known rank r ≥ 1 and no dim statically 0 (a 0 in a Reshape shape needs ``allowzero``), with at most one
dim not static (written ``-1``; ``down`` keeps it only outside the merged pair), whose every output has x's
inferred shape (a shape-keeping reader: the back Reshape then writes x's shape, ``-1`` at its one symbolic dim), that
read x only at input 0 and broadcast no other input (:func:`candidates`' ``broadcasts``: a right-aligned operand
would meet another rank) nor read one of rank ≥ 2 (a matrix read along x's axes: MatMul's and Gemm's second
operand must match x's last dim, which the Reshape moves; a per-channel vector or a scalar, as BatchNormalization's
are, reads no axis of x but the one its schema names), at opset ≥ 5 (Reshape's shape an input). Whether the
reader's schema and kernel accept the new rank is the validity probe's to say (:mod:`.vary_probe`: checker, a run
under ``ort:disabled``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from passcheck.hunt import value_names

if TYPE_CHECKING:
    import onnx

KIND = "reshape-rank"
TAGS = ("up", "lead", "down")
#: Reshape takes its shape as an input from opset 5 (Operators.md Reshape-5).
RESHAPE_INPUT = 5


def is_kind(kind: str) -> bool:
    """Whether ``kind`` (without the ``vary:`` prefix) is this module's."""
    return kind == KIND


def target(dims: list[int | None], tag: str) -> list[int] | None:
    """The shape x of dims ``dims`` (None: not static) is read as under ``tag`` (module table), ``-1`` at the one
    dim that is not static; None where the tag does not apply (rank too small, two dims not static, a static 0, the
    symbolic dim inside ``down``'s merged pair)."""
    r = len(dims)
    if r == 0 or dims.count(None) > 1 or 0 in dims:
        return None
    spelt = [-1 if d is None else d for d in dims]
    if tag == "up":
        return [*spelt, 1]
    if tag == "lead" and r >= 2:
        return [1, *spelt[1:], spelt[0]]
    if tag == "down" and r >= 3 and None not in dims[-2:]:
        return [*spelt[:-2], spelt[-2] * spelt[-1]]
    return None


def candidates(
    model: onnx.ModelProto, types: Mapping[str, Any], broadcasts: Callable[[Any, int], bool]
) -> Iterator[tuple[str, str]]:
    """(:data:`KIND`, ``<node>=<tag>``) of every site of ``model`` (node-named, module docs); ``types``: value name
    → TypeProto (inferred); ``broadcasts(node, index)``: whether the node broadcasts that input."""
    for node, dims in _readers(model, types, broadcasts):
        for tag in TAGS:
            if target(dims, tag) is not None:
                yield KIND, f"{node.name}={tag}"


def build(model: onnx.ModelProto, site: str, types: Mapping[str, Any], broadcasts: Callable[[Any, int], bool]) -> bool:
    """Change ``model`` (node-named) in place as ``reshape-rank@site`` says; False when ``site`` is no site."""
    import numpy as np
    from onnx import helper, numpy_helper

    name, _, tag = site.rpartition("=")
    found = next(((n, d) for n, d in _readers(model, types, broadcasts) if n.name == name), None)
    if found is None or (shape := target(found[1], tag)) is None:
        return False
    node, dims = found
    g = model.graph
    taken = value_names.graph_names(model)
    fresh = lambda what: value_names.fresh(f"{name}__{what}", taken)  # noqa: E731
    there, back, seen = fresh("rank_shape"), fresh("own_shape"), fresh("rank")
    g.initializer.append(numpy_helper.from_array(np.array(shape, np.int64), there))
    g.initializer.append(numpy_helper.from_array(np.array([-1 if d is None else d for d in dims], np.int64), back))
    before = [helper.make_node("Reshape", [node.input[0], there], [seen], name=fresh("reshape_in"))]
    after = []
    for i, out in enumerate(node.output):
        inner = fresh(f"out{i}")
        after.append(helper.make_node("Reshape", [inner, back], [out], name=fresh(f"reshape_out{i}")))
        node.output[i] = inner
    node.input[0] = seen
    at = list(g.node).index(node)
    new = [*g.node[:at], *before, node, *after, *g.node[at + 1 :]]
    del g.node[:]
    g.node.extend(new)
    return True


def _readers(model, types, broadcasts) -> Iterator[tuple[Any, list[int | None]]]:
    """(node, dims of its input 0) of every shape-keeping reader (module docs)."""
    if _opset(model) < RESHAPE_INPUT:
        return
    g = model.graph
    static = {t.name for t in g.initializer} | {
        o for n in g.node if n.op_type == "Constant" and n.domain in ("", "ai.onnx") for o in n.output
    }
    for node in g.node:
        if not node.input or not node.input[0] or node.input[0] in static or not node.name:
            continue
        x = node.input[0]
        if x in node.input[1:] or any(i and (broadcasts(node, k) or _rank(types.get(i)) > 1) for k, i in _others(node)):
            continue
        dims, own = _dims(types.get(x)), _key(types.get(x))
        if dims is None or not node.output or any(not o or _key(types.get(o)) != own for o in node.output):
            continue
        yield node, dims


def _others(node) -> list[tuple[int, str]]:
    """(index, name) of ``node``'s inputs after the first."""
    return list(enumerate(node.input))[1:]


def _rank(t) -> int:
    """The rank of TypeProto ``t``, 0 when unknown (a value of unknown rank is not taken for a matrix)."""
    return len(_dims(t) or [])


def _dims(t) -> list[int | None] | None:
    """The dims of TypeProto ``t`` (None where not static), or None when it is no tensor of known rank."""
    if t is None or not t.HasField("tensor_type") or not t.tensor_type.HasField("shape"):
        return None
    return [d.dim_value if d.HasField("dim_value") else None for d in t.tensor_type.shape.dim]


def _key(t) -> tuple | None:
    """The shape of TypeProto ``t`` as (value or symbol) per dim, None when unknown: a shape-keeping reader's
    outputs have its input's key."""
    if t is None or not t.HasField("tensor_type") or not t.tensor_type.HasField("shape"):
        return None
    return tuple(d.dim_value if d.HasField("dim_value") else (d.dim_param or None) for d in t.tensor_type.shape.dim)


def _opset(model) -> int:
    return next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), 0)
