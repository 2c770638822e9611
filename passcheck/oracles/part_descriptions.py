"""What a model says of its model-local functions and its control-flow bodies, and which of it a pass dropped.

A ``FunctionProto`` carries a ``doc_string`` and, from IR version 10, ``metadata_props`` (IR.md §Functions,
§Other Metadata); a body graph (an If's branch, a Loop's or a Scan's body: a ``GraphProto`` held by a GRAPH
attribute) carries its own ``doc_string`` and, from IR 10, ``metadata_props`` (IR.md §Graphs applies to every graph,
§Nodes: a graph-valued attribute). They describe the part, never enter the computation, and say the same kind of
thing of it as the model's own fields (:func:`passcheck.oracles.descriptions.model_dropped`) say of the model.

A pass is judged only on the parts it keeps:

- a function is the same function when the pass's output still defines one of its ``(domain, name, overload)``
  (IR.md §Functions: the function's id); a pass that inlines or removes it is not judged here;
- a body is the same body when the node that holds it is kept: a node of the same ``op_type`` and ``domain`` that
  writes the same outputs (IR.md §Graphs: every value has one producer, so a node's output names identify it) or,
  when those changed, bears the same non-empty ``name`` held by exactly one node of the enclosing graph on both
  sides (a node's name is for diagnostics and need not be unique, so an ambiguous name is not a match); and the
  same attribute still holds a graph. Bodies nested in a kept body are compared the same way. A pass that folds an
  If, unrolls a Loop, or rewrites the node under other names is not judged here; the pass may rewrite what the body
  computes (as it may the main graph's), never what the body is documented as.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import TYPE_CHECKING

from passcheck.oracles.descriptions import Dropped

if TYPE_CHECKING:
    import onnx

#: The fields :func:`functions_dropped` compares, as :attr:`Dropped.field` names them.
FUNCTION_FIELDS = ("function doc_string", "function metadata_props")
#: The fields :func:`bodies_dropped` compares.
BODY_FIELDS = ("body doc_string", "body metadata_props")


def _lost(role: str, what: str, part: str, a, b) -> Iterator[Dropped]:
    """The doc_string and metadata_props entries of proto ``a`` that proto ``b`` no longer states."""
    if a.doc_string and b.doc_string != a.doc_string:
        yield Dropped(role, what, f"{part} doc_string", "", a.doc_string, b.doc_string)
    kept = {p.key: p.value for p in getattr(b, "metadata_props", ())}
    for p in getattr(a, "metadata_props", ()):
        if kept.get(p.key) != p.value:
            yield Dropped(role, what, f"{part} metadata_props", p.key, p.value, kept.get(p.key, ""))


def functions_dropped(before: onnx.ModelProto, after: onnx.ModelProto) -> list[Dropped]:
    """The doc_string and metadata_props of ``before``'s model-local functions that ``after`` no longer states.

    Returns:
        One :class:`Dropped` (role ``function``, value ``domain.name`` or ``domain.name:overload``, ``field`` one
        of :data:`FUNCTION_FIELDS`, ``where`` the metadata key) per field lost or changed on a function ``after``
        still defines by ``(domain, name, overload)``; functions it dropped or inlined are not compared.
    """

    def key(f) -> tuple[str, str, str]:
        return (f.domain, f.name, getattr(f, "overload", ""))

    kept = {key(f): f for f in after.functions}
    out: list[Dropped] = []
    for f in before.functions:
        if (g := kept.get(key(f))) is not None:
            what = f"{f.domain}.{f.name}" + (f":{key(f)[2]}" if key(f)[2] else "")
            out.extend(_lost("function", what, "function", f, g))
    return out


def _named(graph: onnx.GraphProto) -> dict[str, onnx.NodeProto]:
    """Nodes of ``graph`` by name, only names held by exactly one node."""
    count = Counter(n.name for n in graph.node if n.name)
    return {n.name: n for n in graph.node if n.name and count[n.name] == 1}


def _kept(a: onnx.GraphProto, b: onnx.GraphProto) -> Iterator[tuple[str, onnx.NodeProto, onnx.NodeProto]]:
    """(label, node of ``a``, the node of ``b`` that is it) for each node of ``a`` holding a graph that ``b`` keeps:
    same op_type and domain, and the same outputs or else the same unique name."""
    import onnx

    by_outputs = {tuple(n.output): n for n in b.node if any(n.output)}
    by_name = _named(b)
    names = _named(a)
    for n in a.node:
        if not any(x.type == onnx.AttributeProto.GRAPH for x in n.attribute):
            continue
        m = by_outputs.get(tuple(n.output)) if any(n.output) else None
        if (m is None or (m.op_type, m.domain) != (n.op_type, n.domain)) and names.get(n.name) is n:
            m = by_name.get(n.name)
        if m is not None and (m.op_type, m.domain) == (n.op_type, n.domain):
            yield n.name or next(o for o in n.output if o), n, m


def _bodies(a: onnx.GraphProto, b: onnx.GraphProto, path: str) -> Iterator[Dropped]:
    import onnx

    for label, n, m in _kept(a, b):
        graphs = {x.name: x.g for x in m.attribute if x.type == onnx.AttributeProto.GRAPH}
        for attr in n.attribute:
            if attr.type != onnx.AttributeProto.GRAPH or attr.name not in graphs:
                continue
            where = f"{path}{label}.{attr.name}"
            yield from _lost("body", where, "body", attr.g, graphs[attr.name])
            yield from _bodies(attr.g, graphs[attr.name], f"{where}/")


def bodies_dropped(before: onnx.ModelProto, after: onnx.ModelProto) -> list[Dropped]:
    """The doc_string and metadata_props of ``before``'s body graphs that ``after`` no longer states, for bodies
    held by nodes ``after`` keeps (see the module docstring), in the main graph and, recursively, in kept bodies.

    Returns:
        One :class:`Dropped` (role ``body``, value ``node.attribute`` with ``/`` between nesting levels, the node
        by its name or else its first output; ``field`` one of :data:`BODY_FIELDS`, ``where`` the metadata key)
        per field lost or changed.
    """
    return list(_bodies(before.graph, after.graph, ""))


def describes_parts(model: onnx.ModelProto) -> bool:
    """Whether ``model`` has a model-local function or a node holding a graph (a cheap pre-test)."""
    import onnx

    return bool(len(model.functions)) or any(
        x.type == onnx.AttributeProto.GRAPH for n in model.graph.node for x in n.attribute
    )
