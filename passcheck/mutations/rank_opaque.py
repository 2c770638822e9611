"""A value read through a reshape to its own dims, taken at run time through a shape vector whose length shape
inference cannot see, so its readers read a value of unknown rank (IR.md §Static tensor shapes: a value's shape,
even its rank, may be unknown; Operators.md Shape-1, Tile-6, Reshape-5).

``Shape(v)`` is ``v``'s dims (a vector of length ``rank(v)``); ``Tile(s, r)`` with ``r = [1]`` is ``s``;
``Reshape(v, s)`` with ``s`` ``v``'s own dims is ``v`` (an entry 0 copies ``v``'s dim at that index, which is 0
too). ``Reshape(v, Shape(v))`` alone is not enough: onnx infers the rank of Reshape-19+ from the static length of
its shape input (Reshape-5 … 14 it leaves unshaped). With ``r = Shape(Shape(Shape(v)))`` (the length of a rank-1
vector: ``[1]``) the Tile's repeats are a computed value, so onnx's inference gives the Tile no dim value (with
data propagation too) and the Reshape no shape at any opset: every reader sees the same tensor as a value of
unknown rank. A pass that reads a shape must work without it (the version converter's adapters read ``sizes()``,
onnxruntime's fusions and symbolic shape inference their inferred types).

Main-graph values read by a node of an operator onnx defines, in any of its domains (``ai.onnx``, ``ai.onnx.ml``,
``ai.onnx.preview.training``: IR.md §Operator sets; a traditional-ML operator reads a value of unknown rank like any
other), not static (no initializer, no Constant output), of a type
onnx inference knows is a tensor; opset >= 6 (Tile takes ``repeats`` as an input from Tile-6). Every main-graph
reader reads the new value; a graph output keeps its name and producer. Sites are the value names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite, all_names, chosen, fresh_name, is_default_domain, opset, static_tensors
from passcheck.mutations._graph_edit import splice
from passcheck.mutations._shapes import known
from passcheck.mutations.catalogue import Freedom

if TYPE_CHECKING:
    import onnx

#: Tile takes ``repeats`` as an input from Tile-6 (Reshape takes ``shape`` as one from Reshape-5).
FIRST_OPSET = 6


def hide_rank(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Each chosen value ``v`` → ``w = Reshape(v, Tile(Shape(v), Shape(Shape(Shape(v)))))``, inserted before
    ``v``'s first reader; every main-graph reader of ``v`` reads ``w``."""
    import onnx

    g = model.graph
    if opset(model) < FIRST_OPSET:
        return []
    types, taken, constant = known(model), all_names(model), set(static_tensors(g))
    first: dict[str, int] = {}
    for i, n in enumerate(g.node):
        if not (is_default_domain(n) or onnx.defs.has(n.op_type, n.domain)):
            continue
        for x in n.input:
            if x and x not in constant and x in types and types[x].elem_type:
                first.setdefault(x, i)
    before: dict[int, list] = {}
    renamed: dict[str, str] = {}
    for v, i in first.items():
        if not chosen(only, v):
            continue
        s, ln, r, t, w = (fresh_name(taken, f"{v}_opaque_{part}") for part in ("shape", "len", "one", "dims", "view"))
        make = onnx.helper.make_node
        before.setdefault(i, []).extend(
            [
                make("Shape", [v], [s], name=fresh_name(taken, f"{v}_opaque_shape_node")),
                make("Shape", [s], [ln], name=fresh_name(taken, f"{v}_opaque_len_node")),
                make("Shape", [ln], [r], name=fresh_name(taken, f"{v}_opaque_one_node")),
                make("Tile", [s, r], [t], name=fresh_name(taken, f"{v}_opaque_tile")),
                make("Reshape", [v, t], [w], name=fresh_name(taken, f"{v}_opaque_reshape")),
            ]
        )
        renamed[v] = w
    if not renamed:
        return []
    for n in g.node:
        for k, x in enumerate(n.input):
            if x in renamed:
                n.input[k] = renamed[x]
    splice(g, before=before)
    return list(renamed)


REWRITES = (
    Rewrite(
        "rank-opaque-view",
        "v → Reshape(v, Tile(Shape(v), Shape(Shape(Shape(v))))) for its readers: the same tensor, its rank "
        "unstated by shape inference at any opset (Shape-1, Tile-6, Reshape-5)",
        hide_rank,
        detail="values",
        hides_shapes=True,
    ),
)

FREEDOMS = (
    Freedom(
        "value-of-unknown-rank",
        "values",
        "IR.md §Static tensor shapes (a value's shape, its rank too, may be unknown); Operators.md Shape-1, "
        "Tile-6 (repeats [1] is the identity), Reshape-5 (a tensor reshaped to its own dims is itself)",
        "A node may read a value whose rank shape inference does not state: the value reshaped to its own dims, "
        "taken at run time through a shape vector of computed length, is the same tensor.",
        ("rank-opaque-view",),
        "main-graph values read by nodes of an operator onnx defines (ai.onnx, ai.onnx.ml, "
        "ai.onnx.preview.training), not initializers or Constant outputs, of a known tensor "
        "type; opset >= 6; all main-graph readers of the value read the view",
    ),
)
