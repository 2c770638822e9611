"""A main-graph node (or a short chain of them) computed inside a control-flow body instead.

ONNX rule: a node of a subgraph may read any value of the enclosing scopes by name (IR.md §Graphs,
§Names Within a Graph, §Nodes: outer-scope reads); If runs exactly one branch and returns its
outputs (Operators.md If-1/11/13/16/19/21); Loop with trip count M = 1 and cond true runs its body
once and stacks each scan output along a new leading axis of size 1 (Operators.md Loop-11/13/16/19/21).
So ``y = op(x)`` computes the same as

- ``y = If(c){then: op(x)}{else: op(x)}`` for any bool scalar ``c``, the two branches being the same
  nodes under fresh names, and as
- ``y = Squeeze(Loop(1, true){scan output: op(x)}, axes=[0])``.

Rewrites:

- ``node-in-if-const``: ``c`` is a Constant true (the then branch runs); a pass that folds If on a
  constant condition inlines the branch.
- ``node-in-if-opaque``: ``c = IsNaN(ReduceSum(x, keepdims=0))`` of the first float graph input
  ``x``: data-dependent, so no pass can fold it, and false on finite data (the else branch runs
  under onnxruntime on the synthesized feeds). Its value does not matter: both branches are equal.
- ``chain-in-if-const``, ``chain-in-if-opaque``: a run of 2–3 main-graph nodes, each output but the
  last read only by the next node, in one If on either condition (fusions match chains: Conv→Relu,
  MatMul→Add; under the opaque condition a fusion must happen inside the branches).
- ``node-in-loop-once``: the node in a Loop body run once, its outputs scan outputs, each squeezed
  at axis 0 after the Loop.

Which nodes: main-graph nodes with at least one output, not Constant, without graph attributes,
not random (two copies of a random op draw differently), every output a tensor whose element type
onnx shape inference knows and the wrapper's schema allows at the model's opset (If V, Loop V,
Squeeze T). Body outputs carry that element type and the inferred dims (dim_value, dim_param or
anonymous). The Constant condition and trip count need Constant-9 (bool and int64): opset >= 9;
IsNaN needs opset >= 9; a Loop without loop-carried values needs Loop-11 (v_initial min arity 0):
opset >= 11. Outputs left empty ("") stay empty on the body node and are not branch outputs.

Sites: the node's label (:func:`~passcheck.mutations._base.node_label`); a chain's is
``FIRST..LAST``. All at once, chains are taken greedily in node order without overlap."""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from passcheck.mutations._base import (
    Rewrite,
    all_names,
    chosen,
    consumers,
    fresh_name,
    names_used_in_subgraphs,
    node_label,
    opset,
    subgraphs,
)
from passcheck.mutations._freedom import Freedom
from passcheck.mutations._graph_edit import set_nodes
from passcheck.mutations._opsets import schema
from passcheck.mutations._shapes import Known, known
from passcheck.mutations.shared_nodes import RANDOM

if TYPE_CHECKING:
    import onnx

#: Element types IsNaN-9+ takes (the opaque condition's source).
_FLOATS = (1, 10, 11)  # FLOAT, FLOAT16, DOUBLE


def _allows(op: str, version: int, param: str, elem_type: int) -> bool:
    """Whether ``op``'s schema at opset ``version`` lets type parameter ``param`` be a tensor of ``elem_type``."""
    import onnx

    s = schema(op, version)
    if s is None:
        return False
    want = f"tensor({onnx.helper.tensor_dtype_to_string(elem_type).removeprefix('TensorProto.').lower()})"
    return any(t.type_param_str == param and want in t.allowed_type_strs for t in s.type_constraints)


def _movable(n: onnx.NodeProto, types: dict[str, Known], wrap: tuple[tuple[str, str], ...], version: int) -> bool:
    outs = [o for o in n.output if o]
    return (
        bool(outs)
        and n.op_type != "Constant"
        and n.op_type not in RANDOM
        and not any(True for _ in subgraphs(n))
        and all(
            o in types and types[o].elem_type and all(_allows(op, version, p, types[o].elem_type) for op, p in wrap)
            for o in outs
        )
    )


def _chains(g: onnx.GraphProto, ok: list[bool], longest: int) -> list[tuple[int, ...]]:
    """Runs of 2..``longest`` movable nodes, each one's single output read only by the next node
    (not a graph output, not read by a subgraph); greedy in node order, without overlap."""
    readers = consumers(g)
    private = {v for v, r in readers.items() if len(set(r)) == 1} - {o.name for o in g.output}
    private -= names_used_in_subgraphs(g)
    runs, used = [], set()
    for i in range(len(g.node)):
        run = [i]
        while len(run) < longest and ok[run[-1]] and run[-1] not in used:
            outs = list(g.node[run[-1]].output)
            if len(outs) != 1 or outs[0] not in private:
                break
            run.append(readers[outs[0]][0])
        if len(run) > 1 and all(ok[j] and j not in used for j in run):
            runs.append(tuple(run))
            used.update(run)
    return runs


def _body(
    name: str, nodes: list[onnx.NodeProto], outs: list[str], types: dict[str, Known], taken: set[str], fresh: bool
) -> tuple[onnx.GraphProto, dict[str, str]]:
    """A graph computing ``nodes`` (copies) whose outputs are ``outs`` under fresh names; every
    value the nodes define is renamed when ``fresh``, else only ``outs``. Returns the graph and
    the old → body name map."""
    import onnx

    defined = [o for n in nodes for o in n.output if o]
    rename = {o: fresh_name(taken, f"{o}_{name}") for o in defined if fresh or o in outs}
    body = []
    for n in nodes:
        c = onnx.NodeProto()
        c.CopyFrom(n)
        c.name = fresh_name(taken, f"{n.name or n.op_type}_{name}")
        c.input[:] = [rename.get(x, x) for x in c.input]
        c.output[:] = [rename.get(x, x) for x in c.output]
        body.append(c)
    info = [onnx.helper.make_tensor_value_info(rename[o], types[o].elem_type, _dims(types[o])) for o in outs]
    inner = [
        onnx.helper.make_tensor_value_info(rename.get(o, o), types[o].elem_type, _dims(types[o]))
        for o in defined
        if o not in outs and o in types and types[o].elem_type
    ]
    return onnx.helper.make_graph(body, fresh_name(taken, name), [], info, value_info=inner), rename


def _declared_symbols_only(model: onnx.ModelProto, types: dict[str, Known]) -> dict[str, Known]:
    """``types`` with every dim_param the model does not declare (on a main-graph input, output or
    value_info) made anonymous: a name shape inference made up (``unk__0``) would otherwise claim
    that two body outputs have the same size (IR.md §Static tensor shapes: one name, one size)."""
    g = model.graph
    declared = {
        d.dim_param for v in [*g.input, *g.output, *g.value_info] for d in v.type.tensor_type.shape.dim if d.dim_param
    }

    def keep(k: Known) -> Known:
        if k.dims is None:
            return k
        return Known(k.elem_type, tuple(None if isinstance(d, str) and d not in declared else d for d in k.dims))

    return {name: keep(k) for name, k in types.items()}


def _dims(k: Known) -> list | None:
    return None if k.dims is None else list(k.dims)


def _bool_constant(taken: set[str], base: str, value: bool) -> onnx.NodeProto:
    import onnx

    out = fresh_name(taken, base)
    t = onnx.helper.make_tensor("", onnx.TensorProto.BOOL, [], [value])
    return onnx.helper.make_node("Constant", [], [out], name=fresh_name(taken, f"{out}_node"), value=t)


def _opaque_condition(model: onnx.ModelProto, types: dict[str, Known], taken: set[str]) -> list[onnx.NodeProto]:
    """``IsNaN(ReduceSum(x, keepdims=0))`` of the first float graph input (not an initializer), or []."""
    import onnx

    inits = {t.name for t in model.graph.initializer}
    x = next(
        (
            v.name
            for v in model.graph.input
            if v.name not in inits and v.name in types and types[v.name].elem_type in _FLOATS
        ),
        None,
    )
    if x is None:
        return []
    total, cond = fresh_name(taken, f"{x}_sum"), fresh_name(taken, f"{x}_sum_isnan")
    return [
        onnx.helper.make_node("ReduceSum", [x], [total], name=fresh_name(taken, f"{total}_node"), keepdims=0),
        onnx.helper.make_node("IsNaN", [total], [cond], name=fresh_name(taken, f"{cond}_node")),
    ]


def _wrap(model: onnx.ModelProto, only: Collection[str] | None, kind: str, longest: int = 1) -> list[str]:
    """The edit of every rewrite here: ``kind`` is ``if-const``, ``if-opaque`` or ``loop-once``;
    ``longest`` > 1 wraps chains instead of single nodes."""
    import onnx

    version = opset(model)
    if version < (11 if kind == "loop-once" else 9):
        return []
    g, types = model.graph, _declared_symbols_only(model, known(model))
    wrap = (("Loop", "V"), ("Squeeze", "T")) if kind == "loop-once" else (("If", "V"),)
    ok = [_movable(n, types, wrap, version) for n in g.node]
    groups = _chains(g, ok, longest) if longest > 1 else [(i,) for i in range(len(g.node)) if ok[i]]
    taken = all_names(model)
    head: list[onnx.NodeProto] = []
    if kind == "if-opaque":
        head = _opaque_condition(model, types, taken)
        if not head:
            return []
    cond = head[-1].output[0] if head else None
    replace: dict[int, list[onnx.NodeProto]] = {}
    sites = []
    for group in groups:
        nodes = [g.node[i] for i in group]
        label = (
            "..".join(node_label(g.node[i], i) for i in (group[0], group[-1]))
            if longest > 1
            else node_label(nodes[0], group[0])
        )
        if not chosen(only, label):
            continue
        outs = [o for o in nodes[-1].output if o]
        base = nodes[-1].name or nodes[-1].op_type
        if kind == "loop-once":
            new = _loop_once(nodes, outs, types, taken, base, version)
        else:
            new = []
            if kind == "if-const":
                new.append(_bool_constant(taken, f"{base}_cond", True))
            c = new[0].output[0] if new else cond
            then, _ = _body("then", nodes, outs, types, taken, fresh=False)
            other, _ = _body("else", nodes, outs, types, taken, fresh=True)
            new.append(
                onnx.helper.make_node(
                    "If", [c], outs, name=fresh_name(taken, f"{base}_if"), then_branch=then, else_branch=other
                )
            )
        for i in group[:-1]:
            replace[i] = []
        replace[group[-1]] = new
        sites.append(label)
    if not sites:
        return []
    gone = {o for i, new in replace.items() if not new for o in g.node[i].output}
    set_nodes(g, [*head, *(m for i, n in enumerate(g.node) for m in replace.get(i, [n]))])
    if gone:  # a chain's inner values now live in the branches (typed there)
        info = [v for v in g.value_info if v.name not in gone]
        del g.value_info[:]
        g.value_info.extend(info)
    return sites


def _loop_once(
    nodes: list[onnx.NodeProto],
    outs: list[str],
    types: dict[str, Known],
    taken: set[str],
    base: str,
    version: int,
) -> list[onnx.NodeProto]:
    """Constant M = 1 and cond = true, the Loop whose body computes ``nodes`` with ``outs`` as scan
    outputs, and one Squeeze at axis 0 per output giving it its original name (axes an attribute
    before Squeeze-13, an int64 input from it)."""
    import onnx

    body, _ = _body("body", nodes, outs, types, taken, fresh=True)
    i_in, c_in, c_out = (fresh_name(taken, f"{base}_{s}") for s in ("iter", "cond_in", "cond_out"))
    body.input.extend(
        [
            onnx.helper.make_tensor_value_info(i_in, onnx.TensorProto.INT64, []),
            onnx.helper.make_tensor_value_info(c_in, onnx.TensorProto.BOOL, []),
        ]
    )
    body.output.insert(0, onnx.helper.make_tensor_value_info(c_out, onnx.TensorProto.BOOL, []))
    body.node.insert(0, onnx.helper.make_node("Identity", [c_in], [c_out], name=fresh_name(taken, f"{c_out}_node")))
    trip = fresh_name(taken, f"{base}_trip")
    m = onnx.helper.make_node(
        "Constant",
        [],
        [trip],
        name=fresh_name(taken, f"{trip}_node"),
        value=onnx.helper.make_tensor("", onnx.TensorProto.INT64, [], [1]),
    )
    cond = _bool_constant(taken, f"{base}_loop_cond", True)
    stacked = [fresh_name(taken, f"{o}_stacked") for o in outs]
    loop = onnx.helper.make_node(
        "Loop", [trip, cond.output[0]], stacked, name=fresh_name(taken, f"{base}_loop"), body=body
    )
    if version < 13:
        return [m, cond, loop] + [
            onnx.helper.make_node("Squeeze", [s], [o], name=fresh_name(taken, f"{o}_squeeze"), axes=[0])
            for s, o in zip(stacked, outs, strict=True)
        ]
    axes = fresh_name(taken, f"{base}_axis0")
    zero = onnx.helper.make_node(
        "Constant",
        [],
        [axes],
        name=fresh_name(taken, f"{axes}_node"),
        value=onnx.helper.make_tensor("", onnx.TensorProto.INT64, [1], [0]),
    )
    squeezes = [
        onnx.helper.make_node("Squeeze", [s, axes], [o], name=fresh_name(taken, f"{o}_squeeze"))
        for s, o in zip(stacked, outs, strict=True)
    ]
    return [m, cond, zero, loop, *squeezes]


def node_in_if_const(model: onnx.ModelProto, only: Collection[str] | None = None) -> list[str]:
    """Each movable node → an If on a Constant true whose branches both compute it."""
    return _wrap(model, only, "if-const")


def node_in_if_opaque(model: onnx.ModelProto, only: Collection[str] | None = None) -> list[str]:
    """Each movable node → an If on a data-dependent bool whose branches both compute it."""
    return _wrap(model, only, "if-opaque")


def chain_in_if_const(model: onnx.ModelProto, only: Collection[str] | None = None) -> list[str]:
    """Each private chain of 2–3 movable nodes → one If on a Constant true whose branches compute it."""
    return _wrap(model, only, "if-const", longest=3)


def chain_in_if_opaque(model: onnx.ModelProto, only: Collection[str] | None = None) -> list[str]:
    """Each private chain of 2–3 movable nodes → one If on a data-dependent bool whose branches compute it."""
    return _wrap(model, only, "if-opaque", longest=3)


def node_in_loop_once(model: onnx.ModelProto, only: Collection[str] | None = None) -> list[str]:
    """Each movable node → a Loop run once computing it, then Squeeze at axis 0 (opset >= 11)."""
    return _wrap(model, only, "loop-once")


REWRITES = (
    Rewrite(
        "node-in-if-const",
        "a node → an If on a Constant true whose two branches both compute it (outer-scope reads; If-1+)",
        node_in_if_const,
    ),
    Rewrite(
        "node-in-if-opaque",
        "a node → an If on IsNaN(ReduceSum(input)) whose two branches both compute it (the condition never matters)",
        node_in_if_opaque,
    ),
    Rewrite(
        "chain-in-if-const",
        "2-3 chained nodes (inner outputs read only by the next) → one If on Constant true, both branches the same",
        chain_in_if_const,
    ),
    Rewrite(
        "chain-in-if-opaque",
        "2-3 chained nodes (inner outputs read only by the next) → one If on IsNaN(ReduceSum(input)), equal branches",
        chain_in_if_opaque,
    ),
)

#: Not registered (passcheck does not offer it by default): onnx 1.23.2's reference evaluator, which the
#: annotation oracle needs for values inside a body, joins a Loop's scan outputs without adding the iteration
#: axis (docs/found.md), so every annotation of such a form is ``unchecked`` and a clean model's run exits 1.
LOOP_ONCE = Rewrite(
    "node-in-loop-once",
    "a node → a Loop with M = 1 computing it as scan outputs, each Squeezed at axis 0 (Loop-11+)",
    node_in_loop_once,
)

FREEDOMS = (
    Freedom(
        "node-in-control-flow-body",
        "subgraphs",
        "IR.md §Graphs, §Names Within a Graph, §Nodes (a subgraph node may read outer-scope values); "
        "Operators.md If-1+ (one branch runs), Loop-11+ (M = 1 runs the body once; scan outputs stacked on axis 0), "
        "Squeeze-13",
        "A node may be computed in the main graph, or inside an If whose two branches both compute it (any "
        "condition), or inside a Loop run once whose scan output is squeezed at axis 0 (that form, LOOP_ONCE, is "
        "not registered: onnx's reference evaluator mis-stacks Loop scan outputs, so its annotations go unchecked).",
        ("node-in-if-const", "node-in-if-opaque", "chain-in-if-const", "chain-in-if-opaque"),
        "main-graph nodes with tensor outputs of known element type, not Constant, not random, without graph "
        "attributes; opset >= 9 for If (Constant-9 bool condition), >= 11 for the Loop form (Loop-11: no "
        "carried value needed); chains: 2-3 nodes whose inner outputs have one reader; one way (no rewrite "
        "folds a body back out).",
    ),
)
