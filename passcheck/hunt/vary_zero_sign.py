"""The signed-zero twin: a node whose float attribute holds +0.0 computed a second time with that zero written -0.0.

IEEE 754-2019 §5.11 and §6.3: +0 and -0 compare equal but are two values; division by them, ``atan2``, ``copysign``
and every result that keeps the sign of a zero tell them apart. An ONNX float attribute (onnx.proto
``AttributeProto.f`` / ``floats``, a ``TENSOR`` attribute's float data; Operators.md ``Constant``'s
``value_float(s)``, ``LeakyRelu``'s ``alpha``, ``Pad``-2's ``value``, …) stores an IEEE binary value, so
``Constant(value_float=-0.0)`` is another constant than ``Constant(value_float=0.0)``. A pass that keys nodes or
constants by Python equality (``0.0 == -0.0``, and they hash alike) merges the two; a base writes each zero once
and with one sign, so nothing met two nodes equal under ``==`` and not bit for bit.

Kind ``twin-signed-zero`` (site ``<node>=<attribute>``): the node, a copy with every +0.0 of that attribute written
-0.0 (a float, the floats of a list, the zeros of a float tensor), and every main-graph node downstream of the
node's outputs copied after it (outputs ``<name>__zs``, :func:`.vary_twin.copy_nodes`), each copy reading the
copies; every graph output so copied is appended (``<name>__zs``, its declared type). Each float output of the
node and of its copy is also observed, ``Tanh(Reciprocal(v))`` appended as ``<v>__sign`` (Operators.md
Reciprocal-6/13, Tanh-6/13: IEEE division makes ``1 / ±0 = ±inf`` and ``tanh(±inf) = ±1``, finite), so a zero whose
sign a pass changed shows in a graph output whatever reads it downstream. The base's inputs and outputs keep their
names and places, so each appended output is judged against the unoptimized neighbour's run.

Sites: main-graph default-domain nodes holding a ``FLOAT``, ``FLOATS`` or float ``TENSOR`` attribute with a +0.0,
some graph output downstream of them, no node on the way holding a graph attribute (a body's outer reads would
need the copies' names) or drawing random values (two draws differ).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from passcheck.hunt.value_names import graph_names
from passcheck.hunt.vary_twin import copy_nodes
from passcheck.runtime.graph_index import scoped

if TYPE_CHECKING:
    import onnx

KIND = "twin-signed-zero"
KINDS = (KIND,)
SUFFIX = "__zs"


def is_kind(kind: str) -> bool:
    """Whether ``kind`` (without the ``vary:`` prefix) is this module's."""
    return kind in KINDS


def _positive_zero(x: float) -> bool:
    import math

    return x == 0.0 and math.copysign(1.0, x) > 0


def flipped(attr: onnx.AttributeProto) -> onnx.AttributeProto | None:
    """A copy of ``attr`` with every +0.0 written -0.0, or None when it is no float attribute or holds no +0.0."""
    import numpy as np
    import onnx
    from onnx import numpy_helper

    A = onnx.AttributeProto
    out = A()
    out.CopyFrom(attr)
    if attr.type == A.FLOAT:
        if not _positive_zero(attr.f):
            return None
        out.f = -0.0
    elif attr.type == A.FLOATS:
        if not any(_positive_zero(v) for v in attr.floats):
            return None
        out.floats[:] = [-0.0 if _positive_zero(v) else v for v in attr.floats]
    elif attr.type == A.TENSOR and attr.t.data_location != onnx.TensorProto.EXTERNAL:
        arr = numpy_helper.to_array(attr.t)
        if arr.dtype.kind != "f":
            return None
        zeros = (arr == 0) & ~np.signbit(arr)
        if not zeros.any():
            return None
        out.t.CopyFrom(numpy_helper.from_array(np.where(zeros, -arr.dtype.type(0), arr).astype(arr.dtype), attr.t.name))
    else:
        return None
    return out


def _downstream(model: onnx.ModelProto, index: int) -> list[onnx.NodeProto] | None:
    """Main-graph nodes after ``model.graph.node[index]`` reading its outputs (transitively), in graph order; None
    when no graph output depends on them or one of them holds a graph attribute or draws random values."""
    from passcheck.mutations.function_bodies import RANDOM

    g = model.graph
    reached = {o for o in g.node[index].output if o}
    cone = []
    for n in g.node[index + 1 :]:
        if any(v in reached for v in n.input if v):
            cone.append(n)
            reached.update(o for o in n.output if o)
    nodes = [g.node[index], *cone]
    if not any(o.name in reached for o in g.output):
        return None
    return None if any(scoped(n) or n.op_type in RANDOM for n in nodes) else nodes


def candidates(model: onnx.ModelProto) -> Iterator[tuple[str, str]]:
    """(kind, site) of every signed-zero twin of ``model`` (module docs); nodes are named as the caller's copy is."""
    for i, n in enumerate(model.graph.node):
        if n.domain not in ("", "ai.onnx") or not n.name:
            continue
        zero_attrs = [a.name for a in n.attribute if flipped(a) is not None]
        if zero_attrs and _downstream(model, i) is not None:
            for name in zero_attrs:
                yield KIND, f"{n.name}={name}"


def build(model: onnx.ModelProto, site: str) -> bool:
    """Append ``site``'s signed-zero twin to ``model`` in place; False when ``site`` is no site of it."""
    node_name, _, attr_name = site.rpartition("=")
    g = model.graph
    index = next((i for i, n in enumerate(g.node) if n.name == node_name and n.name), None)
    if index is None or g.node[index].domain not in ("", "ai.onnx"):
        return False
    attr = next((a for a in g.node[index].attribute if a.name == attr_name), None)
    new = None if attr is None else flipped(attr)
    nodes = None if new is None else _downstream(model, index)
    if nodes is None:
        return False
    renamed: dict[str, str] = {}
    copies = copy_nodes(nodes, renamed, graph_names(model), SUFFIX)
    next(a for a in copies[0].attribute if a.name == attr_name).CopyFrom(new)
    g.node.extend(copies)
    for out in list(g.output):
        if out.name in renamed:
            twin = g.output.add()
            twin.CopyFrom(out)
            twin.name = renamed[out.name]
    _observe(model, [v for v in nodes[0].output if v] + [v for v in copies[0].output if v])
    return True


#: Element types Reciprocal and Tanh both take from opset 6 (bfloat16 only from 13: left out).
OBSERVED = (1, 10, 11)  # FLOAT, FLOAT16, DOUBLE


def _observe(model: onnx.ModelProto, values: list[str]) -> None:
    """Append ``Tanh(Reciprocal(v))`` as graph output ``<v>__sign`` for each float value of ``values`` of known rank
    (module docs), typed as the value is."""
    from onnx import helper

    from passcheck.hunt.value_names import fresh

    g = model.graph
    taken = graph_names(model)
    for v, elem, dims in _typed(model, values):
        r, out = fresh(f"{v}__recip", taken), fresh(f"{v}__sign", taken)
        g.node.extend([helper.make_node("Reciprocal", [v], [r]), helper.make_node("Tanh", [r], [out])])
        g.output.append(helper.make_tensor_value_info(out, elem, list(dims)))


def _typed(model: onnx.ModelProto, values: list[str]) -> list[tuple[str, int, tuple]]:
    """(value, element type, dims) of those of ``values`` whose element type onnx shape inference knows as one of
    :data:`OBSERVED` and whose rank it knows (a graph output's type states a shape)."""
    from passcheck.mutations._shapes import known

    types = known(model)
    return [
        (v, types[v].elem_type, types[v].dims)
        for v in values
        if v in types and types[v].elem_type in OBSERVED and types[v].dims is not None
    ]


def added(model: onnx.ModelProto, kind: str, site: str) -> int:
    """How many graph outputs the neighbour ``kind@site`` of ``model`` appends (0 for other kinds)."""
    from passcheck.mutations.forms import named

    if not is_kind(kind):
        return 0
    model = named(model)
    node_name = site.rpartition("=")[0]
    index = next((i for i, n in enumerate(model.graph.node) if n.name == node_name and n.name), None)
    nodes = None if index is None else _downstream(model, index)
    if nodes is None:
        return 0
    made = {o for n in nodes for o in n.output if o}
    return sum(o.name in made for o in model.graph.output) + 2 * len(_typed(model, [v for v in nodes[0].output if v]))
