"""Enlarging rewrites: the same model made k times larger, so a model's size becomes a variable.

A pass whose running time explodes on a valid model that is only *larger* (constant folding evaluating a big tensor
element by element, a matcher that rescans the graph after every rewrite, an inference that re-walks the graph per
node) is met by no form of fixed size. Each kind here builds, from a model and a factor ``k`` (an int >= 1; ``k = 1``
gives a copy of the model), a valid model of the same kind ``k`` times larger along one measure:

- ``repeat`` (a longer chain of the same pattern): IR.md "Graphs": a graph is a DAG of nodes over named values, any
  output may be read by any later node. The graph's body is written ``k`` times in a chain: copy ``i`` reads the
  output ``y`` of copy ``i - 1`` where the base reads its input ``x`` (the first graph input whose type equals a graph
  output's type: element type, rank, and each dim the same ``dim_value`` or ``dim_param``), every other graph input is
  read by every copy, every initializer and value is the copy's own (``e<i>_`` prefix; onnx.compose.add_prefix_graph,
  subgraphs included). The last copy writes the base's outputs under their names; the other outputs of the earlier
  copies stay graph outputs (prefixed), so no copy is dead code. Nodes and constant elements grow ``k`` times.
- ``widen`` (many uses of one value, a wider graph): the body written ``k`` times side by side, each copy reading the
  same graph inputs (IR.md: a value may be read by any number of nodes), copy 0 under the base's names, the others
  prefixed with their outputs appended as graph outputs. Nodes and constant elements grow ``k`` times.
- ``grow`` (a constant with more elements): the largest numeric constant (an initializer that is not a graph input,
  or a Constant's ``value``) tiled ``k`` times along each of its axes whose size is above 1 (``numpy.tile``: the same
  values, repeated), so its element count grows ``k**r`` times for ``r`` such axes. The output dims change: the
  graph's value_info is dropped and each graph output's shape is the one onnx shape inference states (none when it
  states none). Offered only where the enlarged model passes onnx's strict shape inference (the readers of the
  constant accept the larger dims: elementwise ops with the other operand broadcast, Resize with scales, Transpose…).

Every model built is checked with ``onnx.checker.check_model(full_check=True)``; a model that fails is not built
(:func:`enlarge` returns None), never returned unchecked. :func:`size` is the measure the growth oracle
(:mod:`passcheck.hunt.growth`) divides time by: nodes (subgraphs included) plus constant elements.
"""

from __future__ import annotations

import copy as _copy
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import onnx

REPEAT = "repeat"
WIDEN = "widen"
GROW = "grow"
KINDS = (REPEAT, WIDEN, GROW)
#: Elements a grown constant may reach (64 Mi elements: 256 MiB of float32; the worker's default cap is 8 GiB).
MAX_ELEMENTS = 1 << 26


def is_kind(kind: str) -> bool:
    """Whether ``kind`` is one of :data:`KINDS`."""
    return kind in KINDS


def size(model: onnx.ModelProto) -> int:
    """Nodes of every graph (subgraphs and model-local functions included) plus the elements of every constant
    (initializers and Constant ``value`` tensors): what a pass has to read. At least 1."""
    import numpy as np

    total = 0

    def walk(graph) -> None:
        nonlocal total
        total += sum(int(np.prod(t.dims)) for t in graph.initializer)
        for node in graph.node:
            total += 1
            for a in node.attribute:
                if a.HasField("t"):
                    total += int(np.prod(a.t.dims))
                if a.HasField("g"):
                    walk(a.g)
                for g in a.graphs:
                    walk(g)

    walk(model.graph)
    for f in model.functions:
        total += len(f.node)
    return max(total, 1)


def offered(model: onnx.ModelProto) -> list[str]:
    """The kinds that build a valid model at ``k = 2`` (in :data:`KINDS` order)."""
    return [kind for kind in KINDS if enlarge(model, kind, 2) is not None]


def enlarge(model: onnx.ModelProto, kind: str, k: int) -> onnx.ModelProto | None:
    """``model`` made ``k`` times larger by ``kind`` (module docs), or None when the kind does not apply or the
    result fails the full checker (or, for ``grow``, strict shape inference).

    Raises:
        ValueError: an unknown kind or ``k < 1``.
    """
    import onnx

    if kind not in KINDS:
        raise ValueError(f"unknown enlarging kind {kind!r}; known: {', '.join(KINDS)}")
    if k < 1:
        raise ValueError(f"k must be at least 1, not {k}")
    built = {REPEAT: _repeat, WIDEN: _widen, GROW: _grow}[kind](model, k)
    if built is None:
        return None
    try:
        onnx.checker.check_model(built, full_check=True)
    except Exception:  # noqa: BLE001 - any checker or inference error: the kind does not apply here
        return None
    return built


def _graph_inputs(graph) -> list:
    inits = {t.name for t in graph.initializer}
    return [i for i in graph.input if i.name not in inits]


def _same_type(a, b) -> bool:
    ta, tb = a.type, b.type
    if not (ta.HasField("tensor_type") and tb.HasField("tensor_type")):
        return False
    if ta.tensor_type.elem_type != tb.tensor_type.elem_type:
        return False
    if not (ta.tensor_type.HasField("shape") and tb.tensor_type.HasField("shape")):
        return False
    da, db = ta.tensor_type.shape.dim, tb.tensor_type.shape.dim
    if len(da) != len(db):
        return False
    for x, y in zip(da, db, strict=True):
        if x.HasField("dim_value") != y.HasField("dim_value") or x.dim_value != y.dim_value:
            return False
        if x.HasField("dim_param") != y.HasField("dim_param") or x.dim_param != y.dim_param:
            return False
        if not x.HasField("dim_value") and not x.HasField("dim_param"):
            return False
    return True


def _loop_pair(graph) -> tuple[str, str] | None:
    """(input, output) names the chain links: the first graph input whose type equals a graph output's."""
    for i in _graph_inputs(graph):
        for o in graph.output:
            if o.name != i.name and _same_type(i, o):
                return i.name, o.name
    return None


def _prefixed_copy(graph, prefix: str, inputs: dict[str, str], keep_outputs: bool):
    """A copy of ``graph`` with every name prefixed, graph input ``n`` read as ``inputs[n]``; the graph outputs
    keep their names when ``keep_outputs``."""
    from onnx import compose

    g = _copy.deepcopy(graph)
    del g.value_info[:]
    name_map = dict(inputs)
    compose.add_prefix_graph(
        g, prefix, rename_inputs=False, rename_outputs=not keep_outputs, inplace=True, name_map=name_map
    )
    return g


def _assemble(model, graph, copies: list, outputs: list):
    out = _copy.deepcopy(model)
    g = out.graph
    del g.node[:], g.initializer[:], g.sparse_initializer[:], g.value_info[:], g.output[:]
    kept_inputs = [i for i in graph.input if i.name in {x.name for x in _graph_inputs(graph)}]
    del g.input[:]
    g.input.extend(kept_inputs)
    for c in copies:
        g.node.extend(c.node)
        g.initializer.extend(c.initializer)
        g.sparse_initializer.extend(c.sparse_initializer)
    g.output.extend(outputs)
    return out


def _repeat(model, k: int):
    graph = model.graph
    pair = _loop_pair(graph)
    if pair is None:
        return None
    x, y = pair
    shared = {i.name: i.name for i in _graph_inputs(graph)}
    copies, outputs = [], []
    for i in range(k):
        last = i == k - 1
        reads = dict(shared)
        if i:
            reads[x] = f"e{i - 1}_{y}"
        c = _prefixed_copy(graph, f"e{i}_", reads, keep_outputs=last)
        copies.append(c)
        outputs.extend(o for o in c.output if last or o.name != f"e{i}_{y}")
    return _assemble(model, graph, copies, outputs)


def _widen(model, k: int):
    graph = model.graph
    if not _graph_inputs(graph):
        return None
    shared = {i.name: i.name for i in _graph_inputs(graph)}
    copies, outputs = [], []
    for i in range(k):
        c = _prefixed_copy(graph, f"e{i}_", shared, keep_outputs=i == 0)
        copies.append(c)
        outputs.extend(c.output)
    return _assemble(model, graph, copies, outputs)


def _constants(graph) -> list:
    """(size, tensor) of the numeric constants of the top graph: initializers not graph inputs, Constant values."""
    import numpy as np

    inputs = {i.name for i in graph.input}
    found = [t for t in graph.initializer if t.name not in inputs]
    found += [
        a.t
        for n in graph.node
        if n.op_type == "Constant" and n.domain in ("", "ai.onnx")
        for a in n.attribute
        if a.name == "value" and a.HasField("t")
    ]
    numeric = [t for t in found if t.data_type not in (0, 8) and t.dims and int(np.prod(t.dims)) > 1]
    return sorted(numeric, key=lambda t: -int(np.prod(t.dims)))


def _grow(model, k: int):
    import numpy as np
    import onnx
    from onnx import numpy_helper

    out = _copy.deepcopy(model)
    for t in _constants(out.graph):
        arr = numpy_helper.to_array(t)
        reps = [k if d > 1 else 1 for d in arr.shape]
        if int(np.prod(arr.shape)) * int(np.prod(reps)) > MAX_ELEMENTS:
            return None
        grown = numpy_helper.from_array(np.tile(arr, reps), t.name)
        t.CopyFrom(grown)
        del out.graph.value_info[:]
        for o in out.graph.output:  # the old dims would contradict the larger ones: inference states them anew
            if o.type.HasField("tensor_type"):
                o.type.tensor_type.ClearField("shape")
        try:
            inferred = onnx.shape_inference.infer_shapes(out, strict_mode=True)
        except Exception:  # noqa: BLE001 - the readers refuse the larger dims: not this kind here
            return None
        types = {v.name: v.type for v in (*inferred.graph.value_info, *inferred.graph.output)}
        for o in out.graph.output:
            if o.name in types and types[o.name].HasField("tensor_type"):
                o.type.CopyFrom(types[o.name])
        return out
    return None
