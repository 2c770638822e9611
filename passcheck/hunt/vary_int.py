"""Integer-constant neighbours: a small integer constant input given another value, or the same value spelled
another way the operator schema allows.

A pass's fusion and folding preconditions test integer constants (a Reshape ``shape``, Slice ``starts`` /
``ends`` / ``axes`` / ``steps``, Gather ``indices``, Reduce / Squeeze / Unsqueeze ``axes``, Pad ``pads``, a zero
point, TopK ``K``, Trilu ``k`` …); a base that meets the precondition, and every spelling of it, never shows a
pass that acts without checking it, nor one that checks it for one spelling only.

Form ids use the variation grammar ``vary:<kind>@<site>`` (:mod:`.variation`), site: the constant's name (an
integer initializer no graph input overrides, or a Constant's output; 1 to :data:`.graph_values.SMALL` elements,
read by a main-graph node):

================  ==========================================================================================
kind              change
================  ==========================================================================================
``int-nudge``     the last element + 1 (− 1 where + 1 leaves the element type's range): not equivalent
``int-zero``      every element 0, where one is not: not equivalent
``int-one``       every element 1, where one is not: not equivalent
``int-negate``    an *axes-like* constant (its input's schema doc gives the range ``[-r, r-1] where r =
                  rank(<formal>)`` or ``[-rank(<formal>), rank(<formal>)-1]``) or *index-like* one (``[-s, s-1]
                  along axis of size s``: s the static dim of input 0 at the node's ``axis``; or ``[-<formal>,
                  <formal>-1]``: s the constant value of that input) with each element written in its other
                  spelling (a ≥ 0 → a − r, a < 0 → a + r): **equivalent**, the schema gives both the same meaning;
                  likewise a Slice-like ``starts``/``ends`` (see ``int-sentinel``) whose dims are known, each element
                  inside ``[-n, n-1]`` moved by n (Slice adds n to a negative bound). Any other signed constant with
                  a non-zero element: every element negated, not equivalent
``int-sentinel``  an element of a Slice-like ``starts`` / ``ends`` (an input so named of a schema whose doc says
                  they are clamped and recommends ``INT_MAX`` / ``INT_MIN``) replaced by the element type's largest
                  or smallest value where the clamped result is the same (Operators.md Slice: a negative value
                  has ``dims[axis]`` added, then starts are clamped to ``[0, n]`` (``[0, n-1]`` stepping
                  backward), ends to ``[0, n]`` (``[-1, n-1]``)): **equivalent**; needs the axes, steps and the
                  data's dims statically known
``int-permute``   a set-like list of ≥ 2 distinct elements reversed: **equivalent**. Set-like: the op's doc says
                  ``The order of values in `<input>` does not matter``, or the input's doc says it lists the axes
                  ``along which to reduce`` or the dimensions ``to squeeze`` (a reduction or removal over a set of
                  axes: the order is not read)
================  ==========================================================================================

A constant read by more than one node takes an equivalent kind only when every reader gives the same reading
(role, bound). Whether the neighbour is valid (checker, runs under ``ort:disabled``) is for
:mod:`.vary_probe`; the caller replaces annotations that no longer hold by what onnx shape inference infers (an
equivalent spelling keeps its base's: every value is the same, :mod:`.vary_equiv`), and judges an equivalent
neighbour also as a pair with its base (:mod:`.vary_equiv`).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from passcheck.hunt.graph_values import SMALL, constants, readers

if TYPE_CHECKING:
    import numpy as np

KINDS = ("int-nudge", "int-zero", "int-one", "int-negate", "int-sentinel", "int-permute", "int-repartition")
#: The kinds whose neighbour computes what its base computes (a pass must treat both alike).
EQUIVALENT = ("int-sentinel", "int-permute")

_RANK_R = re.compile(r"\[-r, r-1\] where r = rank\((\w+)\)")
_RANK_OF = re.compile(r"\[-rank\((\w+)\), rank\(\1\)-1\]")
_AXIS_SIZE = re.compile(r"\[-s, s-1\] along axis of size s")
_INPUT_SIZE = re.compile(r"\[-(\w+), \1-1\]")
_ORDER_FREE = re.compile(r"order of values in `(\w+)` does not matter")
_SET_DOC = ("along which to reduce", "to squeeze")


def is_int_kind(kind: str) -> bool:
    """Whether ``kind`` (without the ``vary:`` prefix) is this module's."""
    return kind in KINDS


@dataclasses.dataclass(frozen=True)
class Reading:
    """How one reader's schema reads an integer constant: ``bound`` the r (axes) or s (indices) of its range
    ``[-bound, bound-1]`` (None: no such range, or unknown here), ``set_like`` (element order not read),
    ``clamped`` (``starts``/``ends`` of a clamping slice: per element ``(n, forward, start)``, the dim it cuts,
    whether its step is positive, whether it is a start; None when unknown)."""

    bound: int | None = None
    set_like: bool = False
    clamped: tuple[tuple[int, bool, bool], ...] | None = None


def is_equivalent(kind: str, model, name: str, shapes, schema_of) -> bool:
    """Whether the ``kind`` neighbour of constant ``name`` is an equivalent spelling (``int-negate`` of an
    axes-like or index-like constant, ``int-sentinel``, ``int-permute``)."""
    if kind in EQUIVALENT:
        return True
    return kind == "int-negate" and any(_shared(model, name, shapes, schema_of, f) for f in ("bound", "clamped"))


def candidates(model, consts: Mapping[str, np.ndarray], shapes, schema_of) -> Iterator[tuple[str, str]]:
    """(kind, constant name) of ``model``'s small integer constants (``consts``: name → value) for which
    :func:`changed` gives a value; ``shapes``: value name → TypeProto; ``schema_of(node)``: its schema or None."""
    readers = _readers(model)
    for name, arr in consts.items():
        if not _fits(arr) or not readers.get(name):
            continue
        for k in KINDS:
            if changed(model, name, arr, k, shapes, schema_of) is not None:
                yield k, name


def changed(model, name: str, arr: np.ndarray, kind: str, shapes, schema_of) -> np.ndarray | None:
    """The value of constant ``name`` (now ``arr``) in the ``kind`` neighbour (see module docs), or None when
    the kind does not apply to it. Never modifies ``model``."""
    import numpy as np

    if not _fits(arr):
        return None
    info = np.iinfo(arr.dtype)
    flat = [int(v) for v in arr.reshape(-1)]
    new: list[int] | None = None
    if kind == "int-nudge":
        last = flat[-1] + 1 if flat[-1] < info.max else flat[-1] - 1
        new = [*flat[:-1], last]
    elif kind == "int-zero" and any(flat):
        new = [0] * len(flat)
    elif kind == "int-one" and any(v != 1 for v in flat):
        new = [1] * len(flat)
    elif kind == "int-negate":
        new = _negated(model, name, flat, info, shapes, schema_of)
    elif kind == "int-sentinel":
        new = _sentinels(model, name, flat, info, shapes, schema_of)
    elif kind == "int-permute" and len(set(flat)) >= 2 and _shared(model, name, shapes, schema_of, "set_like"):
        new = flat[::-1]
    elif kind == "int-repartition" and _split_parts(model, name, schema_of):
        new = _repartitioned(flat)
    if new is None or new == flat or not all(info.min <= v <= info.max for v in new):
        return None
    return np.array(new, dtype=arr.dtype).reshape(arr.shape)


def _split_parts(model, name: str, schema_of) -> bool:
    """Whether every reader of ``name`` reads it as Split's ``split`` input (Operators.md Split-13/18)."""
    found = _readers(model).get(name, [])
    for node, i in found:
        schema = schema_of(node)
        if node.op_type != "Split" or schema is None or i >= len(schema.inputs) or schema.inputs[i].name != "split":
            return False
    return bool(found)


def _repartitioned(flat: list[int]) -> list[int] | None:
    """``flat`` (two or more positive part lengths) with one unit moved from the last part to the first, or from the
    first to the last when the last is 1; None when neither part can give one (module docs, ``int-repartition``)."""
    if len(flat) < 2 or any(v < 1 for v in flat):
        return None
    if flat[-1] > 1:
        return [flat[0] + 1, *flat[1:-1], flat[-1] - 1]
    return [flat[0] - 1, *flat[1:-1], flat[-1] + 1] if flat[0] > 1 else None


def _fits(arr) -> bool:
    return arr.dtype.kind in "iu" and 0 < arr.size <= SMALL


def _negated(model, name, flat, info, shapes, schema_of) -> list[int] | None:
    bound = _shared(model, name, shapes, schema_of, "bound")
    if bound:
        if not all(-bound <= v < bound for v in flat):
            return None
        return [v - bound if v >= 0 else v + bound for v in flat]
    clamped = _shared(model, name, shapes, schema_of, "clamped")
    if clamped and len(clamped) == len(flat):  # a Slice bound inside its dim: v and v - n cut at one place
        return [_other(v, n) for v, (n, _, _) in zip(flat, clamped)]
    if info.min == 0 or not any(flat):  # an unsigned type has no negation
        return None
    return [-v for v in flat]


def _sentinels(model, name, flat, info, shapes, schema_of) -> list[int] | None:
    clamped = _shared(model, name, shapes, schema_of, "clamped")
    if not clamped or len(clamped) != len(flat):
        return None
    out = []
    for v, spec in zip(flat, clamped):
        clamp = _clamp(*spec)
        same = [s for s in (info.max, info.min) if s != v and clamp(s) == clamp(v)]
        out.append(same[0] if same else v)
    return out


def _shared(model, name, shapes, schema_of, field: str) -> Any:
    """The ``field`` of :class:`Reading` every reader of ``name`` gives (falsy when they differ or one has none)."""
    values = [getattr(_reading(model, node, i, shapes, schema_of), field) for node, i in _readers(model).get(name, [])]
    if not values or any(v != values[0] for v in values[1:]) or not values[0]:
        return None
    return values[0]


def _reading(model, node, index: int, shapes, schema_of) -> Reading:
    schema = schema_of(node)
    if schema is None or index >= len(schema.inputs) or _variadic(schema, index):
        return Reading()
    formal = schema.inputs[index]
    doc = formal.description or ""
    order_free = {m.group(1) for m in _ORDER_FREE.finditer(schema.doc or "")}
    set_like = formal.name in order_free or any(p in doc for p in _SET_DOC)
    return Reading(
        _bound(model, node, schema, doc, shapes), set_like, _clamps(model, node, schema, formal.name, shapes)
    )


def _variadic(schema, index: int) -> bool:
    from onnx.defs import OpSchema

    return schema.inputs[index].option == OpSchema.FormalParameterOption.Variadic


def _bound(model, node, schema, doc: str, shapes) -> int | None:
    """r or s of the input's documented range (module docs), or None."""
    m = _RANK_R.search(doc) or _RANK_OF.search(doc)
    if m:
        return _rank(_value_of(node, schema, m.group(1)), shapes)
    if _AXIS_SIZE.search(doc) and "axis" in schema.attributes and node.input:
        rank = _rank(node.input[0], shapes)
        axis = _attr(node, schema, "axis")
        if rank and axis is not None and -rank <= axis < rank:
            return _dims(node.input[0], shapes)[axis % rank]
    m = _INPUT_SIZE.search(doc)
    if m and (value := _value_of(node, schema, m.group(1))):
        size = _consts(model).get(value)
        if size is not None and size.size == 1 and size.dtype.kind in "iu":
            return int(size.reshape(-1)[0]) or None
    return None


def _other(v: int, n: int) -> int:
    """``v``'s other spelling as a position in a dim of size ``n`` (``v - n`` or ``v + n``), or ``v`` when it has
    none (outside ``[-n, n-1]``)."""
    if 0 <= v < n:
        return v - n
    return v + n if -n <= v < 0 else v


def _clamps(model, node, schema, formal: str, shapes) -> tuple[tuple[int, bool, bool], ...] | None:
    """Per element of a Slice-like ``starts``/``ends`` input, ``(n, forward, start)`` (Operators.md Slice), or None."""
    doc = schema.doc or ""
    names = [f.name for f in schema.inputs]
    if formal not in ("starts", "ends") or "clamped" not in doc or "INT_MAX" not in doc or not node.input:
        return None
    consts = _consts(model)
    dims = _dims(node.input[0], shapes)
    bounds = consts.get(node.input[names.index(formal)])
    if dims is None or bounds is None:
        return None
    count = bounds.size
    axes = _input_value(node, names, "axes", consts, list(range(count)))
    steps = _input_value(node, names, "steps", consts, [1] * count)
    if axes is None or steps is None or len(axes) != count or len(steps) != count:
        return None
    out = []
    for axis, step in zip(axes, steps):
        if not -len(dims) <= axis < len(dims) or dims[axis % len(dims)] is None or not step:
            return None
        out.append((dims[axis % len(dims)], step > 0, formal == "starts"))
    return tuple(out)


def _clamp(n: int, forward: bool, start: bool) -> Callable[[int], int]:
    low = 0 if start or forward else -1
    high = n if forward else n - 1

    def clamp(v: int) -> int:
        v = v + n if v < 0 else v
        return min(max(v, low), high)

    return clamp


def _input_value(node, names, formal: str, consts, default) -> list[int] | None:
    i = names.index(formal) if formal in names else None
    if i is None or i >= len(node.input) or not node.input[i]:
        return default
    value = consts.get(node.input[i])
    return None if value is None else [int(v) for v in value.reshape(-1)]


def _value_of(node, schema, formal: str) -> str | None:
    """The value ``node`` binds to the formal input or output named ``formal`` (None when absent)."""
    for formals, actual in ((schema.inputs, node.input), (schema.outputs, node.output)):
        for i, f in enumerate(formals):
            if f.name == formal and i < len(actual) and actual[i]:
                return actual[i]
    return None


def _attr(node, schema, name: str) -> int | None:
    from onnx import helper

    for a in node.attribute:
        if a.name == name:
            return helper.get_attribute_value(a)
    default = schema.attributes[name].default_value
    return helper.get_attribute_value(default) if default is not None and default.type else None


def _rank(value: str | None, shapes) -> int | None:
    dims = _dims(value, shapes) if value else None
    return len(dims) if dims is not None else None


def _dims(value: str, shapes) -> list[int | None] | None:
    t = shapes.get(value)
    if t is None or not t.HasField("tensor_type") or not t.tensor_type.HasField("shape"):
        return None
    return [d.dim_value if d.HasField("dim_value") else None for d in t.tensor_type.shape.dim]


def _consts(model):
    return constants(model)


def _readers(model):
    return readers(model)
