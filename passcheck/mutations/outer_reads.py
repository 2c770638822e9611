"""A value a control-flow body reads from the main graph, read through a main-graph Identity instead.

ONNX rule: a node inside an If/Loop/Scan body may read any value of an enclosing graph by name (IR.md
§Graphs, §Names Within a Graph, §Nodes: outer-scope reads), and a name is defined once across all scopes,
so every read of a main-graph name inside a body is such a read. Operators.md Identity: the output equals
the input. So a body that reads ``v`` computes the same when it reads ``v_outer = Identity(v)`` written in
the main graph before the node that holds the body.

Why a rewrite of its own: a pass that removes a node it finds to be a no-op (an Identity, a Cast to the
type it already has) renames the removed value's readers to the node's input, and a body reading the value
is one of them (onnxruntime's Python fusions: ``OnnxModel.replace_input_of_all_nodes`` under
``remove_identity_nodes`` / ``remove_useless_cast_nodes``; onnxruntime's C++ ``graph_utils`` node removal
updates the implicit inputs of subgraphs). ``identity-edges`` routes main-graph node-to-node edges only and
leaves body reads on the original value, and the outer reads the bases hold (``control-flow/*``, and what
``node-in-if-*`` / ``chain-in-if-*`` write: the moved node's own inputs) are graph inputs, initializers
and outputs of other ops: no form had an Identity whose output only a body reads.

Sites: the main-graph value's name, for each graph input, initializer or node output some body (nested
bodies too) reads, whose type is a tensor (Identity-1 … 13 take tensors; from opset 16, Identity-16, any
type: the value's type as declared or as onnx shape inference gives it). The Identity is placed right
before the first main-graph node whose bodies read the value; every body read of the value (node inputs
and body outputs naming it) reads the copy. Applied after the rewrites that move nodes into bodies (their
depth-2 pairs, :attr:`~passcheck.mutations._base.Rewrite.after`), since a base without a body has no site.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite, all_names, chosen, fresh_name, opset, subgraphs
from passcheck.mutations._freedom import Freedom
from passcheck.mutations._graph_edit import set_nodes
from passcheck.mutations.loop_carried import _free_reads, _rename_reads

if TYPE_CHECKING:
    import onnx

#: Identity-16 takes any type (optional included); earlier versions tensors (14 adds sequences).
ANY_TYPE_OPSET = 16

#: The rewrites whose output may hold outer reads where the model as given holds none.
AFTER = ("node-in-if-const", "node-in-if-opaque", "chain-in-if-const", "chain-in-if-opaque", "hoist-subgraph-constant")


def _tensors(model: onnx.ModelProto) -> set[str] | None:
    """Main-graph names whose type is a tensor (None: at opset >= 16 every type qualifies)."""
    import onnx

    if opset(model) >= ANY_TYPE_OPSET:
        return None
    g = model.graph
    known = {t.name for t in g.initializer}
    declared = list(g.input) + list(g.value_info) + list(g.output)
    try:
        declared += list(onnx.shape_inference.infer_shapes(model).graph.value_info)
    except Exception:  # noqa: BLE001 - types unknown: only the declared ones count
        pass
    return known | {v.name for v in declared if v.type.HasField("tensor_type")}


def through_identity(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Each main-graph value read inside a body (``only``: those names) → read there through a main-graph
    Identity; in place. Returns the values so routed, in main-graph order."""
    import onnx

    g = model.graph
    defined = [v.name for v in g.input] + [t.name for t in g.initializer]
    defined += [o for n in g.node for o in n.output if o]
    typed = _tensors(model)
    taken = all_names(model)
    first_reader: dict[str, int] = {}
    for i, n in enumerate(g.node):
        for sg in subgraphs(n):
            for name in _free_reads(sg):
                first_reader.setdefault(name, i)
    sites = [
        v for v in dict.fromkeys(defined) if v in first_reader and (typed is None or v in typed) and chosen(only, v)
    ]
    if not sites:
        return []
    before: dict[int, list[onnx.NodeProto]] = {}
    for v in sites:
        copy = fresh_name(taken, f"{v}_outer")
        before.setdefault(first_reader[v], []).append(
            onnx.helper.make_node("Identity", [v], [copy], name=fresh_name(taken, f"{v}_outer_identity"))
        )
        for n in g.node:
            for sg in subgraphs(n):
                _rename_reads(sg, v, copy)
    nodes = []
    for i, n in enumerate(g.node):
        nodes += before.get(i, [])
        nodes.append(n)
    set_nodes(g, nodes)
    return sites


REWRITES = (
    Rewrite(
        "outer-reads-through-identity",
        "a main-graph value v a body reads → the body reads Identity(v), computed in the main graph",
        through_identity,
        detail="values",
        after=AFTER,
    ),
)

FREEDOMS = (
    Freedom(
        "outer-read-through-identity",
        "subgraphs",
        "IR.md §Nodes (a node in a nested subgraph may read names of outer graphs); Operators.md Identity",
        "A body may read an outer value directly or read an Identity of it computed in the enclosing graph; a pass "
        "that removes the Identity must rename the body's reads too.",
        ("outer-reads-through-identity",),
        "main-graph values (graph inputs, initializers, node outputs) of tensor type (any type from opset 16) read "
        "inside an If/Loop/Scan body, nested bodies too; in the hunt also at depth 2 after node-in-if-*, "
        "chain-in-if-* and hoist-subgraph-constant (Rewrite.after). One way (removing the Identity is a pass under "
        "test).",
    ),
)
