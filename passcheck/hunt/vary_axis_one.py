"""A neighbour computing its base on a smaller input: one axis of a fed input declared 1, and every constant that
broadcasts along that axis sliced to its first element.

Broadcasting.md (Operators.md, "Broadcasting in ONNX"): aligned from the right, a constant of size d on an axis
meets the input's dim d there. Declared alone, a 1 on that axis is stretched back to d by the constant
(``input-dim-one``, :mod:`.vary_inputs`, offers only such absorbed 1s); with the constant sliced to 1 too, the
model is the same computation on the input's first slice, and the axis stays 1 down to the outputs. This is where a
normalized or reduced axis of size 1 comes from (a LayerNormalization over a last axis of 1 with its scale and bias
``[1]``, a ``ReduceMean`` over one element, a per-channel BatchNormalization of one channel): a base whose axis is
8 never holds it, and a pass that reads a statistic, a divisor or a fused kernel's width from that axis meets 1.

Form id ``vary:input-axis-one@<input>=<axis>`` (:mod:`.variation`; family ``input``, so its feeds follow the
declaration: :func:`.vary_inputs.setting` takes the first slice along the axis). The axis is followed through the
graph in node order (:func:`plan`), per reader of a value holding it:

===============================================  =================================================================
reader (Operators.md)                            the axis, and the constants sliced
===============================================  =================================================================
multidirectional broadcast (Add, Sub, Mul, Div,  right-aligned: a constant holding d at the aligned axis is
Pow, Where, …; the schema doc says so)           sliced; another fed input holding d there, read first by this
                                                 node, is declared 1 with it (its feed sliced too: a skip
                                                 connection ``x + skip``); the output holds the axis unless a
                                                 computed operand holds d there (the 1 is then absorbed:
                                                 followed no further)
``LayerNormalization``                           ``Scale`` / ``B`` (broadcast to the normalized shape, right-
                                                 aligned) sliced; ``Y`` holds the axis, ``Mean`` /
                                                 ``InvStdDev`` too when the axis is before ``axis``
``BatchNormalization``,                          on axis 1 (the channel): ``scale``, ``B`` (``input_mean``,
``InstanceNormalization``                        ``input_var``) of size d sliced; ``Y`` holds the axis
``Reduce*``                                      reduced (in ``axes``, or every axis): the output's 1 is the
                                                 reduction's own, followed no further; else kept (``keepdims``
                                                 0 shifts it left by the reduced axes before it)
``MatMul`` of a constant ``B``                   the contracted (last) axis of ``A``: ``B``'s rows (axis -2)
                                                 sliced, the output holds no part of it; another axis kept
                                                 (right-aligned against the output's rank)
``Gemm``                                         ``A``'s contracted axis (axis 1, 0 under ``transA``): ``B``'s
                                                 (axis 0, 1 under ``transB``) sliced, the output holds none of
                                                 it; ``A``'s ``M``: ``C`` sliced on its axis -2 (unidirectional
                                                 broadcast to ``(M, N)``), the output's axis 0; ``B``'s ``N`` in
                                                 turn: ``C``'s axis -1, the output's axis 1
``Conv`` / ``ConvTranspose`` (:data:`CONV_W`)     the channel axis 1 of ``X``: under ``group`` 1 the weight's
                                                 input-channel axis (Conv's 1, ConvTranspose's 0) sliced, the
                                                 output holds none of it; a depthwise node (``group`` d, one
                                                 output channel per group) becomes ``group`` 1 with the weight's
                                                 axis 0 and ``B`` sliced, the output's axis 1 holds it; another
                                                 ``group`` cannot divide 1 channel: no site. Axis 0 is kept
``GroupNormalization``                           the channel axis 1 under ``num_groups`` d (each channel its own
                                                 group): ``num_groups`` 1, ``scale`` / ``bias`` (``[G]`` at
                                                 opset 18, ``[C]`` at 21: d either way) sliced; another
                                                 ``num_groups`` pools channels: no site. Other axes are kept
``Transpose``                                    moved to ``perm.index(axis)``
any node whose outputs all have input 0's        kept (an elementwise unary op, Softmax, Cast, …)
inferred shape, reading the axis at input 0
===============================================  =================================================================

Sites: each static dim d > 1 of a fed tensor input where at least one constant is sliced, every reader of a
sliced constant reads it along the followed axis (a constant read elsewhere too would change another computation),
and onnx strict shape inference accepts the result; at most :data:`.vary_inputs.ALONE_SITES` dims tried. Not
equivalent (the outputs lose the rest of the axis); annotations are refreshed by the caller
(:func:`.variation.build`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from passcheck.hunt.graph_values import constants as _constants
from passcheck.hunt.graph_values import replace as _replace

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Mapping

    import onnx

KIND = "input-axis-one"
#: Nodes whose input 0 is normalized per channel on axis 1 (Operators.md BatchNormalization, InstanceNormalization).
PER_CHANNEL = ("BatchNormalization", "InstanceNormalization")
#: Convolutions → the axis of ``W`` indexing ``X``'s channels (Operators.md: Conv's ``W`` is ``(M, C/group, k…)``,
#: ConvTranspose's ``(C, M/group, k…)``); both read ``B`` ``(M)`` on the output channel.
CONV_W = {"Conv": 1, "ConvTranspose": 0}
#: Nodes whose operands are read along an axis by the op's own definition, not by broadcasting (:func:`_channels`).
CHANNEL_READERS = (*CONV_W, "Gemm", "GroupNormalization")
#: A plan: constant → the axis of it sliced, (node index, attribute) → the int it is set to, value → the axis of it
#: that holds the input's (now 1).
Plan = tuple[dict[str, int], dict[tuple[int, str], int], dict[str, int]]


def is_kind(k: str) -> bool:
    """Whether ``k`` (no ``vary:`` prefix) is this module's kind."""
    return k == KIND


def _dims(t) -> list[int | None] | None:
    """Static dims of TypeProto ``t`` (None where not static), or None when it is no tensor of known rank."""
    if t is None or not t.HasField("tensor_type") or not t.tensor_type.HasField("shape"):
        return None
    return [d.dim_value if d.HasField("dim_value") else None for d in t.tensor_type.shape.dim]


def _attr(node, name: str, default: Any) -> Any:
    from onnx import helper

    return next((helper.get_attribute_value(a) for a in node.attribute if a.name == name), default)


def plan(
    model: onnx.ModelProto,
    name: str,
    axis: int,
    shapes: Mapping[str, Any],
    broadcasts: Callable[[Any, int], bool],
) -> Plan | None:
    """(constant name → the axis of it to slice to its first element; (node index, attribute) → its new value, a
    ``group`` or ``num_groups`` of d become 1; value → the axis of it holding the input's) when fed input
    ``name``'s ``axis`` (static size d) is declared 1 (module table); None where the axis meets a constant of another
    size than d or 1 on it, a grouped node whose groups cannot become one, or a sliced constant has a reader not
    reading it along the axis. ``shapes``: value name → TypeProto (inferred); ``broadcasts(node, index)``: whether
    ``node`` broadcasts input ``index`` multidirectionally."""
    d = (_dims(shapes.get(name)) or [None] * (axis + 1))[axis]
    if d is None or d <= 1:
        return None
    consts = _constants(model)
    held = {name: axis}  # value → the axis of it the input's axis became
    cut: dict[str, int] = {}
    attrs: dict[tuple[int, str], int] = {}
    reads: dict[str, set[tuple[int, int]]] = {}

    def slice_at(const: str, j: int, where: tuple[int, int]) -> bool:
        arr = consts[const]
        if j < 0 or arr.shape[j] == 1:
            return True
        if arr.shape[j] != d or cut.get(const, j) != j:
            return False
        cut[const] = j
        reads.setdefault(const, set()).add(where)
        return True

    fed = {vi.name for vi in model.graph.input if vi.name not in consts}
    first_read: dict[str, int] = {}
    for at, node in enumerate(model.graph.node):
        for v in node.input:
            first_read.setdefault(v, at)

    def declare(v: str, j: int, at: int) -> bool:  # a fed input first read here holding d at its axis j: declared 1
        if v not in fed or first_read.get(v) != at or j < 0 or (_dims(shapes.get(v)) or [None] * (j + 1))[j] != d:
            return False
        held[v] = j
        return True

    for at, node in enumerate(model.graph.node):
        mine = [(i, held[v]) for i, v in enumerate(node.input) if v in held]
        if not mine or node.domain not in ("", "ai.onnx"):
            continue
        if node.op_type in CHANNEL_READERS:
            outs = _channels(node, at, mine, d, consts, slice_at, attrs)
        else:
            outs = _follow(node, at, mine, held, consts, shapes, broadcasts, slice_at, declare)
        if outs is None:
            return None
        for o, a in outs.items():
            if o and (_dims(shapes.get(o)) or [None] * (a + 1))[a] == d:
                held[o] = a
    every = {(v, at, i) for at, n in enumerate(model.graph.node) for i, v in enumerate(n.input) if v in cut}
    if every != {(c, at, i) for c, where in reads.items() for at, i in where}:
        return None  # a sliced constant also read elsewhere: another computation would change
    return cut, attrs, held


def _follow(node, at, mine, held, consts, shapes, broadcasts, slice_at, declare) -> dict[str, int] | None:
    """The outputs of ``node`` (index ``at``) holding the axis, each with its axis there (module table), another fed
    input holding it declared 1 too through ``declare``; None when a constant cannot be sliced."""
    rank = lambda v: len(_dims(shapes.get(v)) or [])  # noqa: E731
    first, a = mine[0]
    op = node.op_type
    if broadcasts(node, first):
        pos = {ax - rank(node.input[i]) for i, ax in mine}
        if len(pos) != 1:
            return {}
        p = pos.pop()
        absorbed = False
        for i, v in enumerate(node.input):
            if not v or v in held:
                continue
            if v in consts:
                if not slice_at(v, consts[v].ndim + p, (at, i)):
                    return None
            elif declare(v, rank(v) + p, at):
                continue
            elif (dims := _dims(shapes.get(v))) is None or (len(dims) + p >= 0 and dims[len(dims) + p] != 1):
                absorbed = True
        return {} if absorbed else {o: rank(o) + p for o in node.output[:1]}
    if first != 0:
        return {}
    if op == "LayerNormalization":
        r = rank(node.input[0])
        start = _attr(node, "axis", -1) % r if r else 0
        for i in (1, 2):
            if i < len(node.input) and node.input[i] in consts and a >= start:
                if not slice_at(node.input[i], consts[node.input[i]].ndim + a - r, (at, i)):
                    return None
        return {o: a for k, o in enumerate(node.output) if k == 0 or a < start}
    if op in PER_CHANNEL:
        if a != 1:
            return {o: a for o in node.output[:1]}
        for i, v in enumerate(node.input[1:5], start=1):
            if v in consts and not slice_at(v, 0, (at, i)):
                return None
        return {o: a for o in node.output[:1]}
    if op.startswith("Reduce"):
        axes = _attr(node, "axes", None)
        if axes is None and len(node.input) > 1 and node.input[1]:
            axes = consts[node.input[1]].tolist() if node.input[1] in consts else None
            if axes is None:
                return {}
        r = rank(node.input[0])
        if not axes:
            return {o: a for o in node.output[:1]} if _attr(node, "noop_with_empty_axes", 0) else {}
        axes = {x % r for x in axes}
        if a in axes:
            return {}
        return {o: a if _attr(node, "keepdims", 1) else a - len([x for x in axes if x < a]) for o in node.output[:1]}
    if op == "MatMul" and len(node.input) == 2 and node.input[1] in consts:
        r, w = rank(node.input[0]), consts[node.input[1]]
        if r >= 2 and a == r - 1:  # the contracted axis: the weight's rows sliced, the output keeps no axis of it
            return {} if w.ndim < 2 or slice_at(node.input[1], w.ndim - 2, (at, 1)) else None
        return {o: rank(o) - r + a for o in node.output[:1]} if r >= 2 else {}
    if op == "Transpose":
        perm = _attr(node, "perm", None) or list(range(rank(node.input[0])))[::-1]
        return {node.output[0]: list(perm).index(a)}
    own = _key(shapes.get(node.input[0]))
    if own is not None and all(_key(shapes.get(o)) == own for o in node.output if o):
        return {o: a for o in node.output}
    return {}


def _channels(node, at, mine, d, consts, slice_at, attrs) -> dict[str, int] | None:
    """The outputs of ``node`` (index ``at``; one of :data:`CHANNEL_READERS`) holding the axis (module table), the
    constants read along it sliced through ``slice_at`` and a grouping attribute of d set to 1 in ``attrs``; None
    when a constant cannot be sliced or the groups cannot become one."""
    first, a = mine[0]
    ins = list(node.input) + [""] * 3
    op, out = node.op_type, node.output[0]
    const = lambda i: ins[i] in consts  # noqa: E731

    def cut(i: int, j: int) -> bool:  # input i sliced on its axis j < 0 (right-aligned); absent or no such axis: kept
        return not const(i) or slice_at(ins[i], consts[ins[i]].ndim + j, (at, i))

    if op == "Gemm":  # Operators.md Gemm: A (M, K) or (K, M), B (K, N) or (N, K), C broadcast to (M, N)
        if first not in (0, 1) or len(mine) > 1:
            return {}
        trans = _attr(node, "transA" if first == 0 else "transB", 0)
        contracted = (1 - trans) if first == 0 else trans
        if a == contracted:
            other = 1 - first
            axis = _attr(node, "transB", 0) if other == 1 else 1 - _attr(node, "transA", 0)  # its K
            return {} if not const(other) else ({} if slice_at(ins[other], axis, (at, other)) else None)
        return {out: first} if cut(2, -2 + first) else None  # C's M (axis -2) or N (axis -1)
    if first != 0:
        return {}
    if a == 0:  # the batch: every per-channel operand stays
        return {out: 0}
    if a != 1:
        return {out: a} if op == "GroupNormalization" else {}
    if op == "GroupNormalization":  # Operators.md GroupNormalization: num_groups divides C; scale, bias [G] or [C]
        if _attr(node, "num_groups", 0) != d:
            return None
        attrs[(at, "num_groups")] = 1
        return {out: 1} if cut(1, -1) and cut(2, -1) else None
    group = _attr(node, "group", 1)
    if not const(1):
        return {}
    w = consts[ins[1]]
    if group == 1:  # the weight's input channels follow; the output channels are the filters'
        return {} if slice_at(ins[1], CONV_W[op], (at, 1)) else None
    if group != d or w.ndim < 2 or w.shape[1] != 1 or (op == "Conv" and w.shape[0] != d):
        return None  # groups of several channels, or several filters per channel: 1 channel takes neither
    attrs[(at, "group")] = 1  # depthwise: channel c's filter is W[c], its bias B[c]
    return {out: 1} if slice_at(ins[1], 0, (at, 1)) and cut(2, -1) else None


def _key(t) -> tuple | None:
    if t is None or not t.HasField("tensor_type") or not t.tensor_type.HasField("shape"):
        return None
    return tuple(d.dim_value if d.HasField("dim_value") else (d.dim_param or None) for d in t.tensor_type.shape.dim)


def candidates(model: onnx.ModelProto, shapes, broadcasts, inputs, accepted) -> Iterator[tuple[str, str]]:
    """(:data:`KIND`, ``<input>=<axis>``) of every site of ``model`` (module docs). ``inputs``: the fed tensor
    inputs (ValueInfoProto); ``accepted(model)``: whether onnx strict shape inference accepts ``model``."""
    import onnx

    tried = [
        (vi.name, a)
        for vi in inputs
        for a, d in enumerate(vi.type.tensor_type.shape.dim)
        if d.HasField("dim_value") and d.dim_value > 1
    ]
    from passcheck.hunt.vary_inputs import ALONE_SITES

    fed, seen = {vi.name for vi in inputs}, set()
    for name, a in tried[:ALONE_SITES]:
        if not (p := plan(model, name, a, shapes, broadcasts)) or not p[0]:
            continue
        declared = frozenset((v, j) for v, j in p[2].items() if v in fed)
        if declared in seen:  # the same inputs declared from another of them: one neighbour
            continue
        seen.add(declared)
        m = onnx.ModelProto()
        m.CopyFrom(model)
        if build(m, f"{name}={a}", shapes, broadcasts) and accepted(m):
            yield KIND, f"{name}={a}"


def build(model: onnx.ModelProto, site: str, shapes, broadcasts) -> bool:
    """``model`` changed in place as ``input-axis-one@site`` says (the input's dim declared 1, each planned constant
    sliced to its first element along its axis, a ``group`` / ``num_groups`` of d set to 1); False when ``site``
    is no site."""
    import numpy as np
    from onnx import helper

    name, _, axis = site.rpartition("=")
    vi = next((v for v in model.graph.input if v.name == name), None)
    if vi is None or not axis.isdigit() or not (p := plan(model, name, int(axis), shapes, broadcasts)) or not p[0]:
        return False
    (cut, attrs, held), consts = p, _constants(model)
    for (at, attr), value in attrs.items():
        node = model.graph.node[at]
        for old in [x for x in node.attribute if x.name == attr]:
            node.attribute.remove(old)
        node.attribute.append(helper.make_attribute(attr, value))
    arrays = {c: np.take(consts[c], [0], axis=j) for c, j in cut.items()}
    for c, arr in arrays.items():
        _replace(model, c, np.ascontiguousarray(arr))
    for v in [*model.graph.input, *model.graph.output, *model.graph.value_info]:  # inference may not reach them (a
        if v.name in held and len(dims := v.type.tensor_type.shape.dim) > held[v.name]:  # function op's output)
            dims[held[v.name]].Clear()
            dims[held[v.name]].dim_value = 1
    return True
