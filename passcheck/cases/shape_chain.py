"""Shape-computation chains: a 1-D int64 target built from graph input ``x``'s shape, in several spellings.

A target is a list of *parts*, concatenated in order (Operators.md Concat, axis 0):

- ``("dim", a)``: dim ``a`` of x;
- ``("dims", s, e)``: dims ``[s, e)`` of x (0 <= s < e <= rank);
- ``("mul", a, b)``: dim ``a`` times dim ``b``;
- ``("sub", a, k)``: dim ``a`` minus ``k``;
- ``("add", a, k)``: dim ``a`` plus ``k``;
- ``("twice", a)``: dim ``a`` times 2;
- ``("rank",)``: the rank of x as ``Size(Shape(x))`` (Operators.md Size, Shape; onnx propagates
  Size from its input's *data*, so ``Size(x)`` of a float x propagates nothing);
- ``("const", [v, ...])``: constant values.

Every spelling computes the same int64 vector for every x the input annotation admits; the
differences are only in how it is written, each one an exact identity of the ONNX spec
(Operators.md, the section named in :data:`SPELLINGS`). Exporters write these chains (PyTorch's
``x.size(i)``: ``Shape`` → ``Gather`` with a 0-D index → ``Unsqueeze`` → ``Concat``; TensorFlow's
int32 shapes: ``Cast`` to int32 and back), and onnx's data propagation (``infer_shapes(...,
data_prop=True)``; the ops with a ``PartialDataPropagationFunction`` in onnx/defs: Shape, Size,
Gather, Slice, Squeeze, Unsqueeze, Concat, Cast, Add/Sub/Mul since 14) is what turns them into
precise shapes for the consumer (Reshape, Expand, ConstantOfShape, Resize ``sizes``).
"""

from __future__ import annotations

import numpy as np
import onnx

from passcheck.cases.builders import node, tensor

#: spelling → what it changes against ``int64`` (the exporter-typical chain), with its spec citation.
SPELLINGS = {
    "int64": "Shape → Gather (0-D index) → arithmetic on 0-D → Unsqueeze(axes=[0]) → Concat; ranges by Slice",
    "gather-negative": "Gather indices counted from the back (Operators.md Gather: indices in [-r, r-1], "
    "negative ones count from the end)",
    "gather-1d": "Gather with 1-element 1-D indices, arithmetic on 1-D values, no Unsqueeze "
    "(Operators.md Gather: output rank q + r - 1)",
    "concat-negative-axis": "Concat(axis=-1) of the 1-D parts (Operators.md Concat: axis in [-r, r-1], negative "
    "counts from the back; -1 is 0 for 1-D inputs)",
    "shape-start-end": "Shape(x, start, end) for a dim or a range of dims (Operators.md Shape, opset 15)",
    "slice-squeeze": "Slice(Shape(x)) with negative starts and a clamped end, Squeeze(axes=[0]) to 0-D "
    "(Operators.md Slice: negative starts/ends add the dim, ends clamp to it; Squeeze)",
    "cast-same": "Cast(to=INT64) of each Shape and arithmetic result: a cast to the input's own type "
    "(Operators.md Cast) changes nothing",
    "identity": "Identity after each Shape (Operators.md Identity: the output is the input; exporters leave them "
    "behind)",
    "int32": "TensorFlow's spelling (tf2onnx): Cast to INT32 after Shape, a dim as Slice + Squeeze (strided_slice "
    "with shrink_axis), int32 arithmetic, Cast back to INT64 before the consumer (Operators.md Cast: exact for "
    "values below 2^31, which every dim here is; Slice; Squeeze)",
    "unsqueeze-negative": "Unsqueeze(axes=[-1]) of a 0-D value (Operators.md Unsqueeze: axes in [-r, r-1] of "
    "the output rank r = 1)",
    "add-negative": "dim - k as Add(dim, -k), dim + k as Sub(dim, -k), dim * 2 as Add(dim, dim), a * b as "
    "Mul(b, a) (integer identities; Operators.md Add/Sub/Mul, opset 14)",
}
_ONE_D = ("gather-1d", "shape-start-end")


class Chain:
    """Nodes and initializers computing a target vector from ``x`` (of rank ``rank``), one spelling.

    Args:
        spelling: a key of :data:`SPELLINGS`.
        rank: rank of the graph input ``x``.
        opset: the default-domain opset (``shape-start-end`` needs >= 15; below, it reads as ``int64``).

    Raises:
        ValueError: an unknown spelling or part.
    """

    def __init__(self, spelling: str, rank: int, opset: int) -> None:
        if spelling not in SPELLINGS:
            raise ValueError(f"unknown spelling {spelling!r}")
        self.spelling = spelling if spelling != "shape-start-end" or opset >= 15 else "int64"
        self.rank, self.opset = rank, opset
        self.nodes: list[onnx.NodeProto] = []
        self.inits: list[onnx.TensorProto] = []
        self._n = 0
        self._shapes: dict[tuple, str] = {}

    @property
    def itype(self) -> int:
        return onnx.TensorProto.INT32 if self.spelling == "int32" else onnx.TensorProto.INT64

    def _fresh(self, stem: str) -> str:
        self._n += 1
        return f"{stem}_{self._n}"

    def _add(self, op: str, inputs: list[str], stem: str, **attrs) -> str:
        out = self._fresh(stem)
        self.nodes.append(node(op, inputs, [out], name=out, **attrs))
        return out

    def const(self, values, stem: str = "c") -> str:
        """An initializer of the chain's integer type (``values`` a scalar → 0-D)."""
        name = self._fresh(stem)
        self.inits.append(tensor(name, np.asarray(values, np.int32 if self.spelling == "int32" else np.int64)))
        return name

    def _i64(self, values, stem: str) -> str:
        name = self._fresh(stem)
        self.inits.append(tensor(name, np.asarray(values, np.int64)))
        return name

    def _typed(self, value: str) -> str:
        if self.spelling == "cast-same":
            return self._add("Cast", [value], "same", to=onnx.TensorProto.INT64)
        if self.spelling == "int32":
            return self._add("Cast", [value], "i32", to=onnx.TensorProto.INT32)
        if self.spelling == "identity" and value.startswith("shape"):
            return self._add("Identity", [value], "same")
        return value

    def shape(self, start: int | None = None, end: int | None = None) -> str:
        """``Shape(x)`` (one node per start/end, shared by every part: no duplicate a CSE pass merges)."""
        if (start, end) not in self._shapes:
            attrs = {k: v for k, v in (("start", start), ("end", end)) if v is not None}
            self._shapes[(start, end)] = self._typed(self._add("Shape", ["x"], "shape", **attrs))
        return self._shapes[(start, end)]

    def dim(self, a: int) -> str:
        """Dim ``a``: 0-D, or 1-element 1-D in the 1-D spellings."""
        sp = self.spelling
        if sp == "shape-start-end":
            return self.shape(a, a + 1)
        if sp == "gather-1d":
            return self._add("Gather", [self.shape(), self._i64([a], "idx")], "dim", axis=0)
        if sp in ("slice-squeeze", "int32"):
            start = a - self.rank if sp == "slice-squeeze" else a
            one = self._add("Slice", [self.shape(), self._i64([start], "st"), self._i64([a + 1], "en")], "sl")
            return self._add("Squeeze", [one, self._i64([0], "ax")], "dim")
        idx = a - self.rank if sp == "gather-negative" else a
        return self._add("Gather", [self.shape(), self._i64(idx, "idx")], "dim", axis=0)

    def vec(self, scalar: str) -> str:
        """A value of :meth:`dim`'s rank as a 1-element 1-D value."""
        if self.spelling in _ONE_D:
            return scalar
        axes = self._i64([-1 if self.spelling == "unsqueeze-negative" else 0], "ax")
        return self._add("Unsqueeze", [scalar, axes], "vec")

    def dims(self, s: int, e: int) -> str:
        sp = self.spelling
        if sp == "shape-start-end":
            return self.shape(s, e)
        if sp in ("gather-negative", "gather-1d"):
            idx = [i - self.rank if sp == "gather-negative" else i for i in range(s, e)]
            return self._add("Gather", [self.shape(), self._i64(idx, "idx")], "dims", axis=0)
        starts = [s - self.rank] if sp == "slice-squeeze" else [s]
        ends = [np.iinfo(np.int64).max] if sp == "slice-squeeze" and e == self.rank else [e]
        return self._add("Slice", [self.shape(), self._i64(starts, "st"), self._i64(ends, "en")], "dims")

    def _arith(self, op: str, a: str, b: str) -> str:
        return (
            self._typed(self._add(op, [a, b], op.lower()))
            if self.spelling == "cast-same"
            else self._add(op, [a, b], op.lower())
        )

    def _k(self, k: int) -> str:
        return self.const([k] if self.spelling in _ONE_D else k, "k")

    def part(self, p: tuple) -> str:
        """One part (see the module docs) as a 1-D value of the chain's integer type."""
        kind, neg = p[0], self.spelling == "add-negative"
        if kind == "dim":
            return self.vec(self.dim(p[1]))
        if kind == "dims":
            return self.dims(p[1], p[2])
        if kind == "mul":
            a, b = self.dim(p[1]), self.dim(p[2])
            return self.vec(self._arith("Mul", b, a) if neg else self._arith("Mul", a, b))
        if kind == "sub":
            d = self.dim(p[1])
            return self.vec(self._arith("Add", d, self._k(-p[2])) if neg else self._arith("Sub", d, self._k(p[2])))
        if kind == "add":
            d = self.dim(p[1])
            return self.vec(self._arith("Sub", d, self._k(-p[2])) if neg else self._arith("Add", d, self._k(p[2])))
        if kind == "twice":
            d = self.dim(p[1])
            return self.vec(self._arith("Add", d, d) if neg else self._arith("Mul", d, self._k(2)))
        if kind == "rank":
            size = self._typed(self._add("Size", [self.shape()], "rank"))
            axes = self._i64([-1 if self.spelling == "unsqueeze-negative" else 0], "ax")
            return self._add("Unsqueeze", [size, axes], "vec")
        if kind == "const":
            return self.const(list(p[1]))
        raise ValueError(f"unknown part {p!r}")

    def target(self, parts, stem: str = "target") -> str:
        """The Concat of ``parts`` as an int64 1-D value (cast back from int32 in ``int32``)."""
        names = [self.part(p) for p in parts]
        axis = -1 if self.spelling == "concat-negative-axis" else 0
        out = names[0] if len(names) == 1 else self._add("Concat", names, stem, axis=axis)
        if self.spelling == "int32":
            out = self._add("Cast", [out], stem + "_i64", to=onnx.TensorProto.INT64)
        return out
