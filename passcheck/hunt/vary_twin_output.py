"""Output-twin neighbours: one graph output computed a second time by copies of its nodes that share every constant.

IR.md ("Graphs", "Names within a graph") lets any number of nodes read one initializer or Constant output, and
exported models do so wherever a module is called twice (the same weights on two inputs). A pass that rewrites
a matched node's constant in place, or writes its result under that constant's name, is only right when no
other node reads it: onnxruntime states the condition in its own sources
(``graph_utils::IsInitializer`` / ``CanUpdateImplicitInputNameInSubgraphs``, a fused initializer given a fresh
name), onnxscript's rewriter checks a value's uses before it replaces it. A base reads each of its constants
from one place, so no pass meets a second match of the same pattern on the same constants; the twin gives it
one, on the same inputs (:mod:`.vary_twin` gives it one on an input of another size). The numeric oracle
then sees a pass that changed a shared constant for one match (both outputs computed
from the new values) and the validity oracle one that left a reader on a value it removed.

Form ids use the variation grammar ``vary:<kind>@<site>`` (:mod:`.variation`), site: a main-graph output name:

==============  ==========================================================================================
kind            change
==============  ==========================================================================================
``twin-output`` every node the output depends on that reads a graph input (directly or through another such
                node) copied once, each copy reading the copies of its producers and the same constants
                (initializers, Constant outputs, values computed from constants alone) as its original; the
                copy of the output (``<output>__twin_out``, the output's declared type) appended as a graph output
==============  ==========================================================================================

Sites are the main-graph outputs computed from at least one graph input and one constant (nothing to share
otherwise), none of whose copied nodes holds a graph attribute (a subgraph's outer-scope names would need the
copies' names), is a Constant or draws random values (two draws differ). The copy computes what the output
computes, so the appended output is judged against the unoptimized neighbour like any output (the interface rule
of :mod:`.vary_struct`: one graph output more).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.hunt.value_names import graph_names
from passcheck.hunt.vary_twin import copy_nodes
from passcheck.runtime.graph_index import scoped

if TYPE_CHECKING:
    from collections.abc import Iterator

    import onnx

KIND = "twin-output"
KINDS = (KIND,)
SUFFIX = "__twin_out"


def is_kind(kind: str) -> bool:
    """Whether ``kind`` (without the ``vary:`` prefix) is this module's."""
    return kind in KINDS


def candidates(model: onnx.ModelProto) -> Iterator[tuple[str, str]]:
    """(kind, site) of every twin neighbour of ``model`` (see module docs)."""
    for out in model.graph.output:
        if _cone(model, out.name) is not None:
            yield KIND, out.name


def build(model: onnx.ModelProto, kind: str, site: str) -> bool:
    """Append ``site``'s twin to ``model`` in place; False when ``site`` is no site of it (see module docs)."""
    cone = _cone(model, site) if is_kind(kind) else None
    if cone is None:
        return False
    g = model.graph
    renamed: dict[str, str] = {}
    g.node.extend(copy_nodes(cone, renamed, graph_names(model), SUFFIX))
    declared = next(o for o in g.output if o.name == site)
    twin = g.output.add()
    twin.CopyFrom(declared)
    twin.name = renamed[site]
    return True


def added(kind: str, site: str) -> int:
    """How many graph outputs the neighbour ``kind@site`` appends (0 for other kinds)."""
    return 1 if is_kind(kind) and site else 0


def _cone(model: onnx.ModelProto, output: str) -> list[onnx.NodeProto] | None:
    """The nodes ``output`` depends on that depend on a graph input, in graph order; None when it is no site."""
    g = model.graph
    inits = {t.name for t in g.initializer}
    inputs = {i.name for i in g.input} - inits
    varying: set[str] = set(inputs)
    producer: dict[str, onnx.NodeProto] = {}
    for n in g.node:
        if any(v in varying for v in n.input if v):
            varying.update(o for o in n.output if o)
        for o in n.output:
            producer[o] = n
    if output not in varying or output not in producer:
        return None
    needed, stack, shares = set(), [output], False
    while stack:
        v = stack.pop()
        n = producer.get(v)
        if n is None or id(n) in needed or v not in varying:
            shares |= v not in varying and bool(v)
            continue
        needed.add(id(n))
        stack.extend(n.input)
    cone = [n for n in g.node if id(n) in needed]
    from passcheck.mutations.function_bodies import RANDOM

    bad = any(n.op_type == "Constant" or n.op_type in RANDOM or scoped(n) for n in cone)
    return None if bad or not shares else cone
