"""Where a value-preserving step goes in a main graph: one value (all its readers) or one edge (one reader).

Shared by the rewrites that put nodes computing x from x on a value (:mod:`.neutral_ops`,
:mod:`.cast_round_trip`). Sites are the values of :mod:`passcheck.mutations.neutral` (graph inputs read by a
main-graph node, node outputs read by a node or a graph output, never values computed from constants alone).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from passcheck.mutations._base import all_names, fresh_name, is_default_domain, node_label, opset
from passcheck.mutations._graph_edit import set_nodes
from passcheck.mutations._shapes import known
from passcheck.mutations.neutral import Namer, _constant_values

if TYPE_CHECKING:
    import onnx

    from passcheck.mutations._shapes import Known


def insert(
    model: onnx.ModelProto, ops: Sequence[tuple[str, Callable]], only: frozenset[str] | None = None
) -> list[str]:
    """Each site → the step ``NAME`` of ``ops`` ((name, step) pairs; a step maps ``(x, Known, opset, Namer)`` to
    the nodes computing x anew from x, the last one's first output the result, or None where it does not
    fit) on that value or edge; with ``only`` None, every fitting step on every value and every edge,
    chained in ``ops`` order. The labels changed, in model order.

    Sites: ``VALUE:NAME`` (the op between the value and all its readers; a graph output keeps its name)
    and, for a value read by more than one node or also a graph output, ``VALUE->READER:NAME`` (the op on
    the edge into that one reader, ``READER`` its node label: the other readers keep reading the value).
    The ops follow the value's producer (graph inputs: the graph's first nodes)."""
    names_ = tuple(name for name, _ in ops)
    g = model.graph
    version, types = opset(model), known(model)
    taken = all_names(model)
    static = _constant_values(g)
    outputs = {o.name for o in g.output}
    readers: dict[str, list[int]] = {}
    for i, n in enumerate(g.node):
        for x in dict.fromkeys(n.input):
            if x:
                readers.setdefault(x, []).append(i)
    values = [i.name for i in g.input if i.name not in static and i.name in readers]
    values += [
        o
        for n in g.node
        if is_default_domain(n)  # a custom op's outputs are typed by no schema once renamed
        for o in n.output
        if o and o not in static and (o in readers or o in outputs)
    ]
    labels: list[str] = []
    front: list = []
    after: dict[int, list] = {}  # node index → nodes placed right after it
    producer = {o: i for i, n in enumerate(g.node) for o in n.output if o}

    def chain(v: str, prefix: str):
        k = types.get(v)
        if k is None or not k.elem_type:
            return None
        picked = [j for j, name in enumerate(names_) if only is None or f"{prefix}:{name}" in only]
        applied: list[int] = []
        made = _chain_steps([ops[j][1] for j in picked], v, k, version, Namer(taken, v), applied)
        if made is not None:
            labels.extend(f"{prefix}:{names_[picked[j]]}" for j in applied)
        return made

    for v in dict.fromkeys(values):
        current = v  # what v's readers read once its value chain is in
        if (made := chain(v, v)) is not None:
            nodes, last = made
            if v in producer:
                i = producer[v]
                pre = fresh_name(taken, f"{v}_pre")
                n = g.node[i]
                n.output[:] = [pre if o == v else o for o in n.output]
                for m in nodes:
                    m.input[:] = [pre if x == v else x for x in m.input]
                nodes[-1].output[0] = v  # readers and graph outputs keep the name
                after.setdefault(i, []).extend(nodes)
            else:  # a graph input: the chain comes first and its readers read the chain
                front.extend(nodes)
                current = last
                for i in readers[v]:
                    n = g.node[i]
                    n.input[:] = [last if x == v else x for x in n.input]
        if len(readers.get(v, ())) + (v in outputs) < 2:
            continue
        for i in readers[v]:
            reader = g.node[i]
            if (made := chain(v, f"{v}->{node_label(reader, i)}")) is None:
                continue
            nodes, last = made
            for m in nodes:
                m.input[:] = [current if x == v else x for x in m.input]
            reader.input[:] = [last if x == current else x for x in reader.input]
            if v in producer:  # right after the value (and its value chain), as an exporter writes it
                after.setdefault(producer[v], []).extend(nodes)
            else:
                front.extend(nodes)
    if not labels:
        return []
    new = list(front)
    for i, n in enumerate(g.node):
        new.append(n)
        new.extend(after.get(i, []))
    set_nodes(g, new)
    return labels


def _chain_steps(steps, x: str, k: Known, version: int, names: Namer, applied: list[int]):
    """The nodes of every step that applies, each reading the previous one's output, and the last output;
    ``applied`` gets the indices of the steps that applied."""
    nodes, current = [], x
    for j, step in enumerate(steps):
        if made := step(current, k, version, names):
            nodes.extend(made)
            current = made[-1].output[0]
            applied.append(j)
    return (nodes, current) if nodes else None
