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

Sites: main-graph node labels (:func:`~passcheck.mutations._base.node_label`). Inverse: ``inline-local-functions``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite, chosen, fresh_name, is_default_domain, node_label, subgraphs
from passcheck.mutations._freedom import Freedom
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


def _function(model: onnx.ModelProto, n: onnx.NodeProto, name: str) -> tuple[onnx.FunctionProto, list[str]]:
    import onnx

    ins = [x for x in n.input if x]
    for sg in subgraphs(n):
        ins.extend(free_names(sg))
    ins = list(dict.fromkeys(ins))
    body = onnx.NodeProto()
    body.CopyFrom(n)
    body.name = "body"
    imports = [onnx.helper.make_opsetid(o.domain, o.version) for o in model.opset_import if o.domain != DOMAIN]
    f = onnx.helper.make_function(DOMAIN, name, ins, [y for y in n.output if y], [body], imports)
    return f, ins


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
        f, ins = _function(model, n, fresh_name(taken, f"{n.op_type}_flow"))
        model.functions.append(f)
        outs = [y for y in n.output if y]
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
)

FREEDOMS = (
    Freedom(
        "control-flow-in-local-function",
        "functions",
        "IR.md §Functions (a function body may hold any node, calls of other functions too), §Names Within a "
        "Graph (a nested graph reads its enclosing scope; a function body's scope is its own)",
        "An If / Loop / Scan may be written in the graph or inside a model-local function (directly or through a "
        "second function), the values its subgraphs read from outside passed as function inputs.",
        ("control-flow-as-local-function", "control-flow-as-nested-local-function", "inline-local-functions"),
        "default-domain main-graph nodes with a GRAPH or GRAPHS attribute.",
    ),
)
