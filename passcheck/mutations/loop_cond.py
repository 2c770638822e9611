"""A Loop with a trip count: its ``cond`` input left out or given as a constant true (Operators.md
Loop-1/11/13/16/19/21: ``M`` and ``cond`` are both optional; with ``M`` given and ``cond`` the empty
name the loop is a for loop and the body's condition output is ignored; with ``cond`` given, the loop
runs while the condition is true, at most ``M`` times).

When the body's condition output is always true (the body's condition input passed straight out,
directly or through an Identity, or a Constant true) and nothing else in the body reads the
condition input, both spellings run the body exactly ``M`` times on the same values:

- ``loop-cond-given``: ``Loop(M, "")`` → ``Loop(M, t)`` with ``t`` a fresh bool scalar initializer
  holding true;
- ``loop-cond-omitted``: back, ``Loop(M, c)`` with ``c`` a static one-element bool tensor holding
  true → ``Loop(M, "")`` (``c`` goes when nothing else reads it).

Main-graph Loop nodes whose ``M`` is given; sites are the Loop nodes' labels."""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations._base import (
    Rewrite,
    all_names,
    chosen,
    fresh_name,
    is_default_domain,
    node_label,
    static_tensors,
    subgraphs,
)
from passcheck.mutations._freedom import Freedom
from passcheck.mutations._graph_edit import edit_sites

if TYPE_CHECKING:
    import onnx


def _static_true(t: onnx.TensorProto) -> bool:
    import onnx
    from onnx import numpy_helper

    if t.data_type != onnx.TensorProto.BOOL:
        return False
    values = numpy_helper.to_array(t)
    return values.size == 1 and bool(values.reshape(-1)[0])


def _reads(g: onnx.GraphProto, name: str) -> list[onnx.NodeProto]:
    """The nodes of ``g`` (and of graphs nested in it, as the node holding them) that read ``name``."""

    def inside(h: onnx.GraphProto) -> bool:
        return any(name in n.input or any(inside(s) for s in subgraphs(n)) for n in h.node)

    return [n for n in g.node if name in n.input or any(inside(s) for s in subgraphs(n))]


def cond_always_true(body: onnx.GraphProto) -> bool:
    """Whether ``body``'s condition output is true in every iteration whatever the Loop's ``cond`` is
    (given true, or left out), and no other value depends on the condition input: the output is the
    condition input itself or an Identity of it, or a Constant true whose name no other node writes."""
    if len(body.input) < 2 or not body.output:
        return False
    c_in, c_out = body.input[1].name, body.output[0].name
    readers = _reads(body, c_in)
    if c_out == c_in:
        return not readers
    producer = next((n for n in body.node if c_out in n.output), None)
    if producer is None or not is_default_domain(producer):
        return False
    if producer.op_type == "Identity" and list(producer.input) == [c_in]:
        return readers == [producer] and sum(1 for o in body.output if o.name == c_out) == 1
    if producer.op_type == "Constant" and not readers:
        t = next((a.t for a in producer.attribute if a.name == "value" and a.HasField("t")), None)
        return t is not None and _static_true(t)
    return False


def _loops(model: onnx.ModelProto):
    for i, n in enumerate(model.graph.node):
        body = next((a.g for a in n.attribute if a.name == "body"), None)
        if n.op_type == "Loop" and is_default_domain(n) and body is not None and len(n.input) >= 2 and n.input[0]:
            yield i, n, body


def cond_given(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """``Loop(M, "")`` whose body keeps its condition true → ``Loop(M, true)``."""
    import onnx
    from onnx import helper

    taken, sites = all_names(model), []
    for i, n, body in _loops(model):
        if n.input[1] or not cond_always_true(body) or not chosen(only, node_label(n, i)):
            continue
        t = helper.make_tensor(fresh_name(taken, f"{n.name or 'loop'}_cond_true"), onnx.TensorProto.BOOL, [], [True])
        model.graph.initializer.append(t)
        n.input[1] = t.name
        sites.append(node_label(n, i))
    return sites


def cond_omitted(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """``Loop(M, c)`` with ``c`` a static true whose body keeps its condition true → ``Loop(M, "")``."""
    loops, static = {i: body for i, _n, body in _loops(model)}, static_tensors(model.graph)

    def omit(i: int, n: onnx.NodeProto) -> list[str] | None:
        c = n.input[1] if i in loops else ""
        if not c or c not in static or not _static_true(static[c]) or not cond_always_true(loops[i]):
            return None
        n.input[1] = ""
        return [c]

    return edit_sites(model.graph, only, omit)


REWRITES = (
    Rewrite(
        "loop-cond-given",
        'Loop(M, "") whose body keeps its condition true → Loop(M, true) (a fresh bool initializer)',
        cond_given,
        inverse="loop-cond-omitted",
    ),
    Rewrite(
        "loop-cond-omitted",
        'Loop(M, true) whose body keeps its condition true → Loop(M, "")',
        cond_omitted,
        inverse="loop-cond-given",
    ),
)

FREEDOMS = (
    Freedom(
        "loop-cond-omitted-or-true",
        "optional and variadic slots",
        'Operators.md Loop-1/11/13/16/19/21 (M and cond optional; M given with cond "" is a for loop whose body '
        "condition is ignored)",
        "A Loop with a trip count whose body keeps its condition true may leave cond out or give it as a constant "
        "true: both run the body M times.",
        ("loop-cond-given", "loop-cond-omitted"),
        "main-graph Loop nodes with M given whose body condition output is the condition input (directly or "
        "through an Identity) or a Constant true, the condition input read by nothing else; the given spelling "
        "is a fresh bool scalar initializer, the omitted one drops a static true (initializer or Constant)",
    ),
)
