"""A value a control-flow body reads from the main graph, read through a copy the main graph computes.

ONNX rule: a node inside an If/Loop/Scan body may read any value of an enclosing graph by name (IR.md
§Graphs, §Names Within a Graph, §Nodes: outer-scope reads), and a name is defined once across all scopes,
so every read of a main-graph name inside a body is such a read. Operators.md Identity: the output equals
the input; Operators.md Cast to the input's own element type leaves every value as it is. So a body that
reads ``v`` computes the same when it reads ``v_outer = Identity(v)`` (or ``Cast(v, to=elem_type(v))``)
written in the main graph before the node that holds the body.

Why rewrites of their own: a pass that removes a node it finds to be a no-op (an Identity, a Cast to the
type it already has) renames the removed value's readers to the node's input, and a body reading the value
is one of them (onnxruntime's Python fusions: ``OnnxModel.replace_input_of_all_nodes`` under
``remove_identity_nodes`` / ``remove_useless_cast_nodes``; onnxruntime's C++ node removal updates the implicit
inputs of subgraphs, ``graph_utils``). ``identity-edges`` routes main-graph node-to-node edges only and
leaves body reads on the original value, and the outer reads the bases hold (``control-flow/*``, and what
``node-in-if-*`` / ``chain-in-if-*`` write: the moved node's own inputs) are graph inputs, initializers
and outputs of other ops: no form had a no-op node whose output only a body reads.

- ``outer-reads-through-identity``: the copy is an Identity; values whose type is a tensor (Identity-1 … 13
  take tensors; from opset 16, Identity-16, any type).
- ``outer-reads-through-cast``: the copy is a Cast to the value's own element type; tensors of an element type
  the model's Cast takes as input and output (Cast-6 … 25 type constraints T1, T2; no site below opset 6,
  where Cast-1 names the type as a string).

Sites: the main-graph value's name, for each graph input, initializer or node output some body (nested
bodies too) reads from the main graph; its type as declared or as onnx shape inference gives it. The copy is
placed right before the first main-graph node whose bodies read the value; every body read of the value
(node inputs and body outputs naming it) reads the copy. Offered after the rewrites that move nodes into
bodies (their depth-2 pairs, :attr:`~passcheck.mutations._base.Rewrite.after`), since a base without a body
has no site.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite, all_names, chosen, fresh_name, opset, subgraphs
from passcheck.mutations._freedom import Freedom
from passcheck.mutations._graph_edit import set_nodes
from passcheck.mutations.into_subgraph import _allows
from passcheck.mutations.loop_carried import _free_reads, _rename_reads
from passcheck.runtime import isolated_tools

if TYPE_CHECKING:
    import onnx

#: Identity-16 takes any type (optional included); earlier versions tensors (14 adds sequences).
ANY_TYPE_OPSET = 16

#: Cast-6 is the first whose ``to`` is an element type number (Cast-1 names the type as a string).
CAST_INT_TO_OPSET = 6

#: The rewrites whose output may hold outer reads where the model as given holds none.
AFTER = ("node-in-if-const", "node-in-if-opaque", "chain-in-if-const", "chain-in-if-opaque", "hoist-subgraph-constant")


def _elem_types(model: onnx.ModelProto) -> dict[str, int]:
    """Main-graph name → tensor element type, as declared or as onnx shape inference gives it (tensors only)."""

    g = model.graph
    declared = list(g.input) + list(g.value_info) + list(g.output)
    try:
        declared += list(isolated_tools.infer_shapes(model).graph.value_info)
    except Exception:  # noqa: BLE001 - types unknown: only the declared ones count
        pass
    out = {v.name: v.type.tensor_type.elem_type for v in declared if v.type.HasField("tensor_type")}
    out.update({t.name: t.data_type for t in g.initializer})
    return {k: v for k, v in out.items() if v}


def _identity(model: onnx.ModelProto, v: str, copy: str, name: str, types: dict[str, int]):
    import onnx

    if opset(model) < ANY_TYPE_OPSET and v not in types:
        return None  # Identity-1 … 13 take tensors only
    return onnx.helper.make_node("Identity", [v], [copy], name=name)


def _cast(model: onnx.ModelProto, v: str, copy: str, name: str, types: dict[str, int]):
    import onnx

    elem, version = types.get(v), opset(model)
    if (
        elem is None
        or version < CAST_INT_TO_OPSET
        or not (_allows("Cast", version, "T1", elem) and _allows("Cast", version, "T2", elem))
    ):
        return None  # a tensor of a type the model's Cast takes, and casts to
    return onnx.helper.make_node("Cast", [v], [copy], name=name, to=elem)


def _route(model: onnx.ModelProto, only: frozenset[str] | None, make, tag: str) -> list[str]:
    """Each main-graph value read inside a body (``only``: those names) for which ``make`` writes a copying node →
    every body read of it reads the copy, written right before the first main-graph node whose bodies read it; in
    place. Returns the values so routed, in main-graph order."""
    g = model.graph
    made = {v.name: -1 for v in g.input} | {t.name: -1 for t in g.initializer}
    made |= {o: i for i, n in enumerate(g.node) for o in n.output if o}
    first_reader: dict[str, int] = {}
    for i, n in enumerate(g.node):
        for sg in subgraphs(n):
            for name in _free_reads(sg):
                first_reader.setdefault(name, i)
    # a body output may carry the name of its node's own output (not a read of an earlier value): left alone
    candidates = [v for v, i in made.items() if first_reader.get(v, i) > i and chosen(only, v)]
    if not candidates:
        return []
    types, taken = _elem_types(model), all_names(model)
    before: dict[int, list[onnx.NodeProto]] = {}
    sites = []
    for v in candidates:
        copy = fresh_name(taken, f"{v}_outer")
        node = make(model, v, copy, fresh_name(taken, f"{v}_outer_{tag}"), types)
        if node is None:
            continue
        before.setdefault(first_reader[v], []).append(node)
        for n in g.node:
            for sg in subgraphs(n):
                _rename_reads(sg, v, copy)
        sites.append(v)
    if sites:
        nodes = []
        for i, n in enumerate(g.node):
            nodes += before.get(i, [])
            nodes.append(n)
        set_nodes(g, nodes)
    return sites


def through_identity(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Each main-graph value a body reads → read there as ``Identity(v)`` computed in the main graph (in place)."""
    return _route(model, only, _identity, "identity")


def through_cast(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Each main-graph tensor a body reads → read there as ``Cast(v, to=its own element type)`` (in place)."""
    return _route(model, only, _cast, "cast")


REWRITES = (
    Rewrite(
        "outer-reads-through-identity",
        "a main-graph value v a body reads → the body reads Identity(v), computed in the main graph",
        through_identity,
        detail="values",
        after=AFTER,
    ),
    Rewrite(
        "outer-reads-through-cast",
        "a main-graph tensor v a body reads → the body reads Cast(v, to=v's element type), computed in the main graph",
        through_cast,
        detail="values",
        after=AFTER,
    ),
)

FREEDOMS = (
    Freedom(
        "outer-read-through-copy",
        "subgraphs",
        "IR.md §Nodes (a node in a nested subgraph may read names of outer graphs); Operators.md Identity, Cast "
        "(to the input's own element type)",
        "A body may read an outer value directly or read a copy of it computed in the enclosing graph (an Identity, "
        "or a Cast to the value's own element type); a pass that removes the copy must rename the body's reads too.",
        ("outer-reads-through-identity", "outer-reads-through-cast"),
        "main-graph values (graph inputs, initializers, node outputs) read inside an If/Loop/Scan body, nested bodies "
        "too: Identity on tensors (any type from opset 16), Cast on tensors of an element type the model's Cast "
        "takes; in the hunt also at depth 2 after node-in-if-*, chain-in-if-* and hoist-subgraph-constant "
        "(Rewrite.after). One way (removing the copy is a pass under test).",
    ),
)
