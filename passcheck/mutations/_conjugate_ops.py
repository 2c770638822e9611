"""How each op is written in a permuted layout: ``op(x) = Transpose(op'(Transpose(x, p)), q)``.

``Transpose(x, perm=p)`` gives ``y`` with ``y.shape[i] = x.shape[p[i]]`` (Operators.md Transpose), so
axis ``a`` of ``x`` is axis ``inv[a]`` of ``y`` (``inv`` the inverse permutation). ``op'`` is ``op``
with every axis-bearing attribute or static input moved through ``inv`` (per-axis lists such as Pad's
``pads`` or Tile's ``repeats`` reordered through ``p``). ``q`` is ``inv`` when the op keeps the rank;
when it drops axes (``keepdims`` 0) ``q`` is the permutation the kept axes induce.

Ops handled, each by its Operators.md schema: the unary elementwise ops (:func:`unary_elementwise`),
the multidirectional-broadcasting ops (Broadcasting.md; :data:`passcheck.mutations.broadcast.BROADCASTING`)
and PRelu whose operands all have the rank of the output (or are one-element of lower rank), Clip and
CastLike (their other inputs are scalars or a type), Softmax/LogSoftmax/Hardmax-13+ (``axis``), the
Reduce ops (``axes`` attribute or static input; any ``keepdims``), ArgMax/ArgMin (``axis``; any
``keepdims``), Concat and Split (``axis``), Slice (static ``axes``, or the default it implies),
Pad (``pads`` attribute before 11, static input from 11, or static ``axes`` from 18), Tile (static
``repeats``), CumSum (static ``axis``), and QuantizeLinear/DequantizeLinear per tensor or per axis
(``axis``; blocked quantization left out). The set is the one onnxruntime's transpose optimizer has
handlers for (onnxruntime/core/optimizer/transpose_optimization/onnx_transpose_optimization.cc), less
Resize, Shape, Squeeze, Unsqueeze, Reshape and Transpose (not layout-equivariant or not plain), plus
CumSum.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from passcheck.mutations._graph_edit import attr_value
from passcheck.mutations.broadcast import BROADCASTING
from passcheck.mutations.function_bodies import RANDOM
from passcheck.mutations.keepdims import REDUCE_AXES_INPUT

if TYPE_CHECKING:
    import numpy as np
    import onnx

    from passcheck.mutations._shapes import Known

#: Integer attributes that configure each element's result alone (Cast-6+ ``to``, Cast-19+
#: ``saturate``, IsInf-10+ ``detect_*``); any other integer attribute may name an axis or a window.
_ELEMENT_FLAGS = frozenset({"to", "saturate", "detect_negative", "detect_positive"})
#: One input, one output and only float/string attributes, yet not elementwise (Operators.md): the
#: Global*Pool ops reduce every spatial axis, Det the last two, NonZero/Shape/Size/ImageDecoder give
#: other shapes, Upsample-7's scales and Upsample-1's height/width scales name NCHW axes.
_NOT_ELEMENTWISE = frozenset(
    {
        "GlobalAveragePool",
        "GlobalMaxPool",
        "GlobalLpPool",
        "Det",
        "NonZero",
        "Shape",
        "Size",
        "ImageDecoder",
        "Upsample",
    }
)
#: Softmax/LogSoftmax/Hardmax act along one ``axis`` from opset 13 (before, on the input coerced to 2-D).
SOFTMAX_AXIS_OPSET = 13


@functools.cache
def unary_elementwise(version: int) -> frozenset[str]:
    """Default-domain ops at opset ``version`` whose schema has exactly one input and one output, no
    random output (:data:`passcheck.mutations.function_bodies.RANDOM`) and only float or string
    attributes (or the per-element integer flags of Cast and IsInf), less :data:`_NOT_ELEMENTWISE`:
    each output element is a function of the input element at the same index (Operators.md)."""
    import onnx.defs

    attr = onnx.defs.OpSchema.AttrType
    names = set()
    for s in onnx.defs.get_all_schemas():
        try:
            s = onnx.defs.get_schema(s.name, version, "")
        except onnx.defs.SchemaError:
            continue
        if (
            s.domain != ""
            or (s.min_input, s.max_input, s.min_output, s.max_output) != (1, 1, 1, 1)
            or s.name in RANDOM
            or s.name in _NOT_ELEMENTWISE
            or s.deprecated
        ):
            continue
        if all(
            a.type in (attr.FLOAT, attr.STRING) or (a.type == attr.INT and a.name in _ELEMENT_FLAGS)
            for a in s.attributes.values()
        ):
            names.add(s.name)
    return frozenset(names)


@dataclasses.dataclass(frozen=True)
class Layout:
    """The permutation of one site. ``p``: the perm of the Transpose in front; ``inv``: its inverse
    (axis ``a`` of the original is axis ``inv[a]`` of the permuted value); ``r``: the rank."""

    p: tuple[int, ...]
    inv: tuple[int, ...]

    @property
    def r(self) -> int:
        return len(self.p)

    def axis(self, a: int) -> int:
        """Original axis ``a`` (negative counts from the end) → the permuted axis.

        Raises:
            ValueError: ``a`` outside ``[-r, r)``.
        """
        if not -self.r <= a < self.r:
            raise ValueError(f"axis {a} out of range for rank {self.r}")
        return self.inv[a % self.r]

    def per_axis(self, values: Sequence) -> list:
        """A list with one entry per original axis → one entry per permuted axis."""
        return [values[a] for a in self.p]

    def dropped(self, axes: Sequence[int]) -> tuple[int, ...] | None:
        """The perm that brings the permuted result back once ``axes`` (original numbering) are dropped
        (``keepdims`` 0), or None when it is the identity (no Transpose needed)."""
        gone = {a % self.r for a in axes}
        kept_y = [self.p[i] for i in range(self.r) if self.p[i] not in gone]  # original axis of each kept y axis
        kept_x = [a for a in range(self.r) if a not in gone]
        q = tuple(kept_y.index(a) for a in kept_x)
        return None if q == tuple(range(len(q))) else q


def layout(r: int) -> Layout:
    """The site permutation for rank ``r`` >= 2: axis 1 moved last for rank 4 (NCHW → NHWC, what
    layout-converting exporters write), all axes reversed otherwise; never the identity."""
    return layout_of((0, 2, 3, 1) if r == 4 else tuple(reversed(range(r))))


def layout_of(p: tuple[int, ...]) -> Layout:
    """The :class:`Layout` of permutation ``p`` (any permutation of ``range(len(p))``, the identity included).

    Raises:
        ValueError: ``p`` is not a permutation of its axes.
    """
    if sorted(p) != list(range(len(p))):
        raise ValueError(f"{list(p)} is not a permutation of {len(p)} axes")
    inv = [0] * len(p)
    for i, a in enumerate(p):
        inv[a] = i
    return Layout(tuple(p), tuple(inv))


@dataclasses.dataclass
class Plan:
    """How one node is written in the permuted layout.

    Attributes:
        inputs: input slots that read ``Transpose(x, p)`` instead of ``x``.
        attrs: attributes set to new values.
        statics: input slot → new content of a static int input (slot may be one past the last).
        outputs: per output, the perm of the Transpose back (None: the output is used as it is).
    """

    inputs: tuple[int, ...]
    attrs: dict[str, object] = dataclasses.field(default_factory=dict)
    statics: dict[int, np.ndarray] = dataclasses.field(default_factory=dict)
    outputs: tuple[tuple[int, ...] | None, ...] = ()


@dataclasses.dataclass(frozen=True)
class Site:
    """What a plan may read: the node's inferred types, the static tensors of the graph, the opset."""

    types: Mapping[str, Known]
    static: Mapping[str, onnx.TensorProto]
    version: int

    def rank(self, name: str) -> int | None:
        k = self.types.get(name)
        return None if k is None else k.rank

    def values(self, name: str) -> np.ndarray | None:
        """The content of a static input, or None."""
        from onnx import numpy_helper

        t = self.static.get(name) if name else None
        return None if t is None else numpy_helper.to_array(t)


def _slot(n: onnx.NodeProto, i: int) -> str:
    return n.input[i] if i < len(n.input) else ""


def _keep(n: onnx.NodeProto, lay: Layout) -> tuple[tuple[int, ...], ...]:
    return (lay.inv,) * len(n.output)


def _first(n: onnx.NodeProto, site: Site, lay: Layout) -> Plan:
    return Plan((0,), outputs=_keep(n, lay))


def _broadcast(n: onnx.NodeProto, site: Site, lay: Layout) -> Plan | None:
    """Every operand of the output's rank transposed; a lower-rank one-element operand left as it is."""
    slots = []
    for i, x in enumerate(n.input):
        k = site.types.get(x)
        if k is None or k.dims is None:
            return None
        if k.rank == lay.r:
            slots.append(i)
        elif k.rank > lay.r or not all(d == 1 for d in k.dims):
            return None
    return Plan(tuple(slots), outputs=_keep(n, lay))


def _axis_attr(default: int) -> Callable:
    def plan(n: onnx.NodeProto, site: Site, lay: Layout) -> Plan:
        return Plan((0,), {"axis": lay.axis(attr_value(n, "axis", default))}, outputs=_keep(n, lay))

    return plan


def _concat(n: onnx.NodeProto, site: Site, lay: Layout) -> Plan | None:
    if any(site.rank(x) != lay.r for x in n.input):
        return None
    return Plan(tuple(range(len(n.input))), {"axis": lay.axis(attr_value(n, "axis"))}, outputs=_keep(n, lay))


def _softmax(n: onnx.NodeProto, site: Site, lay: Layout) -> Plan | None:
    if site.version < SOFTMAX_AXIS_OPSET:
        return None
    return _axis_attr(-1)(n, site, lay)


def _reduce(n: onnx.NodeProto, site: Site, lay: Layout) -> Plan | None:
    """Reduce* over ``axes`` (attribute, or static input 1 where the schema takes one); none: every axis."""
    plan = Plan((0,))
    axes = attr_value(n, "axes")
    if axes is not None:
        axes = list(axes)
        plan.attrs["axes"] = [lay.axis(a) for a in axes]
    elif _slot(n, 1):
        got = site.values(n.input[1])
        if got is None:
            return None
        axes = [int(a) for a in got.reshape(-1)]
        plan.statics[1] = _like(got, [lay.axis(a) for a in axes])
    if not axes and attr_value(n, "noop_with_empty_axes", 0):
        plan.outputs = (lay.inv,)
    elif attr_value(n, "keepdims", 1):
        plan.outputs = (lay.inv,)
    else:
        plan.outputs = (lay.dropped(axes or range(lay.r)),)
    return plan


def _argminmax(n: onnx.NodeProto, site: Site, lay: Layout) -> Plan:
    a = attr_value(n, "axis", 0)
    back = lay.inv if attr_value(n, "keepdims", 1) else lay.dropped([a])
    return Plan((0,), {"axis": lay.axis(a)}, outputs=(back,))


def _split(n: onnx.NodeProto, site: Site, lay: Layout) -> Plan:
    return Plan((0,), {"axis": lay.axis(attr_value(n, "axis", 0))}, outputs=_keep(n, lay))


def _slice(n: onnx.NodeProto, site: Site, lay: Layout) -> Plan | None:
    """Slice-1 ``axes`` attribute; Slice-10+ static ``axes`` input, or, absent, [0, len(starts))."""
    if site.version < 10:
        starts = attr_value(n, "starts")
        axes = list(attr_value(n, "axes", range(len(starts))))
        return Plan((0,), {"axes": [lay.axis(a) for a in axes]}, outputs=_keep(n, lay))
    if _slot(n, 3):
        got = site.values(n.input[3])
        if got is None:
            return None
        new = _like(got, [lay.axis(int(a)) for a in got.reshape(-1)])
    else:
        k = site.types.get(n.input[1])
        if k is None or k.dims is None or len(k.dims) != 1 or not isinstance(k.dims[0], int):
            return None
        new = _like(None, [lay.axis(a) for a in range(k.dims[0])])
    return Plan((0,), statics={3: new}, outputs=_keep(n, lay))


def _pad(n: onnx.NodeProto, site: Site, lay: Layout) -> Plan | None:
    """Pad-2 ``pads`` attribute; Pad-11+ static ``pads`` ([begins…, ends…]), or Pad-18+ static ``axes``."""
    if site.version < 11:
        pads = list(attr_value(n, "pads"))
        return Plan((0,), {"pads": _reorder_pads(pads, lay)}, outputs=_keep(n, lay))
    if _slot(n, 3):
        got = site.values(n.input[3])
        if got is None:
            return None
        return Plan((0,), statics={3: _like(got, [lay.axis(int(a)) for a in got.reshape(-1)])}, outputs=_keep(n, lay))
    got = site.values(_slot(n, 1))
    if got is None or got.size != 2 * lay.r:
        return None
    return Plan(
        (0,), statics={1: _like(got, _reorder_pads([int(v) for v in got.reshape(-1)], lay))}, outputs=_keep(n, lay)
    )


def _reorder_pads(pads: Sequence[int], lay: Layout) -> list[int]:
    return lay.per_axis(pads[: lay.r]) + lay.per_axis(pads[lay.r :])


def _tile(n: onnx.NodeProto, site: Site, lay: Layout) -> Plan | None:
    got = site.values(_slot(n, 1))
    if got is None or got.size != lay.r:
        return None
    return Plan((0,), statics={1: _like(got, lay.per_axis([int(v) for v in got.reshape(-1)]))}, outputs=_keep(n, lay))


def _cumsum(n: onnx.NodeProto, site: Site, lay: Layout) -> Plan | None:
    got = site.values(_slot(n, 1))
    if got is None or got.size != 1:
        return None
    new = _like(got, [lay.axis(int(got.reshape(-1)[0]))]).reshape(got.shape)
    return Plan((0,), statics={1: new}, outputs=_keep(n, lay))


def _quantize(n: onnx.NodeProto, site: Site, lay: Layout) -> Plan | None:
    """Per tensor (scale of one element): nothing to remap; per axis (1-D scale): ``axis``; blocked: left out."""
    if attr_value(n, "block_size", 0):
        return None
    k = site.types.get(n.input[1])
    if k is None or k.dims is None:
        return None
    if k.rank == 0 or list(k.dims) == [1]:
        return Plan((0,), outputs=_keep(n, lay))
    if k.rank != 1:
        return None
    return Plan((0,), {"axis": lay.axis(attr_value(n, "axis", 1))}, outputs=_keep(n, lay))


def _like(got: np.ndarray | None, values: Sequence[int]) -> np.ndarray:
    """``values`` as a 1-D array of ``got``'s integer dtype (int64 when None)."""
    import numpy as np

    return np.array(values, dtype=np.int64 if got is None else got.dtype)


#: op → (lowest opset handled, plan). Unary elementwise ops come from :func:`unary_elementwise`.
PLANS: dict[str, tuple[int, Callable]] = {
    **{op: (since, _broadcast) for op, since in BROADCASTING.items()},
    "PRelu": (7, _broadcast),
    "Clip": (1, _first),
    "CastLike": (15, _first),
    **dict.fromkeys(("Softmax", "LogSoftmax", "Hardmax"), (SOFTMAX_AXIS_OPSET, _softmax)),
    **dict.fromkeys(REDUCE_AXES_INPUT, (1, _reduce)),
    **dict.fromkeys(("ArgMax", "ArgMin"), (1, _argminmax)),
    "Concat": (4, _concat),
    "Split": (2, _split),
    "Slice": (1, _slice),
    "Pad": (2, _pad),
    "Tile": (6, _tile),
    "CumSum": (11, _cumsum),
    **dict.fromkeys(("QuantizeLinear", "DequantizeLinear"), (13, _quantize)),
}


def plan_for(n: onnx.NodeProto, site: Site, lay: Layout) -> Plan | None:
    """How node ``n`` (default domain, main graph) is written in layout ``lay``, or None when the op is
    not handled, at this opset, or an axis input is not static."""
    if n.op_type in unary_elementwise(site.version):
        return _first(n, site, lay)
    since, make = PLANS.get(n.op_type, (10**6, None))
    if make is None or site.version < since:
        return None
    try:
        return make(n, site, lay)
    except ValueError:  # an axis out of range: a malformed node, left to the checker
        return None
