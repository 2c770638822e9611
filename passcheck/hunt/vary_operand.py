"""A neighbour whose node reads a constant operand as a computed value, produced just before it and annotated.

IR.md ("Graphs", "Names Within a Graph") lets any node input be a node's output as well as an initializer, and asks
of the node list only a topological order: a producer may be listed anywhere before its reader, after nodes it does
not depend on. IR.md ("Graphs": ``value_info``) lets a model state any intermediate's type. A pass that moves or
replaces a node that reads several values must place what it writes after the producer of *each* operand; the bases
give every fused pair's constant operand (a bias, a scale) as an initializer, which is known before every node, so
a pass that inserts its result where the first matched node stood was never wrong on them. Passes also read a
stated type: onnxoptimizer's fusions read an operand's shape only where it is annotated.

Form id ``vary:operand-computed@<node>=<index>`` (:mod:`.variation`; the node as named on
:func:`~passcheck.mutations.forms.named`'s copy):

=====================  =========================================================================================
kind (site)            change
=====================  =========================================================================================
``operand-computed``   input ``index`` of ``node``, an initializer, is read through ``Identity`` (Operators.md
(``<node>=<index>``)   Identity: its output equals its input, every type): the Identity is inserted in the node
                       list right before ``node`` (after every other producer the node reads), its output
                       ``<initializer>__computed`` annotated in ``value_info`` with the initializer's element
                       type and dims. Values, the interface and the feeds are the base's
=====================  =========================================================================================

Sites: each input slot of a main-graph node that reads an initializer (no graph input of the same name: an
overridable default is already a run-time value) while the same node also reads a computed value (a node's output
or a fed graph input): the operand a fusion joins to the rest of the graph. A Constant node's output is not a site
(it is a node already). A pass that constant-folds or eliminates the Identity gives the base back; that costs a
gate run, no finding.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from passcheck.hunt.value_names import fresh, graph_names

if TYPE_CHECKING:
    import onnx

KIND = "operand-computed"
KINDS = (KIND,)
SUFFIX = "__computed"


def is_kind(kind: str) -> bool:
    """Whether ``kind`` (without the ``vary:`` prefix) is this module's."""
    return kind == KIND


def candidates(model: onnx.ModelProto) -> Iterator[tuple[str, str]]:
    """(kind, ``<node>=<index>``) of every site of ``model`` (the node-named copy), in node and input order (see
    module docs)."""
    inputs = {v.name for v in model.graph.input}
    inits = {t.name for t in model.graph.initializer if t.name not in inputs}
    for node in model.graph.node:
        if not node.name or not any(v and v not in inits for v in node.input):
            continue
        for i, v in enumerate(node.input):
            if v in inits:
                yield KIND, f"{node.name}={i}"


def operand(model: onnx.ModelProto, site: str) -> list[str]:
    """The initializer ``site``'s slot reads in ``model`` (node-named); [] when ``site`` is no site of it."""
    if (KIND, site) not in set(candidates(model)):
        return []
    node_name, _, index = site.rpartition("=")
    return [next(n for n in model.graph.node if n.name == node_name).input[int(index)]]


def build(model: onnx.ModelProto, site: str) -> bool:
    """``model`` (node-named) changed in place as ``operand-computed@site`` says; False when ``site`` is not one."""
    from onnx import helper

    if not (read := operand(model, site)):
        return False
    node_name, _, index = site.rpartition("=")
    at = next(i for i, n in enumerate(model.graph.node) if n.name == node_name)
    init = next(t for t in model.graph.initializer if t.name == read[0])
    taken = graph_names(model)
    out = fresh(f"{init.name}{SUFFIX}", taken)
    ident = helper.make_node("Identity", [init.name], [out], name=fresh(f"Identity_{out}", taken))
    model.graph.node.insert(at, ident)
    model.graph.node[at + 1].input[int(index)] = out
    model.graph.value_info.append(helper.make_tensor_value_info(out, init.data_type, list(init.dims)))
    return True
