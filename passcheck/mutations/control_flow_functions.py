"""A control-flow node (If, Loop, Scan, any node with a graph attribute) ↔ a call of a model-local
function whose body is that node, its subgraphs' outer-scope reads made explicit function inputs.

IR.md §Functions puts no restriction on a function body's nodes, so an If / Loop / Scan may sit in one;
IR.md §Names Within a Graph lets a nested graph read values of its enclosing scope, and a function body has
no scope but its own (formal inputs, its nodes' outputs). Every value a subgraph reads from outside it (at
any depth: a free variable) therefore becomes a formal input, passed by the call.

- ``control-flow-as-local-function``: each default-domain main-graph node with a ``GRAPH`` / ``GRAPHS``
  attribute → a call (domain ``org.passcheck.local``) of a new function holding that node, its attributes
  literal. Formal inputs: the node's given inputs, then its subgraphs' free variables (main-graph values,
  initializers included), in first-read order, each under its own name (a function's names are its own
  namespace), so the subgraphs are kept byte for byte (their initializers too). Formal outputs: the node's
  given outputs. An absent optional input (``""``) stays absent in the body. The function imports every
  opset the model imports (a branch may use any of them). IR raised to 8 when lower.
- ``control-flow-as-nested-local-function``: the same, the call then wrapped in a second function whose
  one body node calls the first (IR.md §Functions: a body may call another model-local function).
- ``control-flow-region-as-local-function``: such a node together with the chain of nodes after it (each the
  one reader of an output of the one before, not a graph output, without graph attributes; 2–4 nodes in all,
  as ``region-as-local-function``) → one call of a function holding them all, values under their own names;
  formal inputs: what the nodes and the subgraphs read from outside the chain; formal outputs: the chain's
  values read after it. Labels: node labels joined by ``>``.

Sites: main-graph node labels (:func:`~passcheck.mutations._base.node_label`). Inverse: ``inline-local-functions``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations import function_regions as FR
from passcheck.mutations._base import (
    Rewrite,
    chosen,
    fresh_name,
    is_default_domain,
    node_label,
    subgraphs,
)
from passcheck.mutations._freedom import Freedom
from passcheck.mutations._graph_edit import set_list, set_nodes
from passcheck.mutations.ir_version import raise_ir
from passcheck.mutations.local_functions import DOMAIN

if TYPE_CHECKING:
    import onnx


def _defined(g: onnx.GraphProto) -> set[str]:
    return (
        {v.name for v in g.input}
        | {t.name for t in g.initializer}
        | {s.values.name for s in g.sparse_initializer}
        | {y for n in g.node for y in n.output if y}
    )


def free_names(g: onnx.GraphProto) -> list[str]:
    """The values ``g`` (a subgraph) and the graphs nested in it read from an enclosing scope, in first-read
    order (IR.md §Names Within a Graph: a name not defined in a graph refers to an enclosing graph's value)."""
    own = _defined(g)
    free: list[str] = []
    for n in g.node:
        reads = [x for x in n.input if x]
        for sg in subgraphs(n):
            reads.extend(free_names(sg))
        free.extend(x for x in reads if x not in own and x not in free)
    free.extend(o.name for o in g.output if o.name not in own and o.name not in free)
    return free


def _has_graph(n: onnx.NodeProto) -> bool:
    return any(True for _ in subgraphs(n))


def _reads(nodes: list[onnx.NodeProto]) -> list[str]:
    """What ``nodes`` read from outside them (their subgraphs' outer reads included), in first-read order."""
    made: set[str] = set()
    ins: list[str] = []
    for n in nodes:
        reads = [x for x in n.input if x]
        for sg in subgraphs(n):
            reads.extend(free_names(sg))
        ins.extend(x for x in reads if x not in made and x not in ins)
        made.update(y for y in n.output if y)
    return ins


def _function(
    model: onnx.ModelProto, nodes: list[onnx.NodeProto], outs: list[str], name: str
) -> tuple[onnx.FunctionProto, list[str]]:
    import onnx

    ins = _reads(nodes)
    body = []
    for k, n in enumerate(nodes):
        m = onnx.NodeProto()
        m.CopyFrom(n)
        m.name = f"body{k}"
        body.append(m)
    imports = [onnx.helper.make_opsetid(o.domain, o.version) for o in model.opset_import if o.domain != DOMAIN]
    return onnx.helper.make_function(DOMAIN, name, ins, outs, body, imports), ins


def _wrap(model: onnx.ModelProto, only: frozenset[str] | None, nested: bool) -> list[str]:
    import onnx

    g = model.graph
    picked = [
        i for i, n in enumerate(g.node) if is_default_domain(n) and _has_graph(n) and chosen(only, node_label(n, i))
    ]
    if not picked or (model.ir_version < 8 and len(model.training_info)):
        return []
    if model.ir_version < 8:
        raise_ir(model, 8)
    taken = {n.name for n in g.node} | {f.name for f in model.functions}
    sites = []
    for i in picked:
        n = g.node[i]
        label = node_label(n, i)
        outs = [y for y in n.output if y]
        f, ins = _function(model, [n], outs, fresh_name(taken, f"{n.op_type}_flow"))
        model.functions.append(f)
        callee = f.name
        if nested:
            outer = onnx.helper.make_function(
                DOMAIN,
                fresh_name(taken, f"{n.op_type}_flow_outer"),
                ins,
                outs,
                [onnx.helper.make_node(callee, ins, outs, name="inner_call", domain=DOMAIN)],
                [*f.opset_import, onnx.helper.make_opsetid(DOMAIN, 1)],
            )
            model.functions.append(outer)
            callee = outer.name
        call = onnx.helper.make_node(callee, ins, outs, name=n.name, domain=DOMAIN)
        n.CopyFrom(call)
        sites.append(label)
    if not any(o.domain == DOMAIN for o in model.opset_import):
        model.opset_import.append(onnx.helper.make_opsetid(DOMAIN, 1))
    return sites


def as_control_flow_function(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Each chosen main-graph node with a graph attribute → a call of a model-local function holding it."""
    return _wrap(model, only, nested=False)


def as_nested_control_flow_function(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Each chosen main-graph node with a graph attribute → a call of a function calling one that holds it."""
    return _wrap(model, only, nested=True)


def _chain(g: onnx.GraphProto, i: int, read: tuple[dict[str, list[int]], set[str]]) -> list[int]:
    chain = [i]
    while len(chain) < FR.MAX_NODES and (j := FR._next(g, chain[-1], *read)) is not None:
        chain.append(j)
    return chain


def as_control_flow_region_function(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Each main-graph node with a graph attribute and the chain after it (2–4 nodes) → one function call."""
    import onnx

    g = model.graph
    read = FR._readers(g)
    readers, elsewhere = read
    chains = []
    used: set[int] = set()
    for i, n in enumerate(g.node):
        if i in used or not (is_default_domain(n) and _has_graph(n)):
            continue
        c = _chain(g, i, read)
        label = FR.SEP.join(node_label(g.node[k], k) for k in c)
        if len(c) > 1 and chosen(only, label) and not used & set(c):
            chains.append((c, label))
            used.update(c)
    if not chains or (model.ir_version < 8 and len(model.training_info)):
        return []
    if model.ir_version < 8:
        raise_ir(model, 8)
    taken = {n.name for n in g.node} | {f.name for f in model.functions}
    calls = {}
    for c, _ in chains:
        nodes = [g.node[k] for k in c]
        inside = set(c)
        made = [y for n in nodes for y in n.output if y]
        outs = [y for y in made if y in elsewhere or any(r not in inside for r in readers.get(y, []))]
        name = fresh_name(taken, f"Region_{'_'.join(n.op_type for n in nodes)}")
        f, ins = _function(model, nodes, outs, name)
        model.functions.append(f)
        calls[c[-1]] = onnx.helper.make_node(name, ins, outs, name=fresh_name(taken, f"{name}_call"), domain=DOMAIN)
    gone = {y for k in used for y in g.node[k].output} - {y for call in calls.values() for y in call.output}
    set_nodes(g, [calls.get(k, n) for k, n in enumerate(g.node) if k in calls or k not in used])
    set_list(g.value_info, [v for v in g.value_info if v.name not in gone])
    if not any(o.domain == DOMAIN for o in model.opset_import):
        model.opset_import.append(onnx.helper.make_opsetid(DOMAIN, 1))
    return [label for _, label in chains]


REWRITES = (
    Rewrite(
        "control-flow-as-local-function",
        "a node with a graph attribute (If/Loop/Scan) → a call of a model-local function holding it, its subgraphs' "
        "outer reads made function inputs (IR >= 8)",
        as_control_flow_function,
        inverse="inline-local-functions",
        detail="nodes with graph attributes",
    ),
    Rewrite(
        "control-flow-as-nested-local-function",
        "a node with a graph attribute → a call of a model-local function that calls a second one holding it",
        as_nested_control_flow_function,
        inverse="inline-local-functions",
        detail="nodes with graph attributes",
    ),
    Rewrite(
        "control-flow-region-as-local-function",
        "a node with a graph attribute and the 1-3 nodes after it → one call of a model-local function holding them",
        as_control_flow_region_function,
        inverse="inline-local-functions",
        detail="node chains",
    ),
)

FREEDOMS = (
    Freedom(
        "control-flow-in-local-function",
        "functions",
        "IR.md §Functions (a function body may hold any node, calls of other functions too), §Names Within a "
        "Graph (a nested graph reads its enclosing scope; a function body's scope is its own)",
        "An If / Loop / Scan may be written in the graph or inside a model-local function (directly or through a "
        "second function), the values its subgraphs read from outside passed as function inputs.",
        (
            "control-flow-as-local-function",
            "control-flow-as-nested-local-function",
            "control-flow-region-as-local-function",
            "inline-local-functions",
        ),
        "default-domain main-graph nodes with a GRAPH or GRAPHS attribute; for the region form, with the chain of "
        "one-reader nodes after it (2-4 nodes in all).",
    ),
)
