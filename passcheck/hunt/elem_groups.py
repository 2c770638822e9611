"""Type-constraint groups of a graph and moving one group to another element type: the ``elem`` variation kinds
of :mod:`.variation`.

A *group* is a set of main-graph values that must share one element type: values bound to the same type
variable of one node (``T`` of Add's A, B and C) are joined, and a value read or written by several nodes
joins their groups (onnx.defs schema ``inputs``/``outputs`` ``type_str`` and ``type_constraints``; a variadic
formal's type repeats). A value bound to a fixed type (Reshape's ``shape``: ``tensor(int64)``) or read by a
node without a schema is *pinned*: its group never moves. Only ai.onnx nodes take part; the values of other
domains' nodes are pinned: ai.onnx.ml schemas tie element types to attribute names the move does not
rewrite (LabelEncoder's ``keys_int64s`` / ``values_floats``; onnx 1.23.2's shape inference and checker
crash with SIGSEGV on a LabelEncoder-4 chain whose input type disagrees with its keys).

A group moves from its one element type to ``to`` when

- every (node, type variable) of the group allows ``to`` (the schema's ``allowed_type_strs``),
- onnxruntime's CPU provider runs every node the group touches with its types after the move: a kernel in
  its registry, or for float16 one for float that its cast insertion falls back to
  (:func:`passcheck.runtime.kernels.node_runs_on_cpu`; None, a function body, is left to the gate),
- an integer ``to`` is no divisor (Div / Mod input 1: integer division by zero is undefined, the spec
  leaves it, and synthesized integer feeds hold 0),
- bfloat16 touches no graph input or output (onnxruntime's Python binding takes and returns no numpy
  bfloat16: "Numpy_type 256 can't be converted to MLDataType", onnxruntime 1.32),
- and after the move onnx shape inference (``check_type``, ``strict_mode``) infers ``to`` for every value
  of the group and the old type for every other value.

Moving rewrites the group's annotations, initializers, Constant / ConstantOfShape values and the
``to``/``dtype`` attribute of a node writing into it. Constant values are cast *sensibly*
(:func:`cast_values`): to an integer type rounded and clipped to a small range, so a neighbour computes on
values like its synthesized feeds (:func:`passcheck.runtime.feeds.synthesize`: integers in [0, 4)); between uint8
and int8 shifted by 128, so a quantized pair's zero point keeps its place (uint8 128 is int8 0).

*Split* groups (``Groups(..., split=True)``) read a constant (IR.md: an initializer no graph input overrides,
or a Constant's output) that several nodes read as one value per reader (:class:`Copy`), so groups join
through computed values only: a scale initializer read by a QuantizeLinear-19 (``T1``: x, y_scale) and a
DequantizeLinear-19 (``T2``: x_scale, y) no longer ties the two type variables together. Moving a split
group gives each of its readers its own copy of the constant (:func:`.elem_split.move`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, NamedTuple

from passcheck.runtime import isolated_tools
from passcheck.runtime.graph_index import scoped
from passcheck.typestr import schema_type

if TYPE_CHECKING:
    import numpy as np
    import onnx

#: kind suffix → onnx.TensorProto element type the group moves to.
TARGETS = {"float16": 10, "double": 11, "bfloat16": 16, "int32": 6, "int64": 7, "int8": 3, "uint8": 2}
FLOAT, BFLOAT16 = 1, 16
_INTEGERS = frozenset({2, 3, 4, 5, 6, 7, 12, 13})
#: element types a group moves from: numbers (no bool, string or 8/4-bit float types: no cast is "sensible").
SOURCES = _INTEGERS | {1, 10, 11, 16}
#: (op, input index) of a divisor.
_DIVISORS = frozenset({("Div", 1), ("Mod", 1)})
#: the range integer constants and feeds are clipped to (unsigned types from 0).
SMALL_INT = 8
#: (from, to) numpy dtypes → the shift that keeps each 8-bit value's place in its type's range. QuantizeLinear
#: saturates to the output type's range and adds the zero point, DequantizeLinear subtracts it (Operators.md), so a
#: Q/DQ group moved between uint8 and int8 with its zero points shifted by 128 computes what it did (uint8 128 is
#: int8 0); clipping would fold every uint8 value above 127 onto 127.
_SHIFTED = {("uint8", "int8"): -128, ("int8", "uint8"): 128}


def cast_values(arr: np.ndarray, to: int) -> np.ndarray:
    """``arr`` as element type ``to``: floats to an integer type rounded and clipped to [-SMALL_INT, SMALL_INT]
    ([0, SMALL_INT] unsigned); uint8 to int8 and back shifted by 128 (:data:`_SHIFTED`); other integers clipped
    to ``to``'s range; floats to float16 clipped to its finite range (bfloat16 has float32's exponent range);
    else ``astype``."""
    import numpy as np
    from onnx import helper

    np_type = np.dtype(helper.tensor_dtype_to_np_dtype(to))
    arr = np.asarray(arr)
    if (arr.dtype.name, np_type.name) in _SHIFTED:
        arr = arr.astype(np.int16) + _SHIFTED[arr.dtype.name, np_type.name]
    elif np_type.kind in "iu" and arr.dtype.kind in "fc":
        arr = np.clip(np.rint(arr.real.astype(np.float64)), 0 if np_type.kind == "u" else -SMALL_INT, SMALL_INT)
    elif np_type.kind in "iu" and arr.dtype.kind in "iu":
        arr = np.clip(arr, np.iinfo(np_type).min, np.iinfo(np_type).max)
    elif arr.dtype.kind == "f" and to != BFLOAT16 and np_type.itemsize < arr.dtype.itemsize:
        arr = np.clip(arr, np.finfo(np_type).min, np.finfo(np_type).max)  # a -1e9 mask stays finite
    return np.array(arr, dtype=np_type, order="C")  # ascontiguousarray would make a scalar 1-D


class Copy(NamedTuple):
    """A split group's member for shared constant ``value`` as the node at index ``node`` of the main graph
    reads it (module docs)."""

    value: str
    node: int


#: A group member: a value name, or a reader's copy of a shared constant.
Member = str | Copy


def name_of(member: Member) -> str:
    """The value name ``member`` stands for."""
    return member.value if isinstance(member, Copy) else member


def shared_constants(model: onnx.ModelProto) -> frozenset[str]:
    """The main graph's constants (an initializer no graph input overrides, a Constant's output) that two or more
    nodes read and that are no graph output."""
    from passcheck.hunt.graph_values import constants

    outputs = {v.name for v in model.graph.output}
    reads: dict[str, set[int]] = {}
    for i, node in enumerate(model.graph.node):
        for v in node.input:
            reads.setdefault(v, set()).add(i)
    return frozenset(v for v in constants(model) if len(reads.get(v, ())) > 1 and v not in outputs)


class Groups:
    """The type-constraint groups of ``model``'s main graph (see module docs). ``types``: value name →
    elem_type (0 unknown), from :func:`passcheck.hunt.variation._inferred`; ``split``: a constant several
    nodes read is one :class:`Copy` per reader (module docs)."""

    def __init__(self, model: onnx.ModelProto, types: dict[str, int], schema_of, split: bool = False):
        self.model, self.types = model, types
        self.parent: dict[Member, Member] = {}
        self.pinned: set[Member] = set()
        #: per node index: type variable → its members.
        self.bound: list[dict[str, list[Member]]] = []
        self.schemas = []
        #: split: the shared constants (:func:`shared_constants`); each reader reads its own :class:`Copy`.
        self.shared = shared_constants(model) if split else frozenset()
        #: shared constant → every reader's copy (pinned ones too).
        self.copies: dict[str, set[Copy]] = {}
        subgraphs = any(scoped(n) for n in model.graph.node)
        self.whole = not subgraphs and not model.functions
        for index, node in enumerate(model.graph.node):
            schema = schema_of(node) if node.domain in ("", "ai.onnx") else None
            self.schemas.append(schema)
            vars_: dict[str, list[Member]] = {}
            self.bound.append(vars_)
            ins = [self.member(v, index) for v in node.input]
            if node.op_type == "Constant" and set(node.output) & self.shared:
                continue  # its readers read copies: the Constant itself joins no group
            if schema is None:
                self.pinned.update(v for v in [*ins, *node.output] if v)
                continue
            names = {c.type_param_str for c in schema.type_constraints}
            for values, formals in ((ins, schema.inputs), (list(node.output), schema.outputs)):
                for i, v in enumerate(values):
                    if not v:
                        continue
                    if not formals:
                        self.pinned.add(v)
                        continue
                    t = formals[min(i, len(formals) - 1)].type_str
                    if t in names:
                        vars_.setdefault(t, []).append(v)
                    else:
                        self.pinned.add(v)
            for vs in vars_.values():
                for v in vs[1:]:
                    self._union(vs[0], v)

    def member(self, value: str, node: int) -> Member:
        """What node index ``node`` reads for input ``value``: its :class:`Copy` of a shared constant, else
        ``value``."""
        if value not in self.shared:
            return value
        copy = Copy(value, node)
        self.copies.setdefault(value, set()).add(copy)
        return copy

    def _find(self, v: Member) -> Member:
        self.parent.setdefault(v, v)
        while self.parent[v] != v:
            self.parent[v] = self.parent[self.parent[v]]
            v = self.parent[v]
        return v

    def _union(self, a: Member, b: Member) -> None:
        self.parent[self._find(a)] = self._find(b)

    def all(self) -> list[frozenset[Member]]:
        """Every group (members bound to a type variable), sorted by its smallest name."""
        out: dict[Member, set[Member]] = {}
        for vs in self.bound:
            for v in (v for values in vs.values() for v in values):
                out.setdefault(self._find(v), set()).add(v)
        return sorted((frozenset(g) for g in out.values()), key=lambda g: sorted(map(str, g)))

    def of(self, value: str) -> frozenset[Member] | None:
        return next((g for g in self.all() if value in g), None)

    def source(self, group: frozenset[Member]) -> int | None:
        """The one element type of ``group``, or None (mixed, unknown, pinned: it does not move)."""
        kinds = {self.types.get(name_of(v), 0) for v in group}
        if len(kinds) != 1 or not kinds <= SOURCES or group & self.pinned:
            return None
        return kinds.pop()

    def allows(self, group: frozenset[str], to: int) -> bool:
        """The schema, kernel, divisor and bfloat16 rules of the module docs (not the inference check)."""
        from passcheck.runtime.kernels import node_runs_on_cpu

        if not self.whole:
            return False
        src = self.source(group)
        if src is None or src == to:
            return False
        want = schema_type(to)
        io = {v.name for v in [*self.model.graph.input, *self.model.graph.output]}
        if to == BFLOAT16 and group & io:
            return False
        for index, (node, schema, vars_) in enumerate(zip(self.model.graph.node, self.schemas, self.bound)):
            touched = [t for t, vs in vars_.items() if group & set(vs)]
            if not touched:
                continue

            def moved(v: str, index: int = index) -> bool:
                return v in group or Copy(v, index) in group

            if to in _INTEGERS and any((node.op_type, i) in _DIVISORS and moved(v) for i, v in enumerate(node.input)):
                return False
            allowed = {c.type_param_str: set(c.allowed_type_strs) for c in schema.type_constraints}
            if any(want not in allowed[t] for t in touched):
                return False
            if node_runs_on_cpu(node, schema, lambda v, m=moved: to if m(v) else self.types.get(v, 0)) is False:
                return False
        return True


def move(model: onnx.ModelProto, group: frozenset[str], src: int, to: int) -> None:
    """Rewrite ``group``'s annotations, initializers, Constant / ConstantOfShape values and the ``to`` /
    ``dtype`` attributes writing into it from ``src`` to ``to`` (in place; see module docs). A split group's
    copies are written by :func:`.elem_split.move`."""
    import onnx
    from onnx import helper, numpy_helper

    def tensor(t: onnx.TensorProto) -> onnx.TensorProto:
        return numpy_helper.from_array(cast_values(numpy_helper.to_array(t), to), t.name)

    g = model.graph
    for vi in [*g.input, *g.output, *g.value_info]:
        if vi.name in group and vi.type.HasField("tensor_type"):
            vi.type.tensor_type.elem_type = to
    for t in g.initializer:
        if t.name in group and t.data_type == src:
            t.CopyFrom(tensor(t))
    for n in g.node:
        if not set(n.output) & group:
            continue
        if n.op_type == "Constant":
            arr = _constant(n)
            if arr is not None:
                del n.attribute[:]
                n.attribute.append(helper.make_attribute("value", numpy_helper.from_array(cast_values(arr, to))))
            continue
        for a in n.attribute:
            if a.type == onnx.AttributeProto.TENSOR and a.t.data_type == src:
                a.t.CopyFrom(tensor(a.t))
            elif a.name in ("to", "dtype") and a.type == onnx.AttributeProto.INT and a.i == src:
                a.i = to


def _constant(node) -> np.ndarray | None:
    import numpy as np
    from onnx import helper, numpy_helper

    if len(node.attribute) != 1:
        return None
    a = node.attribute[0]
    if a.name == "value":
        return numpy_helper.to_array(a.t)
    dtypes = {"value_float": np.float32, "value_floats": np.float32, "value_int": np.int64, "value_ints": np.int64}
    return np.asarray(helper.get_attribute_value(a), dtypes[a.name]) if a.name in dtypes else None


def holds(model: onnx.ModelProto, before: dict[str, int], group: frozenset[str], to: int) -> bool:
    """Whether onnx shape inference (``check_type``, ``strict_mode``; annotations other than the graph
    inputs dropped) infers ``to`` for every value of ``group`` and ``before``'s type for every other value."""
    import onnx

    bare = onnx.ModelProto()
    bare.CopyFrom(model)
    del bare.graph.value_info[:]
    try:
        g = isolated_tools.infer_shapes(bare, check_type=True, strict_mode=True).graph
    except Exception:  # noqa: BLE001 - inference refuses the moved graph: no neighbour
        return False
    after: dict[str, Any] = {v.name: v.type.tensor_type.elem_type for v in [*g.input, *g.value_info, *g.output]}
    after.update({t.name: t.data_type for t in g.initializer})
    return all(after.get(v, 0) in (0, to if v in group else old) for v, old in before.items() if old) and all(
        after.get(v) == to for v in group if v in after
    )


def sites(groups: Groups) -> Iterator[tuple[frozenset[str], str]]:
    """(group, site label) of every group with one element type: ``graph`` for the float group when it is the
    graph's only one (the id earlier hunts used), else the group's first graph input or its smallest name."""
    every = [g for g in groups.all() if groups.source(g) is not None]
    floats = [g for g in every if groups.source(g) == FLOAT]
    inputs = [v.name for v in groups.model.graph.input]
    for g in every:
        if g in floats and len(floats) == 1:
            yield g, "graph"
        else:
            yield g, next((v for v in inputs if v in g), min(g))
