"""A value a Loop body reads unchanged: an outer-scope read or a loop-carried value (issue 27).
ONNX spec: IR.md §Nodes (a node input in a nested subgraph MAY refer to names introduced in outer
graphs); Operators.md Loop-1/11/13/16/19/21 (inputs ``M, cond, v_initial…``; body inputs
``(iteration_num, condition, loop-carried dependencies…)``, body outputs ``(condition,
loop-carried dependencies…, scan_outputs…)``; the Loop's outputs are the carried values' final
values, then the scan outputs). A carried value the body returns as it received it keeps its
initial value in every iteration, which is what an outer-scope read of the initial value sees.

- ``outer-read-as-loop-carried``: a main-graph value of known type that a main-graph Loop body
  (or a graph nested in it) reads from the outer scope becomes one more carried value, its body
  input read instead and returned through an Identity; the Loop gets one more output, unread.
- ``loop-carried-as-outer-read``: back, a carried value the body returns unchanged (the body
  input itself or an Identity of it) whose final value nothing reads becomes an outer read.

Sites are ``LOOP/VALUE``: the Loop node's label and the outer value's name (forward) or the
carried value's initial name (back)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations._base import (
    Rewrite,
    all_names,
    chosen,
    fresh_name,
    is_default_domain,
    names_used_in_subgraphs,
    node_label,
    subgraphs,
)
from passcheck.mutations._graph_edit import set_nodes
from passcheck.mutations._shapes import known
from passcheck.mutations.catalogue import Freedom

if TYPE_CHECKING:
    import onnx


def _loops(model: onnx.ModelProto):
    for i, n in enumerate(model.graph.node):
        body = next((a.g for a in n.attribute if a.name == "body"), None)
        if n.op_type == "Loop" and is_default_domain(n) and body is not None:
            yield i, n, body


def _defined(g: onnx.GraphProto) -> set[str]:
    return {v.name for v in g.input} | {t.name for t in g.initializer} | {o for n in g.node for o in n.output}


def _free_reads(g: onnx.GraphProto) -> list[str]:
    """Names read in ``g`` (nested graphs included) that ``g`` does not define, in first-read order."""
    seen: dict[str, None] = {}

    def walk(h: onnx.GraphProto, bound: set[str]) -> None:
        bound = bound | _defined(h)
        for n in h.node:
            for x in n.input:
                if x and x not in bound:
                    seen.setdefault(x)
            for sg in subgraphs(n):
                walk(sg, bound)
        for o in h.output:
            if o.name not in bound:
                seen.setdefault(o.name)

    walk(g, set())
    return list(seen)


def _rename_reads(g: onnx.GraphProto, old: str, new: str) -> None:
    """Every read of ``old`` in ``g`` and its nested graphs (graph outputs included) reads ``new``."""
    for n in g.node:
        for j, x in enumerate(n.input):
            if x == old:
                n.input[j] = new
        for sg in subgraphs(n):
            _rename_reads(sg, old, new)
    for o in g.output:
        if o.name == old:
            o.name = new


def outer_read_as_carried(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """An outer value read by a main-graph Loop body → one more loop-carried value returned unchanged."""
    import onnx

    types, taken, sites = known(model), all_names(model), []
    outer = {v.name for v in model.graph.input} | {t.name for t in model.graph.initializer}
    for i, n, body in _loops(model):
        outer |= {o for m in model.graph.node[:i] for o in m.output}
        carried = len(n.input) - 2
        if len(n.output) < carried:
            continue  # final values left off: no position for one more
        for name in _free_reads(body):
            k = types.get(name)
            label = f"{node_label(n, i)}/{name}"
            if name not in outer or k is None or not k.elem_type or k.dims is None or not chosen(only, label):
                continue
            v_in, v_out = fresh_name(taken, f"{name}_carried"), fresh_name(taken, f"{name}_carried_out")
            _rename_reads(body, name, v_in)
            kind = onnx.helper.make_tensor_type_proto(k.elem_type, list(k.dims))
            body.input.insert(2 + carried, onnx.helper.make_value_info(v_in, kind))
            body.output.insert(1 + carried, onnx.helper.make_value_info(v_out, kind))
            copy = onnx.helper.make_node("Identity", [v_in], [v_out], name=fresh_name(taken, f"{v_out}_node"))
            set_nodes(body, [copy, *body.node])
            n.input.insert(2 + carried, name)
            n.output.insert(carried, fresh_name(taken, f"{name}_final"))
            carried += 1
            sites.append(label)
    return sites


def carried_as_outer_read(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """A loop-carried value the body returns unchanged and whose final value is unread → an outer read."""
    g, sites = model.graph, []
    read = {x for n in g.node for x in n.input} | {o.name for o in g.output} | names_used_in_subgraphs(g)
    for i, n, body in _loops(model):
        k = 0
        while k < len(n.input) - 2:
            initial, final = n.input[2 + k], n.output[k] if k < len(n.output) else ""
            b_in, b_out = body.input[2 + k].name, body.output[1 + k].name
            copies = [m for m in body.node if m.op_type == "Identity" and list(m.input) == [b_in]]
            same = b_out == b_in or any(m.output[0] == b_out for m in copies)
            label = f"{node_label(n, i)}/{initial}"
            if not initial or (final and final in read) or not same or not chosen(only, label):
                k += 1
                continue
            drop = {m.output[0] for m in copies if m.output[0] == b_out}
            set_nodes(body, [m for m in body.node if not (m.op_type == "Identity" and m.output[0] in drop)])
            del body.output[1 + k]
            del body.input[2 + k]
            for name in {b_in} | drop:
                _rename_reads(body, name, initial)
            del n.input[2 + k]
            if k < len(n.output):
                del n.output[k]
            sites.append(label)
    return sites


REWRITES = (
    Rewrite(
        "outer-read-as-loop-carried",
        "a Loop body's outer-scope read → a loop-carried value the body returns unchanged",
        outer_read_as_carried,
        inverse="loop-carried-as-outer-read",
        detail="values",
    ),
    Rewrite(
        "loop-carried-as-outer-read",
        "a loop-carried value returned unchanged, final value unread → an outer-scope read",
        carried_as_outer_read,
        inverse="outer-read-as-loop-carried",
        detail="values",
    ),
)

FREEDOMS = (
    Freedom(
        "loop-carried-or-outer-scope",
        "subgraphs",
        "IR.md §Nodes (outer-scope reads); Operators.md Loop-1/11/13/16/19/21 (loop-carried dependencies)",
        "A value a Loop body reads unchanged may come from the outer scope or be passed in as a loop-carried value "
        "the body returns as it is.",
        ("outer-read-as-loop-carried", "loop-carried-as-outer-read"),
        "main-graph Loop nodes: outer reads of main-graph values of known type by the body or graphs nested in "
        "it (forward), carried values returned unchanged whose final value nothing reads (back); Scan state "
        "variables left alone",
    ),
)
