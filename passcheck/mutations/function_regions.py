"""A run of nodes ↔ one call of a model-local function whose body is those nodes, and a function
whose body calls another (IR.md §Functions: a model-local function is an operator whose meaning is
its body, a function body may call other functions of the model as long as no call is recursive;
a runtime may inline calls).

- ``region-as-local-function``: a chain of 2–4 default-domain main-graph nodes without graph
  attributes, each reading an output of the one before that has no other reader and is not a graph
  output → a call of a new function (domain ``org.passcheck.local``, the model's default-domain
  opset as its own import) whose body is those nodes with literal attributes. Function inputs: the
  values the chain reads from outside it, initializers included, in first-read order; outputs: the
  chain's values read after it (by a node, a subgraph or a graph output), in production order.
  The call sits where the chain's last node was, so a chain whose outputs are read between its
  nodes is left alone. Sites: the chains the greedy pass in node order finds (each chain as long
  as it goes, at most 4 nodes, chains never overlapping), labelled by their node labels joined by
  ``>``; ``only`` may also name any other chain that way. IR raised to 8 when lower.
- ``nested-local-function``: a model-local function with at least one node → the same function
  whose body calls a second new function (same domain and opset imports) holding the first half of
  its nodes (at least one), the calling function keeping the rest. Attributes the moved nodes refer
  to (``ref_attr_name``) become the second function's parameters, passed on by reference, their
  defaults (``attribute_proto``) copied. Sites: function names; in a model without model-local
  functions, the regions of ``region-as-local-function`` (each made a function, then nested), so
  the form applies to a base alone. At depth 2 after ``region-as-local-function`` or
  ``node-as-local-function``.

Value names in a new body: formal inputs ``x0…``, formal outputs ``y0…``, the rest ``t0…``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations._base import (
    Rewrite,
    chosen,
    fresh_name,
    is_default_domain,
    names_used_in_subgraphs,
    node_label,
)
from passcheck.mutations._base import opset as model_opset
from passcheck.mutations._freedom import Freedom
from passcheck.mutations._graph_edit import set_list, set_nodes
from passcheck.mutations.ir_version import raise_ir
from passcheck.mutations.local_functions import DOMAIN

if TYPE_CHECKING:
    import onnx

#: Most nodes in one region (the fusions onnxruntime and onnxscript match span 2–5 nodes).
MAX_NODES = 4
SEP = ">"


def _eligible(n: onnx.NodeProto) -> bool:
    return is_default_domain(n) and not _has_graph(n)


def _has_graph(n: onnx.NodeProto) -> bool:
    import onnx

    return any(a.type in (onnx.AttributeProto.GRAPH, onnx.AttributeProto.GRAPHS) for a in n.attribute)


def _next(g: onnx.GraphProto, i: int, readers: dict[str, list[int]], outputs: set[str]) -> int | None:
    """The index of the node that extends a chain ending at node ``i``: the one reader of one of its outputs."""
    for o in g.node[i].output:
        r = readers.get(o, [])
        if o and o not in outputs and len(set(r)) == 1 and r[0] > i and _eligible(g.node[r[0]]):
            return r[0]
    return None


def _readers(g: onnx.GraphProto) -> tuple[dict[str, list[int]], set[str]]:
    readers: dict[str, list[int]] = {}
    for i, n in enumerate(g.node):
        for x in n.input:
            if x:
                readers.setdefault(x, []).append(i)
    read_elsewhere = {o.name for o in g.output} | names_used_in_subgraphs(g)
    return readers, read_elsewhere


def _greedy(g: onnx.GraphProto, read: tuple[dict[str, list[int]], set[str]]) -> list[list[int]]:
    """Chains in node order, each as long as it goes (at most :data:`MAX_NODES`), none overlapping (``read``:
    :func:`_readers` of ``g``)."""
    readers, outputs = read
    taken: set[int] = set()
    chains = []
    for i in range(len(g.node)):
        if i in taken or not _eligible(g.node[i]):
            continue
        chain = [i]
        while len(chain) < MAX_NODES and (j := _next(g, chain[-1], readers, outputs)) is not None and j not in taken:
            chain.append(j)
        if len(chain) > 1:
            chains.append(chain)
            taken.update(chain)
    return chains


def _parse(
    g: onnx.GraphProto, label: str, index: dict[str, int], read: tuple[dict[str, list[int]], set[str]]
) -> list[int] | None:
    """The chain a label names (node labels joined by ``>``), or None when it names no chain (``index``: node
    label → index in ``g``; ``read``: :func:`_readers` of ``g``)."""
    parts = label.split(SEP)
    if not 2 <= len(parts) <= MAX_NODES or any(p not in index for p in parts):
        return None
    chain = [index[p] for p in parts]
    readers, outputs = read
    if not _eligible(g.node[chain[0]]):
        return None
    for a, b in zip(chain, chain[1:], strict=False):
        if not any(
            o and o not in outputs and set(readers.get(o, [])) == {b} and b > a for o in g.node[a].output
        ) or not _eligible(g.node[b]):
            return None
    return chain


def _body(nodes: list[onnx.NodeProto], ins: list[str], outs: list[str]) -> list[onnx.NodeProto]:
    """Copies of ``nodes`` with their values renamed: ``ins`` → x0…, ``outs`` → y0…, the rest → t0…."""
    import onnx

    names = {x: f"x{k}" for k, x in enumerate(ins)} | {y: f"y{k}" for k, y in enumerate(outs)}
    body = []
    for n in nodes:
        m = onnx.NodeProto()
        m.CopyFrom(n)
        for field in (m.input, m.output):
            for k, v in enumerate(field):
                if v and v not in names:
                    names[v] = f"t{len(names) - len(ins) - len(outs)}"
                field[k] = names.get(v, "")
        body.append(m)
    return body


def _outer(nodes: list[onnx.NodeProto]) -> tuple[list[str], list[str]]:
    """The values ``nodes`` read from outside them, and every value they produce, each in order."""
    made: list[str] = []
    ins: list[str] = []
    for n in nodes:
        ins.extend(x for x in n.input if x and x not in made and x not in ins)
        made.extend(y for y in n.output if y)
    return ins, made


def _wrap_chain(
    model: onnx.ModelProto,
    chain: list[int],
    name: str,
    taken: set[str],
    read: tuple[dict[str, list[int]], set[str]],
) -> onnx.NodeProto | None:
    """A call replacing ``chain`` (the new function appended to the model), or None when the chain's
    outputs are read by a node placed between its nodes. ``read``: :func:`_readers` of the main graph, which
    wrapping leaves as it is (the calls replace the chains after every chain is wrapped)."""
    import onnx

    g = model.graph
    nodes = [g.node[i] for i in chain]
    ins, made = _outer(nodes)
    inside = set(chain)
    readers, elsewhere = read
    outs = [y for y in made if y in elsewhere or any(r not in inside for r in readers.get(y, []))]
    if any(r not in inside and r < chain[-1] for y in outs for r in readers.get(y, [])):
        return None
    fn = onnx.helper.make_function(
        DOMAIN,
        name,
        [f"x{k}" for k in range(len(ins))],
        [f"y{k}" for k in range(len(outs))],
        _body(nodes, ins, outs),
        [onnx.helper.make_opsetid("", model_opset(model))],
    )
    model.functions.append(fn)
    return onnx.helper.make_node(name, ins, outs, name=fresh_name(taken, f"{name}_call"), domain=DOMAIN)


def as_region_function(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Each chosen chain of 2–4 main-graph nodes → one call of a model-local function holding it."""
    import onnx

    g = model.graph
    # the main graph's readers, read once: wrapping a chain leaves the graph as it is (the calls replace the
    # chains after every chain is wrapped); read per chain it was most of a pair form's build in a hunt (M164)
    read = _readers(g)
    if only is None:
        chains = _greedy(g, read)
    else:
        chains, used = [], set()
        index = {node_label(n, i): i for i, n in enumerate(g.node)}
        for label in sorted(only):
            c = _parse(g, label, index, read)
            if c is not None and not used & set(c):
                chains.append(c)
                used.update(c)
    chains = [c for c in chains if chosen(only, SEP.join(node_label(g.node[i], i) for i in c))]
    if not chains or (model.ir_version < 8 and len(model.training_info)):
        return []
    if model.ir_version < 8:
        raise_ir(model, 8)
    taken = {n.name for n in g.node} | {f.name for f in model.functions}
    made = {}
    for c in sorted(chains):
        fname = fresh_name(taken, f"Region_{'_'.join(g.node[i].op_type for i in c)}")
        call = _wrap_chain(model, c, fname, taken, read)
        if call is not None:
            made[c[-1]] = (c, call)
    if not made:
        return []
    drop = {i for c, _ in made.values() for i in c}
    gone = {y for c, _ in made.values() for i in c for y in g.node[i].output} - {
        y for _, call in made.values() for y in call.output
    }
    labels = [SEP.join(node_label(g.node[i], i) for i in c) for c, _ in sorted(made.values(), key=lambda v: v[0])]
    set_nodes(g, [made[i][1] if i in made else n for i, n in enumerate(g.node) if i in made or i not in drop])
    set_list(g.value_info, [v for v in g.value_info if v.name not in gone])
    if not any(o.domain == DOMAIN for o in model.opset_import):
        model.opset_import.append(onnx.helper.make_opsetid(DOMAIN, 1))
    return labels


def _nest(model: onnx.ModelProto, f: onnx.FunctionProto, name: str) -> None:
    import onnx

    nodes = list(f.node)
    half = max(1, len(nodes) // 2)
    head, rest = nodes[:half], nodes[half:]
    ins, made = _outer(head)
    later = {x for n in rest for x in n.input} | set(f.output)
    outs = [y for y in made if y in later]
    refs = {a.ref_attr_name: a.type for n in head for a in n.attribute if a.ref_attr_name}
    defaults = [a for a in f.attribute_proto if a.name in refs]
    inner = onnx.helper.make_function(
        f.domain,
        name,
        [f"x{k}" for k in range(len(ins))],
        [f"y{k}" for k in range(len(outs))],
        _body(head, ins, outs),
        list(f.opset_import),
        attributes=[r for r in refs if r not in {a.name for a in defaults}],
    )
    inner.attribute_proto.extend(defaults)
    model.functions.append(inner)
    call = onnx.helper.make_node(name, ins, outs, name=f"{name}_call", domain=f.domain)
    call.attribute.extend(onnx.AttributeProto(name=r, type=t, ref_attr_name=r) for r, t in refs.items())
    set_nodes(f, [call, *rest])
    set_list(f.value_info, [v for v in f.value_info if v.name not in set(made) - set(outs)])
    if not any(o.domain == f.domain for o in f.opset_import):
        f.opset_import.append(onnx.helper.make_opsetid(f.domain, model_opset(model, f.domain) or 1))


def _nestable(f: onnx.FunctionProto) -> bool:
    """A function with a node and no graph attribute (a moved subgraph would lose its outer-scope names)."""
    return len(f.node) > 0 and not any(_has_graph(n) for n in f.node)


def nest_function(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Each chosen model-local function → the same function calling a new one that holds the first half of its
    body; in a model without model-local functions, each chosen region (labels as ``region-as-local-function``)
    made a function first, so the form stands alone (a hunt draws pairs of rewrites that apply to the base)."""
    if not model.functions:
        before = len(model.functions)
        labels = as_region_function(model, only)
        taken = {f.name for f in model.functions}
        for f in list(model.functions[before:]):
            _nest(model, f, fresh_name(taken, f"{f.name}_inner"))
        return labels
    picked = [f for f in model.functions if _nestable(f) and chosen(only, f.name)]
    taken = {f.name for f in model.functions}
    for f in picked:
        _nest(model, f, fresh_name(taken, f"{f.name}_inner"))
    return [f.name for f in picked]


REWRITES = (
    Rewrite(
        "region-as-local-function",
        "a chain of 2-4 nodes → one call of a model-local function whose body is those nodes (IR >= 8)",
        as_region_function,
        inverse="inline-local-functions",
        detail="node chains",
    ),
    Rewrite(
        "nested-local-function",
        "a model-local function → the same function whose body calls a second one holding the first half of its nodes",
        nest_function,
        inverse="inline-local-functions",
        detail="functions",
    ),
)

FREEDOMS = (
    Freedom(
        "region-or-local-function",
        "functions",
        "IR.md §Functions (a model-local function means its body; its inputs and outputs are the values the body "
        "reads and yields)",
        "Several connected nodes may be written inline or as one call of a model-local function whose body is those "
        "nodes, so a fusion's pattern may sit inside a function or across its boundary.",
        ("region-as-local-function", "inline-local-functions"),
        "chains of 2-4 default-domain main-graph nodes without graph attributes whose inner values have one reader "
        "and are not graph outputs; greedy in node order, or any chain named by its node labels joined by '>'.",
    ),
    Freedom(
        "nested-local-functions",
        "functions",
        "IR.md §Functions (a function body may call other model-local functions; no recursion)",
        "A function's body may hold its nodes or call a second model-local function that holds some of them "
        "(attributes passed on by reference).",
        ("nested-local-function", "inline-local-functions"),
        "every model-local function with a node: the first half of its body moves to the new function; in a model "
        "without functions, the regions of region-as-local-function, each wrapped then nested; at depth 2 after "
        "region-as-local-function or node-as-local-function.",
    ),
)
