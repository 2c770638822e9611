"""Any rewrite at a nested site: a node inside an If/Loop/Scan body (nested ones too), inside a model-local
function body, or inside a body held by a function (``in-body-<ID>`` for every rewrite ``ID``).

ONNX rule: IR.md §Graphs makes every subgraph a GraphProto like the main graph (nodes, initializers, value_info,
inputs and outputs), §Names Within a Graph lets its nodes read the enclosing scopes' values by name, and §Functions
makes a function body a list of nodes over formal inputs, its own opset imports and attributes read by reference
(``ref_attr_name``). Nothing in the spec narrows what a nested node may be: each freedom a rewrite writes in the
main graph is also a freedom there. Passes reach nested nodes by separate code paths (onnxruntime resolves each
subgraph on its own, onnx shape inference infers a body with the outer scope's types, onnxscript's optimizer
recurses into bodies, function bodies are inlined or not), so a spelling a pass handles in the main graph may be one
it mishandles one level down.

How: each nested scope is *lifted* into a stand-alone model (a view) whose main graph is that scope, the rewrite is
run on the view at the sites asked for, and the result is *lowered* back where the scope came from.

- A subgraph's view: its nodes, initializers, value_info and outputs; its formal inputs, then one graph input per
  value it (or a graph nested in it) reads from an enclosing scope (:func:`~.control_flow_functions.free_names`),
  typed as onnx shape inference types that value in the enclosing model (no type known: the scope is not offered).
- A function's view: its body over its formal inputs and outputs, typed from its first call (a function no graph
  calls, or called with an input left out, is not offered); its own opset imports over the model's; an attribute
  read by reference becomes the call's value (or the function's default; absent: dropped), so only functions
  called once are offered when their bodies read attributes, and a node that keeps such an attribute unchanged
  reads it by reference again after lowering.
- A body inside a function: a subgraph of the function's view, lowered into the view and the view into the model.

Lowering keeps what the scope's surroundings see: the view's inputs (names, order; an outer read's type too) and
output names must be as they were, and no model-level field may change (producer, metadata, training info, opset
versions); a new opset domain, a raised IR version and new model-local functions are carried to the model. New
value names are renamed away from every name outside a subgraph (names are unique across scopes, IR.md §Names
Within a Graph). In a function body an initializer the rewrite wrote becomes a Constant node (FunctionProto has
no initializers); value_info is kept when the model's IR version has it (10). A scope lowered unchanged is no site.

Sites: ``SCOPE::LABEL``, ``LABEL`` the rewrite's own label in the view and ``SCOPE`` the scope's path: each step
the owning node's label (main graph: its name or ``#i:Op``; elsewhere its first output), ``.`` and the attribute
name (``[j]`` in a graph list), steps joined by ``/``; a function's path starts ``fn:NAME``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite, all_names, fresh_name, node_label, subgraphs
from passcheck.mutations._by_content import by_content
from passcheck.mutations._freedom import Freedom
from passcheck.mutations.control_flow_functions import free_names
from passcheck.mutations.names import _rename_graph

if TYPE_CHECKING:
    import onnx

#: The id prefix of a rewrite run at nested sites.
PREFIX = "in-body-"

#: Site kinds (what :func:`kind` says of a scope path).
KINDS = ("subgraph", "function", "function-subgraph")


class _Refused(Exception):
    """The rewrite changed what the scope's surroundings see: the scope is no site."""


# ---- scopes ---------------------------------------------------------------------------------------------------


Path = tuple[tuple[int, int, int], ...]  # (node index, attribute index, graph index or -1) from a graph down


def _label(node: onnx.NodeProto, index: int, main: bool) -> str:
    if main:
        return node_label(node, index)
    return next((o for o in node.output if o), "") or node_label(node, index)


def _graph_at(g: onnx.GraphProto, path: Path) -> onnx.GraphProto:
    for i, a, j in path:
        attr = g.node[i].attribute[a]
        g = attr.g if j < 0 else attr.graphs[j]
    return g


def _subgraph_paths(nodes, main: bool, prefix: str = "", path: Path = ()) -> Iterator[tuple[str, Path]]:
    """(scope path, index path) of every graph held by ``nodes`` and the graphs nested in them, outermost first."""
    for i, n in enumerate(nodes):
        owner = _label(n, i, main)
        for a, attr in enumerate(n.attribute):
            held = [(-1, attr.g)] if attr.HasField("g") else list(enumerate(attr.graphs))
            for j, g in held:
                key = f"{prefix}{owner}.{attr.name}" + (f"[{j}]" if j >= 0 else "")
                here = (*path, (i, a, j))
                yield key, here
                yield from _subgraph_paths(g.node, False, key + "/", here)


def scopes(model: onnx.ModelProto) -> list[tuple[str, int, Path]]:
    """Every nested scope as (scope path, function index or -1, index path in the graph or function), subgraphs of
    the main graph first, then each function and the bodies inside it; a path met twice is left out."""
    out = [(key, -1, path) for key, path in _subgraph_paths(model.graph.node, True)]
    for fi, f in enumerate(model.functions):
        fkey = f"fn:{f.name}" + (f":{f.overload}" if f.overload else "")
        out.append((fkey, fi, ()))
        out.extend((key, fi, path) for key, path in _subgraph_paths(f.node, False, fkey + "/"))
    seen: dict[str, int] = {}
    for key, _fi, _p in out:
        seen[key] = seen.get(key, 0) + 1
    return [s for s in out if seen[s[0]] == 1]


def kind(fi: int, path: Path) -> str:
    """``subgraph`` (a body in the main graph, at any depth), ``function`` or ``function-subgraph``."""
    return "subgraph" if fi < 0 else "function-subgraph" if path else "function"


# ---- types ----------------------------------------------------------------------------------------------------


def _copy_map(m: dict) -> dict:
    return dict(m)


@by_content(_copy_map)
def types(model: onnx.ModelProto, data: bytes) -> dict[str, onnx.TypeProto]:
    """Value name → its TypeProto after onnx shape inference, over the main graph and every subgraph (inputs,
    value_info, outputs, initializers); not function bodies (inference does not write them). Never raises: an
    uninferable model gives what it declares."""
    import onnx
    from onnx import helper

    from passcheck.runtime import isolated_tools

    try:
        inferred = (
            isolated_tools.infer_shapes(model) if isolated_tools.current() else onnx.shape_inference.infer_shapes(data)
        )
    except isolated_tools.WorkerStartError:
        raise
    except Exception:  # noqa: BLE001 - what is declared is all that is known
        inferred = model
    out: dict[str, onnx.TypeProto] = {}

    def walk(g: onnx.GraphProto) -> None:
        for t in g.initializer:
            out.setdefault(t.name, helper.make_tensor_type_proto(t.data_type, list(t.dims)))
        for v in [*g.input, *g.value_info, *g.output]:
            if v.type.WhichOneof("value") is not None:
                out.setdefault(v.name, v.type)
        for n in g.node:
            for sg in subgraphs(n):
                walk(sg)

    walk(inferred.graph)
    return out


# ---- lifting and lowering -------------------------------------------------------------------------------------


@dataclasses.dataclass
class _View:
    model: onnx.ModelProto  # the view
    formal: int  # how many of the view's graph inputs are the scope's own
    #: (first output, op, attribute name, the reference as written, the value substituted for it), serialized
    refs: list[tuple[str, str, str, bytes, bytes]] = dataclasses.field(default_factory=list)


def _shell(model: onnx.ModelProto) -> onnx.ModelProto:
    import onnx

    view = onnx.ModelProto()
    view.ir_version = model.ir_version
    view.opset_import.extend(model.opset_import)
    view.functions.extend(model.functions)
    return view


def _value(name: str, type_: onnx.TypeProto | None) -> onnx.ValueInfoProto:
    import onnx

    v = onnx.ValueInfoProto(name=name)
    if type_ is not None:
        v.type.CopyFrom(type_)
    return v


def lift_subgraph(model: onnx.ModelProto, path: Path) -> _View | None:
    """The view of the subgraph at ``path`` in ``model.graph`` (None: an outer read of unknown type)."""
    g = _graph_at(model.graph, path)
    known = types(model)
    free = free_names(g)
    if any(x not in known for x in free):
        return None
    view = _shell(model)
    view.graph.CopyFrom(g)
    view.graph.input.extend(_value(x, known[x]) for x in free)
    return _View(view, len(g.input))


def _calls(model: onnx.ModelProto, f: onnx.FunctionProto) -> list[onnx.NodeProto]:
    found: list[onnx.NodeProto] = []

    def walk(nodes) -> None:
        for n in nodes:
            if n.op_type == f.name and n.domain == f.domain and n.overload == f.overload:
                found.append(n)
            for sg in subgraphs(n):
                walk(sg.node)

    walk(model.graph.node)
    for other in model.functions:
        walk(other.node)
    return found


def _all_nodes(nodes) -> Iterator[onnx.NodeProto]:
    for n in nodes:
        yield n
        for sg in subgraphs(n):
            yield from _all_nodes(sg.node)


def _shared_types(calls: list, graph_calls: list, known: dict) -> dict | None:
    """Value name (of the first call's inputs and outputs) → the type every call of the function agrees on: the
    first call's types when every call is a graph's and their inputs and outputs are typed alike, else the element
    types alone (shapes dropped: a body typed from one call's shapes, e.g. an If's branch outputs a rewrite writes,
    contradicts a call of other shapes, IR.md §Functions: one body serves every call); None when the element types
    differ or a call's types are unknown (the view would stand for one call only)."""
    import onnx

    first = graph_calls[0]
    names = [*first.input, *first.output]

    def sig(c) -> list:
        return [known[x].SerializeToString() if x in known else b"" for x in [*c.input, *c.output]]

    if len(calls) == len(graph_calls) and all(sig(c) == sig(first) for c in graph_calls):
        return {x: known[x] for x in names if x in known}
    if len(calls) != len(graph_calls):
        return None

    def elem(x: str) -> int:
        t = known.get(x)
        return t.tensor_type.elem_type if t is not None and t.WhichOneof("value") == "tensor_type" else -1

    rows = [[elem(x) for x in [*c.input, *c.output]] for c in graph_calls]
    if any(r != rows[0] for r in rows) or -1 in rows[0]:
        return None
    out = {}
    for x in names:
        t = onnx.TypeProto()
        t.tensor_type.elem_type = elem(x)
        out[x] = t
    return out


def lift_function(model: onnx.ModelProto, fi: int) -> _View | None:
    """The view of function ``fi``'s body, typed from its first call (None: not called from a graph, an input
    left out, or attributes read by reference while called more than once)."""
    f = model.functions[fi]
    calls = _calls(model, f)
    known = types(model)
    graph_calls = [c for c in calls if all(x in known for x in c.input if x)]
    if not graph_calls:
        return None
    call = graph_calls[0]
    if len([x for x in call.input if x]) != len(f.input) or any(not x for x in call.input):
        return None
    view = _shell(model)
    mine = {o.domain for o in f.opset_import}
    del view.opset_import[:]
    view.opset_import.extend([o for o in model.opset_import if o.domain not in mine] + list(f.opset_import))
    view.graph.name = f.name
    view.graph.node.extend(f.node)
    shared = _shared_types(calls, graph_calls, known)
    if shared is None:
        return None
    view.graph.input.extend(_value(x, shared.get(a)) for x, a in zip(f.input, call.input, strict=True))
    view.graph.output.extend(_value(y, shared.get(b)) for y, b in zip(f.output, call.output, strict=False))
    view.graph.value_info.extend(getattr(f, "value_info", ()))
    given = {a.name: a for a in call.attribute}
    defaults = {a.name: a for a in f.attribute_proto}
    refs: list[tuple[str, str, str, bytes, bytes]] = []
    for n in _all_nodes(view.graph.node):
        keep = []
        for a in n.attribute:
            if not a.ref_attr_name:
                keep.append(a)
                continue
            src = given.get(a.ref_attr_name) or defaults.get(a.ref_attr_name)
            if src is None:
                continue
            lit = type(a)()
            lit.CopyFrom(src)
            lit.name = a.name
            keep.append(lit)
            out = next((o for o in n.output if o), "")
            refs.append((out, n.op_type, a.name, a.SerializeToString(), lit.SerializeToString()))
        if len(keep) != len(n.attribute) or refs:
            del n.attribute[:]
            n.attribute.extend(keep)
    if refs and len(calls) > 1:
        return None
    return _View(view, len(f.input), refs)


def _rest(m: onnx.ModelProto) -> bytes:
    """``m`` without what lowering carries over (graph, functions, opset imports, IR version)."""
    import onnx

    c = onnx.ModelProto()
    c.CopyFrom(m)
    c.ClearField("graph")
    c.ClearField("functions")
    c.ClearField("opset_import")
    c.ClearField("ir_version")
    return c.SerializeToString(deterministic=True)


def _carry_model(model: onnx.ModelProto, before: onnx.ModelProto, after: onnx.ModelProto) -> list:
    """Check the model-level fields of ``after`` against ``before`` and carry the allowed changes to ``model``;
    returns the opset imports of domains ``after`` added (for a function's own imports).

    Raises:
        _Refused: a model-level field changed, or an opset version, or an existing function.
    """
    if _rest(before) != _rest(after):
        raise _Refused("a model-level field changed")
    old = {o.domain or "ai.onnx": o.version for o in before.opset_import}
    added = []
    for o in after.opset_import:
        d = o.domain or "ai.onnx"
        if d in old and old[d] != o.version:
            raise _Refused(f"opset {d} changed")
        if d not in old:
            added.append(o)
    n = len(before.functions)
    if len(after.functions) < n or any(
        a.SerializeToString(deterministic=True) != b.SerializeToString(deterministic=True)
        for a, b in zip(after.functions[:n], before.functions, strict=True)
    ):
        raise _Refused("a model-local function changed")
    taken = {(f.domain, f.name, f.overload) for f in model.functions}
    if any((f.domain, f.name, f.overload) in taken for f in after.functions[n:]):
        raise _Refused("a new function clashes with one of the model's")
    have = {o.domain or "ai.onnx" for o in model.opset_import}
    model.opset_import.extend(o for o in added if (o.domain or "ai.onnx") not in have)
    model.functions.extend(after.functions[n:])
    model.ir_version = max(model.ir_version, after.ir_version)
    return added


def _defined(g: onnx.GraphProto) -> set[str]:
    out = {v.name for v in g.input} | {t.name for t in g.initializer}
    out |= {t.values.name for t in g.sparse_initializer}
    for n in g.node:
        out.update(o for o in n.output if o)
        for sg in subgraphs(n):
            out |= _defined(sg)
    return out


def _check_interface(before: _View, after: onnx.ModelProto) -> None:
    b, a = before.model.graph, after.graph
    if [v.name for v in a.input] != [v.name for v in b.input]:
        raise _Refused("the scope's inputs changed")
    outer = zip(a.input[before.formal :], b.input[before.formal :], strict=True)
    if any(x.SerializeToString() != y.SerializeToString() for x, y in outer):
        raise _Refused("an outer read's type changed")
    if [v.name for v in a.output] != [v.name for v in b.output]:
        raise _Refused("the scope's outputs changed")


def lower_subgraph(model: onnx.ModelProto, path: Path, before: _View, after: onnx.ModelProto) -> bool:
    """Write ``after`` (the rewritten view) back as the subgraph at ``path``; True when the subgraph changed.

    Raises:
        _Refused: see :func:`_carry_model`, or the interface changed.
    """
    _check_interface(before, after)
    g = _graph_at(model.graph, path)
    outside = all_names(model) - _defined(g)
    new = _defined(after.graph) - _defined(before.model.graph)
    taken = outside | new
    clash = {x: fresh_name(taken, x) for x in sorted(new & outside)}
    if clash:
        _rename_graph(after.graph, clash)
    old = g.SerializeToString(deterministic=True)
    free = {v.name for v in after.graph.input[before.formal :]}
    _carry_model(model, before.model, after)
    body = type(g)()
    body.CopyFrom(after.graph)
    del body.input[before.formal :]
    info = [v for v in body.value_info if v.name not in free]
    del body.value_info[:]
    body.value_info.extend(info)
    g.CopyFrom(body)
    return g.SerializeToString(deterministic=True) != old


def lower_function(model: onnx.ModelProto, fi: int, before: _View, after: onnx.ModelProto) -> bool:
    """Write ``after`` back as function ``fi``'s body; True when the function changed.

    Raises:
        _Refused: see :func:`_carry_model`, or the interface changed.
    """
    from onnx import helper

    _check_interface(before, after)
    f = model.functions[fi]
    old = f.SerializeToString(deterministic=True)
    _carry_model(model, before.model, after)
    taken = {n.name for n in after.graph.node}
    consts = [
        helper.make_node("Constant", [], [t.name], name=fresh_name(taken, f"{t.name}_const"), value=t)
        for t in after.graph.initializer
    ]
    consts += [
        helper.make_node(
            "Constant", [], [t.values.name], name=fresh_name(taken, f"{t.values.name}_const"), sparse_value=t
        )
        for t in after.graph.sparse_initializer
    ]
    nodes = [*consts, *after.graph.node]
    restored = _restore_refs(nodes, before.refs)
    del f.node[:]
    f.node.extend(restored)
    if hasattr(f, "value_info") and model.ir_version >= 10:
        del f.value_info[:]
        f.value_info.extend(after.graph.value_info)
    have = {o.domain or "ai.onnx" for o in f.opset_import}
    used = {n.domain or "ai.onnx" for n in _all_nodes(f.node)}
    f.opset_import.extend(o for o in after.opset_import if (o.domain or "ai.onnx") in used - have)
    return f.SerializeToString(deterministic=True) != old


def _restore_refs(nodes: list, refs: list[tuple[str, str, str, bytes, bytes]]) -> list:
    """Nodes whose substituted attribute survived (same first output, op and value) read it by reference again.

    The value is compared too: a rewrite that puts a node of the same op in front of the value's name (the original
    renamed, e.g. ``in-body-transpose-identity`` writing ``y0 = Transpose<perm=[0, 1, 2, 3]>(y0_pre)`` after the
    body's ``Transpose<perm=@perm>``) leaves the new node's own attribute as written, and the original keeps the
    substituted value (the function has one call, :func:`lift_function`)."""
    import onnx

    if not refs:
        return nodes
    for out, op, name, ref, literal in refs:
        for n in _all_nodes(nodes):
            if next((o for o in n.output if o), "") == out and n.op_type == op:
                for k, a in enumerate(n.attribute):
                    if a.name == name and a.SerializeToString() == literal:
                        r = onnx.AttributeProto()
                        r.ParseFromString(ref)
                        n.attribute[k].CopyFrom(r)
    return nodes


# ---- the wrapper ----------------------------------------------------------------------------------------------


def _run(r: Rewrite, view: onnx.ModelProto, only: frozenset[str] | None) -> list[str]:
    return r.edit(view, only)


def _edit_scope(r: Rewrite, model: onnx.ModelProto, fi: int, path: Path, only: frozenset[str] | None) -> list[str]:
    """Run ``r`` on one scope's view and lower it; the view's labels it changed (empty: none, or refused)."""
    import onnx

    try:
        if fi < 0:
            before = lift_subgraph(model, path)
            if before is None:
                return []
            after = onnx.ModelProto()
            after.CopyFrom(before.model)
            got = _run(r, after, only)
            return got if got and lower_subgraph(model, path, before, after) else []
        fview = lift_function(model, fi)
        if fview is None:
            return []
        if not path:
            after = onnx.ModelProto()
            after.CopyFrom(fview.model)
            got = _run(r, after, only)
            return got if got and lower_function(model, fi, fview, after) else []
        inner_model = onnx.ModelProto()
        inner_model.CopyFrom(fview.model)
        got = _edit_scope(r, inner_model, -1, path, only)
        if not got:
            return []
        return got if lower_function(model, fi, fview, inner_model) else []
    except _Refused:
        return []


def in_body(r: Rewrite) -> Rewrite:
    """``r`` at nested sites: the rewrite ``in-body-<ID>`` whose sites are ``SCOPE::LABEL`` (see the module)."""

    def edit(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
        changed: list[str] = []
        todo = scopes(model)
        # innermost first: lowering a scope rewrites only what lies inside it, so outer paths stay valid
        for key, fi, path in sorted(todo, key=lambda s: -(len(s[2]) + (s[1] >= 0))):
            inner = None
            if only is not None:
                inner = frozenset(x[len(key) + 2 :] for x in only if x.startswith(key + "::"))
                if not inner:
                    continue
            changed += [f"{key}::{x}" for x in _edit_scope(r, model, fi, path, inner)]
        order = {k: i for i, (k, _f, _p) in enumerate(todo)}
        return sorted(changed, key=lambda x: order.get(x.split("::", 1)[0], 0))

    return Rewrite(
        PREFIX + r.id,
        f"{r.doc}, inside an If/Loop/Scan body or a model-local function body",
        edit,
        inverse=PREFIX + r.inverse if r.inverse else None,
        detail=r.detail,
    )


#: The ids :func:`wrapped` made (the registry calls it once, while it builds), for the catalogue row.
_TWINS: list[str] = []


def wrapped(table: dict[str, Rewrite]) -> list[Rewrite]:
    """The ``in-body-`` twin of every rewrite of ``table`` (none of a twin); their ids are kept for :data:`FREEDOMS`."""
    twins = [in_body(r) for rid, r in table.items() if not rid.startswith(PREFIX)]
    _TWINS[:] = [r.id for r in twins]
    return twins


def _freedoms() -> tuple[Freedom, ...]:
    return (
        Freedom(
            "any-spelling-at-a-nested-site",
            "subgraphs",
            "IR.md §Graphs, §Names Within a Graph, §Functions (a body is a graph, or a function's node list, "
            "whose nodes have a main-graph node's freedoms)",
            "Every spelling a rewrite writes in the main graph may be written in an If/Loop/Scan body, a nested "
            "body, a model-local function body or a body inside one: the computation is the same.",
            tuple(_TWINS),
            "each nested scope lifted to a model of its own (outer reads as typed inputs, a function typed from its "
            "call), rewritten, lowered back with its interface kept; sites SCOPE::LABEL.",
        ),
    )


def __getattr__(name: str):
    if name == "FREEDOMS":
        return _freedoms()
    raise AttributeError(name)


REWRITES: tuple[Rewrite, ...] = ()
