"""The entries of one Reshape's shape spelled three ways (issue 27, schema walk). ONNX operator
spec, Reshape-5/13/14/19/21: "At most one dimension of the new shape can be -1. In this case, the
value is inferred from the size of the tensor and the remaining dimensions. A dimension could also
be 0, in which case the actual dimension value is unchanged (i.e. taken from the input tensor)" —
unless ``allowzero`` (Reshape-14+) is 1, which makes a 0 a literal zero. So for the same output:

- explicit: every entry the output's own dim;
- implicit: an entry equal to the input's dim at the same index written 0 (``allowzero`` 0), and
  one remaining positive entry written -1.

Main-graph Reshape nodes with a static shape (initializer or Constant); a shared shape constant is
not edited, each node gets its own. Sites are the rewritten nodes.

- implicit, shared (``reshape-shared-implicit``): IR.md ("Graphs") lets any number of nodes read one
  initializer or Constant output, so a shape constant every reader of which is a Reshape is rewritten in
  place, under its own name: an entry 0 where every reader's input has that static dim at that index (and
  none sets ``allowzero``), then, when the shape has no -1, its last remaining positive entry -1. Each reader
  runs at the old shape, so its input holds the product of the entries: the -1 resolves, for each reader, to
  the entry it replaced. Sites are the rewritten constants; a constant with a reader of another op (its
  values would change for it) or none is no site."""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations._base import (
    Rewrite,
    all_names,
    chosen,
    drop_unused,
    is_default_domain,
    node_label,
    opset,
    static_tensors,
)
from passcheck.mutations._graph_edit import attr_value, int64_constant, splice
from passcheck.mutations._shapes import known
from passcheck.mutations.catalogue import Freedom

if TYPE_CHECKING:
    import onnx

MIN_OPSET = 5


def respell(model: onnx.ModelProto, only: frozenset[str] | None, choose, min_opset: int = MIN_OPSET) -> list[str]:
    """Give each chosen Reshape the shape ``choose(shape, in_dims, out_dims, allowzero)`` returns
    (None: leave it), as a fresh int64 Constant; a ``(shape, allowzero)`` pair sets ``allowzero`` too (0: no
    attribute). Models of opset below ``min_opset`` are left alone."""
    import onnx
    from onnx import numpy_helper

    g, types = model.graph, known(model)
    if opset(model) < min_opset:
        return []
    static, taken = static_tensors(g), all_names(model)
    before, sites, freed = {}, [], set()
    for i, n in enumerate(g.node):
        if (
            n.op_type != "Reshape"
            or not is_default_domain(n)
            or len(n.input) != 2
            or n.input[1] not in static
            or not chosen(only, node_label(n, i))
        ):
            continue
        shape = [int(v) for v in numpy_helper.to_array(static[n.input[1]]).reshape(-1)]
        x, y = types.get(n.input[0]), types.get(n.output[0])
        in_dims = x.dims if x is not None and x.dims is not None else None
        out_dims = y.dims if y is not None and y.dims is not None and len(y.dims) == len(shape) else None
        allowzero = int(attr_value(n, "allowzero", 0))
        new = choose(shape, in_dims, out_dims, bool(allowzero))
        new, zero = new if isinstance(new, tuple) else (new, allowzero)
        if new is None or (new == shape and zero == allowzero):
            continue
        if new != shape:
            c = int64_constant(taken, f"{n.output[0]}_shape", new)
            before[i] = [c]
            freed.add(n.input[1])
            n.input[1] = c.output[0]
        if zero != allowzero:
            keep = [a for a in n.attribute if a.name != "allowzero"]
            del n.attribute[:]
            n.attribute.extend(keep + ([onnx.helper.make_attribute("allowzero", 1)] if zero else []))
        sites.append(node_label(n, i))
    if sites:
        splice(g, before)
        drop_unused(g, freed)
    return sites


def _shared_shape(shape: list[int], readers_in: list) -> list[int] | None:
    """``shape`` spelled for every reader at once (module docs); ``readers_in``: each reader's input dims (None:
    unknown). None when nothing changes."""
    if not shape or not all(v > 0 or v == -1 for v in shape) or shape.count(-1) > 1:
        return None
    new = [
        0 if v > 0 and all(d is not None and j < len(d) and d[j] == v for d in readers_in) else v
        for j, v in enumerate(shape)
    ]
    rest = [j for j, v in enumerate(new) if v > 0]
    if -1 not in new and rest:
        new[rest[-1]] = -1
    return None if new == shape else new


def reshape_shared_implicit(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """A static shape constant read by Reshapes alone → its implicit spelling, in place (module docs)."""
    import numpy as np
    from onnx import numpy_helper

    g = model.graph
    if opset(model) < MIN_OPSET:
        return []
    static, types = static_tensors(g), None
    readers: dict[str, list] = {}
    for n in g.node:
        for k, v in enumerate(n.input):
            readers.setdefault(v, []).append((n, k))
    inits = {t.name: t for t in g.initializer}
    consts = {n.output[0]: n for n in g.node if n.op_type == "Constant" and n.output and n.output[0] in static}
    sites = []
    for name, tensor in static.items():
        rs = readers.get(name, [])
        if not rs or not chosen(only, name) or tensor.data_type != 7 or len(tensor.dims) != 1:  # INT64 vector
            continue
        if any(n.op_type != "Reshape" or not is_default_domain(n) or k != 1 for n, k in rs):
            continue
        if any(int(attr_value(n, "allowzero", 0)) for n, _ in rs):
            continue
        types = types if types is not None else known(model)
        ins = [types.get(n.input[0]) for n, _ in rs]
        new = _shared_shape(
            [int(v) for v in numpy_helper.to_array(tensor)], [t.dims if t is not None else None for t in ins]
        )
        if new is None:
            continue
        t = numpy_helper.from_array(np.asarray(new, np.int64), name)
        (inits[name] if name in inits else consts[name].attribute[0].t).CopyFrom(t)
        sites.append(name)
    return sites


def _explicit(shape: list[int], in_dims, out_dims, allowzero: bool) -> list[int] | None:
    """The output's static dims, when the shape has a 0 (copy) or -1 entry and every dim is a positive int."""
    if out_dims is None or not any(v == -1 or (v == 0 and not allowzero) for v in shape):
        return None
    if not all(isinstance(d, int) and d > 0 for d in out_dims):
        return None
    return list(out_dims)


def _implicit(shape: list[int], in_dims, out_dims, allowzero: bool) -> list[int] | None:
    """Entries equal to the input's static dim at the same index → 0 (allowzero 0), then the last
    remaining positive entry → -1; only for shapes of positive entries."""
    if not shape or not all(v > 0 for v in shape):
        return None
    new = list(shape)
    if not allowzero and in_dims is not None:
        new = [0 if j < len(in_dims) and in_dims[j] == v else v for j, v in enumerate(shape)]
    rest = [j for j, v in enumerate(new) if v > 0]
    if rest:
        new[rest[-1]] = -1
    return new


def reshape_dims_explicit(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Reshape(x, shape with 0 or -1 entries) → Reshape(x, the output's static dims)."""
    return respell(model, only, _explicit)


def reshape_dims_implicit(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Reshape(x, positive dims) → copied dims as 0 and one dim as -1."""
    return respell(model, only, _implicit)


REWRITES = (
    Rewrite(
        "reshape-dims-explicit",
        "Reshape shape [0, -1, …] → the output's own dims (Reshape-5+)",
        reshape_dims_explicit,
        inverse="reshape-dims-implicit",
    ),
    Rewrite(
        "reshape-shared-implicit",
        "a shape constant read by Reshapes alone → 0 for a dim every reader copies, -1 for one other, in place "
        "under its name (IR.md Graphs: one value, any number of readers; Reshape-5+)",
        reshape_shared_implicit,
        detail="values",
    ),
    Rewrite(
        "reshape-dims-implicit",
        "Reshape shape of positive dims → 0 for a copied dim, -1 for one other (Reshape-5+)",
        reshape_dims_implicit,
        inverse="reshape-dims-explicit",
    ),
)

FREEDOMS = (
    Freedom(
        "reshape-shape-entries",
        "operator schemas",
        "Operators.md Reshape-5/13/14/19/21 (a -1 entry is inferred, a 0 entry copies the input dim unless "
        "allowzero = 1)",
        "The same Reshape may list the output dims, copy an input dim with 0 and leave one dim to -1.",
        ("reshape-dims-explicit", "reshape-dims-implicit", "reshape-shared-implicit"),
        "main-graph Reshape nodes with a static shape; explicit needs the output's static dims (no zero-sized "
        "dim), implicit a shape of positive entries (0 only where allowzero is 0 and the input dim is static); "
        "shared: a shape constant every reader of which is a Reshape, rewritten in place (0 where every reader "
        "copies the dim)",
    ),
)
