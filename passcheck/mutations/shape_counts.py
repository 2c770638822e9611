"""A constant count or size input → the same number read from a static dim of a graph input
(issue 18.1). ONNX rule: an input is any tensor of its type and shape, whether initializer,
Constant or computed (IR spec, "Graphs"); ``Shape`` returns the dims as int64 (Shape-1, and
``start``/``end`` since Shape-15), ``Gather`` on axis 0 with a scalar index yields a scalar and with
a 1-element 1-D index a [1] tensor (Gather-1). Only int64 constants of rank 0 or 1, in the main
graph, equal to a dim_value of a graph input."""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from passcheck.mutations._base import (
    Rewrite,
    all_names,
    fresh_name,
    is_default_domain,
    node_label,
    opset,
    static_tensors,
)
from passcheck.mutations._graph_edit import drop_unread, int64_constant, set_nodes
from passcheck.mutations._only import wanted

if TYPE_CHECKING:
    import onnx

#: op → (lowest opset where these inputs exist, the count/size input slots).
COUNT_INPUTS: dict[str, tuple[int, tuple[int, ...]]] = {
    "TopK": (10, (1,)),
    "Tile": (6, (1,)),
    "Expand": (8, (1,)),
    "ConstantOfShape": (9, (0,)),
    "Range": (11, (0, 1, 2)),
    "OneHot": (9, (1,)),
    "Resize": (11, (3,)),
    "Slice": (10, (1, 2, 3, 4)),
    "Pad": (11, (1,)),
    "Reshape": (5, (1,)),
}
SHAPE_START_END = 15
SLICE_INPUTS = 10
MAX_ELEMENTS = 8


def _input_dims(model: onnx.ModelProto) -> list[tuple[str, list[int | None]]]:
    """(graph input, its dims: dim_value or None) for the runtime tensor inputs of known rank."""
    inits = {t.name for t in model.graph.initializer}
    out = []
    for v in model.graph.input:
        if v.name in inits or not v.type.HasField("tensor_type") or not v.type.tensor_type.HasField("shape"):
            continue
        out.append((v.name, [d.dim_value if d.HasField("dim_value") else None for d in v.type.tensor_type.shape.dim]))
    return out


def _find_dim(dims: list[tuple[str, list[int | None]]], value: int) -> tuple[str, int, int] | None:
    """(input, dim index, rank) of the first static dim equal to ``value``."""
    for name, ds in dims:
        for i, d in enumerate(ds):
            if d is not None and d == value and value >= 1:
                return name, i, len(ds)
    return None


class _Builder:
    """Nodes for one site, named from the consumer."""

    def __init__(self, model: onnx.ModelProto, taken: set[str], base: str, spelling: str):
        self.model, self.taken, self.base, self.spelling, self.nodes = model, taken, base, spelling, []

    def node(self, op: str, inputs: list[str], **attrs) -> str:
        import onnx

        out = fresh_name(self.taken, f"{self.base}_{op.lower()}")
        self.nodes.append(
            onnx.helper.make_node(
                op, inputs, [out], name=fresh_name(self.taken, f"{self.base}_{op.lower()}_node"), **attrs
            )
        )
        return out

    def const(self, values: list[int], scalar: bool = False) -> str:
        self.nodes.append(int64_constant(self.taken, f"{self.base}_constant", values, [] if scalar else None))
        return self.nodes[-1].output[0]

    def dim(self, x: str, i: int, rank: int, scalar: bool) -> str:
        """``x``'s dim ``i`` as an int64 scalar or [1] tensor."""
        if self.spelling == "gather":
            return self.node("Gather", [self.node("Shape", [x]), self.const([i], scalar=scalar)], axis=0)
        start = i - rank  # negative: counted from the back
        end = start + 1
        if opset(self.model) >= SHAPE_START_END:
            one = self.node("Shape", [x], start=start, **({"end": end} if end != 0 else {}))
        elif opset(self.model) >= SLICE_INPUTS:
            ends = [end] if end != 0 else [2**63 - 1]
            one = self.node("Slice", [self.node("Shape", [x]), self.const([start]), self.const(ends), self.const([0])])
        else:  # Slice-1: parameters as attributes
            one = self.node(
                "Slice", [self.node("Shape", [x])], starts=[start], ends=[end if end != 0 else 2**63 - 1], axes=[0]
            )
        return self.node("Reshape", [one, self.const([], scalar=False)]) if scalar else one


def _expression(b: _Builder, values: list[int], scalar: bool, dims) -> str | None:
    found = [_find_dim(dims, v) for v in values]
    if not any(found):
        return None
    pieces = [b.dim(*f, scalar=scalar) if f else b.const([v]) for v, f in zip(values, found)]
    return pieces[0] if len(pieces) == 1 else b.node("Concat", pieces, axis=0)


def _edit(model: onnx.ModelProto, only: Collection[str] | None, spelling: str) -> list[str]:
    import onnx
    from onnx import numpy_helper

    g = model.graph
    version = opset(model)
    dims = _input_dims(model)
    if not dims:
        return []
    static = static_tensors(g)
    taken: set[str] | None = None
    sites, new_nodes, replaced = [], [], set()
    for i, n in enumerate(g.node):
        spec = COUNT_INPUTS.get(n.op_type)
        label = node_label(n, i)
        if spec is None or not is_default_domain(n) or version < spec[0] or not wanted(only, label):
            new_nodes.append(n)
            continue
        changed = False
        for slot in spec[1]:
            t = static.get(n.input[slot]) if slot < len(n.input) and n.input[slot] else None
            if (
                t is None
                or t.data_type != onnx.TensorProto.INT64
                or len(t.dims) > 1
                or t.data_location == onnx.TensorProto.EXTERNAL
            ):
                continue
            a = numpy_helper.to_array(t)
            if not 1 <= a.size <= MAX_ELEMENTS:
                continue
            taken = all_names(model) if taken is None else taken
            b = _Builder(model, taken, n.name or n.output[0], spelling)
            out = _expression(b, [int(v) for v in a.reshape(-1)], a.ndim == 0, dims)
            if out is None:
                continue
            new_nodes.extend(b.nodes)
            replaced.add(n.input[slot])
            n.input[slot] = out
            changed = True
        new_nodes.append(n)
        if changed:
            sites.append(label)
    if sites:
        set_nodes(g, new_nodes)
        drop_unread(g, replaced)
    return sites


def gather(model: onnx.ModelProto, only: Collection[str] | None = None) -> list[str]:
    """Each count input (TopK K, Tile repeats, Expand/ConstantOfShape/Reshape shape, Range, OneHot depth,
    Resize sizes, Slice/Pad parameters) holding a static dim of a graph input → ``Gather(Shape(x), i)``
    (scalar index for a scalar count, 1-element 1-D index otherwise; other elements stay constants, Concat joins them)."""
    return _edit(model, only, "gather")


def shape_slice(model: onnx.ModelProto, only: Collection[str] | None = None) -> list[str]:
    """As :func:`gather`, spelled ``Shape(x, start=-k, end=-k+1)`` (opset >= 15) or ``Slice(Shape(x))``
    with a negative start (inputs since Slice-10, attributes before), Reshape to a scalar where the count is a scalar."""
    return _edit(model, only, "slice")


REWRITES = (
    Rewrite(
        "shape-derived-count", "a constant count/size input equal to a static input dim → Gather(Shape(x), i)", gather
    ),
    Rewrite(
        "shape-derived-count-slice",
        "a constant count/size input equal to a static input dim → Shape(x, start, end) / Slice of Shape (negative index)",
        shape_slice,
    ),
)
