"""A read neighbour right after each read initializer: ``y = Expand(y', n)``, ``n = int64[1] [1]`` placed in the
initializer list just after the initializer it neighbours.

IR.md §Graphs: ``initializer`` is a list of named constants with no meaning in its order and no bound on its length;
a pass that removes or replaces one entry (a version-converter adapter turning an input into an attribute, a
constant folder, a deduplicator) must leave the others as they were. Operators.md Expand-8/13: the output is the
input broadcast with ``shape``; Broadcasting.md, a shape of ``[1]`` against a tensor of rank >= 1 gives that tensor's
shape, so ``Expand(y', [1])`` is ``y'`` for every element type Expand takes.

The generated bases hold one initializer (the input the base moves out of an attribute), so no entry ever followed
the one a pass consumed, and a pass whose removal disturbs the entry after it (onnx's converter IR erasing an
initializer by a name that aliases its own storage: the next entry, moved into the slot, is the one then unlinked)
met it only where a neighbour or a composition happened to append an initializer. Each site gets its own
neighbour, read by its own Expand, all chained on one graph output, so every neighbour stays live whatever a pass
removes.

Sites: main-graph initializers that are not graph inputs (IR >= 4), not external data, read by a main-graph node;
only at opset >= 8 and where some main-graph output of known rank >= 1 is written by a default-domain main-graph
node (the first such output carries the chain; it keeps its name and declared type). Labels: initializer names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations import _base
from passcheck.mutations._base import Rewrite
from passcheck.mutations._freedom import Freedom
from passcheck.mutations._graph_edit import protected, splice
from passcheck.mutations._schema_types import accepts
from passcheck.mutations._shapes import known

if TYPE_CHECKING:
    import onnx

#: Expand's first version.
FIRST_OPSET = 8
#: Before IR 4 every initializer is also a graph input.
FIRST_IR = 4


def _carrier(model: onnx.ModelProto, version: int) -> tuple[int, str] | None:
    """(producer index, name) of the first main-graph output of known rank >= 1 that a default-domain
    main-graph node writes and Expand takes at ``version``; None when there is none."""
    g = model.graph
    types = known(model)
    producer = {o: i for i, n in enumerate(g.node) if _base.is_default_domain(n) for o in n.output if o}
    for out in g.output:
        k = types.get(out.name)
        if out.name in producer and k is not None and k.rank and accepts("Expand", version, k.elem_type):
            return producer[out.name], out.name
    return None


def neighbours(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Each site initializer ``c`` (``only``: those names) → ``c`` followed in the initializer list by a fresh
    ``int64[1]`` ``[1]`` that an ``Expand`` on the carrier output reads; the names changed, in list order."""
    import onnx

    g, version = model.graph, _base.opset(model)
    if model.ir_version < FIRST_IR or version < FIRST_OPSET:
        return []
    fixed = protected(g) | {v.name for v in g.input}
    read = {x for n in g.node for x in n.input if x}
    sites = [
        t.name
        for t in g.initializer
        if t.name in read and t.name not in fixed and t.data_location != onnx.TensorProto.EXTERNAL
    ]
    sites = [s for s in sites if _base.chosen(only, s)]
    carrier = _carrier(model, version) if sites else None
    if carrier is None:
        return []
    index, out = carrier
    taken = _base.all_names(model)
    made: dict[str, onnx.TensorProto] = {}
    for s in sites:
        made[s] = onnx.helper.make_tensor(_base.fresh_name(taken, f"{s}_neighbour"), onnx.TensorProto.INT64, [1], [1])
    entries = []
    for t in g.initializer:
        entries.append(t)
        if t.name in made:
            entries.append(made[t.name])
    copies = [type(t)() for t in entries]
    for new, old in zip(copies, entries, strict=True):
        new.CopyFrom(old)
    del g.initializer[:]
    g.initializer.extend(copies)
    pre = _base.fresh_name(taken, f"{out}_pre")
    node = g.node[index]
    node.output[:] = [pre if o == out else o for o in node.output]
    _base.redirect_reads(g, _base.consumers(g).get(out, ()), out, pre)
    chain, last = [], pre
    for i, s in enumerate(sites):
        nxt = out if i == len(sites) - 1 else _base.fresh_name(taken, f"{out}_expand")
        name = _base.fresh_name(taken, f"{nxt}_node")
        chain.append(onnx.helper.make_node("Expand", [last, made[s].name], [nxt], name=name))
        last = nxt
    splice(g, replace={index: [node, *chain]})
    return sites


REWRITES = (
    Rewrite(
        "initializer-neighbours",
        "each read initializer c → c followed in the list by an int64[1] [1] read by Expand(y', ·) on a graph output",
        neighbours,
        detail="initializers",
    ),
)

FREEDOMS = (
    Freedom(
        "initializer-list-neighbours",
        "initializers",
        "IR.md §Graphs (initializer: a list of named constants, order and length free); Operators.md Expand-8/13 "
        "and Broadcasting.md (a shape of [1] leaves a tensor of rank >= 1 as it is)",
        "An initializer a pass consumes may have other initializers, read by other nodes, right after it in the "
        "list; a pass that removes or replaces one entry must leave its neighbours and their readers as they were.",
        ("initializer-neighbours",),
        "main-graph initializers read by a main-graph node, not graph inputs (IR >= 4), not external data; opset "
        ">= 8 and a main-graph output of known rank >= 1 written by a default-domain node (it carries the Expands)",
    ),
)
