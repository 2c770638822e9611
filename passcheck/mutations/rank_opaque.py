"""A value read through a reshape to its own dims, taken at run time, so its readers read a value whose rank
shape inference does not state (IR.md §Static tensor shapes: a value's shape, even its rank, may be unknown;
Operators.md Shape-1, Reshape-5).

``Shape(v)`` is ``v``'s dims, and ``Reshape(v, Shape(v))`` is ``v`` (an entry 0 copies ``v``'s dim at that index,
which is 0 too). The shape is a computed value, so onnx's inference (1.16 … 1.23, with data propagation too)
gives the Reshape's output no shape at all: every reader sees the same tensor as a value of unknown rank, which
exported models hold wherever a shape is computed. A pass that reads a shape must work without it (the version
converter's adapters read ``sizes()``; onnxruntime's fusions and symbolic shape inference their inferred types).

Main-graph values read by a default-domain node, not static (no initializer, no Constant output), of a type
onnx inference knows is a tensor; opset >= 5 (Reshape takes ``shape`` as an input from Reshape-5). Every
main-graph reader reads the new value; a graph output keeps its name and producer. Sites are the value names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite, all_names, chosen, fresh_name, is_default_domain, opset, static_tensors
from passcheck.mutations._graph_edit import splice
from passcheck.mutations._shapes import known
from passcheck.mutations.catalogue import Freedom

if TYPE_CHECKING:
    import onnx

#: Reshape takes ``shape`` as an input from Reshape-5.
FIRST_OPSET = 5


def hide_rank(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Each chosen value ``v`` → ``w = Reshape(v, Shape(v))``, inserted before ``v``'s first reader; every
    main-graph reader of ``v`` reads ``w``."""
    import onnx

    g = model.graph
    if opset(model) < FIRST_OPSET:
        return []
    types, taken, constant = known(model), all_names(model), set(static_tensors(g))
    first: dict[str, int] = {}
    for i, n in enumerate(g.node):
        if not is_default_domain(n):
            continue
        for x in n.input:
            if x and x not in constant and x in types and types[x].elem_type:
                first.setdefault(x, i)
    before: dict[int, list] = {}
    renamed: dict[str, str] = {}
    for v, i in first.items():
        if not chosen(only, v):
            continue
        s, w = fresh_name(taken, f"{v}_opaque_shape"), fresh_name(taken, f"{v}_opaque_view")
        make = onnx.helper.make_node
        before.setdefault(i, []).extend(
            [
                make("Shape", [v], [s], name=fresh_name(taken, f"{v}_opaque_shape_node")),
                make("Reshape", [v, s], [w], name=fresh_name(taken, f"{v}_opaque_reshape")),
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
        "v → Reshape(v, Shape(v)) for its readers: the same tensor, its rank unstated by shape inference "
        "(Shape-1, Reshape-5)",
        hide_rank,
        detail="values",
    ),
)

FREEDOMS = (
    Freedom(
        "value-of-unknown-rank",
        "values",
        "IR.md §Static tensor shapes (a value's shape, its rank too, may be unknown); Operators.md Shape-1, "
        "Reshape-5 (a tensor reshaped to its own dims is itself)",
        "A node may read a value whose rank shape inference does not state: the value reshaped to its own dims, "
        "taken at run time, is the same tensor.",
        ("rank-opaque-view",),
        "main-graph values read by default-domain nodes, not initializers or Constant outputs, of a known tensor "
        "type; opset >= 5; all main-graph readers of the value read the view",
    ),
)
