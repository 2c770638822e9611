"""Value and edge sites: where a rewrite puts new nodes that read one value, and their labels.

- A *value site* ``VALUE`` is a main-graph value read by a main-graph node or a graph output: a
  graph input (the nodes go first in the graph and its readers read their last output) or a
  default-domain node's output (the nodes go right after its producer, which writes a fresh name;
  the last node's last output takes the value's name, so readers and graph outputs are unchanged). A custom
  op's outputs are not sites: no schema types them once renamed. Values computed from constants
  only (:func:`constant_values`) are not sites either: nodes there are constant folding's work.
- An *edge site* ``VALUE->READER`` (``READER`` the reader's node label, ``#index:OpType`` when
  unnamed) is the value as one reader reads it, for a value read by more than one node or also a
  graph output: the nodes go between the value (after its value-site nodes, when both are chosen)
  and that reader, and the other readers keep reading the value.
- With *labelled steps*, each step may be a site of its own, ``SITE:NAME``; else the whole chain
  of steps is one site, labelled ``SITE``.

Only main-graph values whose element type shape inference knows; values read inside subgraphs keep
being read there unchanged. :func:`signature` is the site signature of such a label
(:func:`passcheck.mutations.sites.site_signatures`) with the inserted op among the value's readers.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from passcheck.mutations import _base
from passcheck.mutations._base import all_names, chosen, fresh_name, is_default_domain, node_label, opset
from passcheck.mutations._graph_edit import set_nodes
from passcheck.mutations._shapes import Known, known

if TYPE_CHECKING:
    import onnx

#: ``step(x, known, opset, names)`` → the nodes of one op on value ``x`` (the last one's last output
#: is the result: a node of several outputs may hand on a later one), or None where it does not apply
#: (the type, rank or opset does not fit).
Step = Callable[[str, Known, int, "Namer"], "list[onnx.NodeProto] | None"]
EDGE = "->"


class Namer:
    """Fresh value and node names for the nodes one site gets."""

    def __init__(self, taken: set[str], base: str) -> None:
        self.taken, self.base = taken, base

    def value(self, what: str) -> str:
        return fresh_name(self.taken, f"{self.base}_{what}")

    def node(self, op: str, inputs: list[str], out: str, **attrs) -> onnx.NodeProto:
        import onnx

        return onnx.helper.make_node(op, inputs, [out], name=fresh_name(self.taken, f"{out}_node"), **attrs)

    def constant(self, what: str, elem_type: int, values: list, dims: list[int]) -> tuple[str, onnx.NodeProto]:
        import onnx

        out = self.value(what)
        t = onnx.helper.make_tensor("", elem_type, dims, values)
        return out, self.node("Constant", [], out, value=t)


def constant_values(g: onnx.GraphProto) -> set[str]:
    """Values computed from constants only: initializers (graph inputs of that name included: in IR < 4
    models parameters are inputs too), Constant outputs, and outputs of nodes that read only such values."""
    found = {t.name for t in g.initializer} | set(_base.static_tensors(g))
    for n in g.node:
        if (n.op_type == "Constant" and is_default_domain(n)) or (n.input and all(x in found for x in n.input if x)):
            found.update(o for o in n.output if o)
    return found


def edge(value: str, reader: str) -> str:
    """The label of the edge site from ``value`` into the node labelled ``reader``."""
    return f"{value}{EDGE}{reader}"


def parse(label: str, names: Mapping[str, object] | None = None) -> tuple[str, str | None, str | None] | None:
    """(value, reader label or None, step name or None) of a site label; with ``names`` (step name → …),
    the label must end in ``:NAME`` with NAME one of them (else None)."""
    site, name = label, None
    if names is not None:
        site, sep, name = label.rpartition(":")
        if not sep or name not in names:
            return None
    value, arrow, reader = site.partition(EDGE)
    return value, (reader if arrow else None), name


def signature(label: str, signatures: Mapping[str, tuple], op_type: str) -> tuple | None:
    """The site signature of value or edge site ``label`` (no step name) with ``op_type`` inserted: the
    value's, its readers' op types with ``op_type`` among them (an edge: with the one reader's op type in
    place of all of them); None when ``signatures`` has no such value."""
    got = parse(label)
    sig = signatures.get(got[0]) if got else None
    if sig is None:
        return None
    readers = (signatures.get(got[1], ("", "", ""))[1],) if got[1] is not None else sig[2]
    return (sig[0], sig[1], tuple(sorted({*readers, op_type})))


def inserted(op_type: str) -> Callable[[str, Mapping[str, tuple]], tuple | None]:
    """A :attr:`~passcheck.mutations._base.Rewrite.site_signature` hook for a rewrite whose sites are value
    and edge sites (no step names) where it puts ``op_type`` first: :func:`signature` with it."""
    return lambda label, signatures: signature(label, signatures, op_type)


def insert(
    model: onnx.ModelProto,
    only: frozenset[str] | None,
    steps: Sequence[tuple[str, Step]],
    *,
    each: bool = False,
    edges: bool = False,
) -> list[str]:
    """Put ``steps`` (name, step), chained in order, on every value site (and with ``edges`` every edge
    site) of ``model`` in place, only at the labels in ``only`` (every site when None); the labels
    changed, in model order (each value's site, then its edges in reader order). While
    :data:`._base.LISTING` is set (:meth:`._base.Rewrite.sites` of a rewrite declared ``lists``), the same
    labels and nothing changed: the steps still decide where they apply, no node is placed (M211).

    ``each``: every step is a site of its own, ``SITE:NAME`` (the chosen ones at one site chained);
    else the whole chain is one site ``SITE``. A step that does not apply is left out of the chain."""
    g = model.graph
    version, types = opset(model), known(model)
    taken = all_names(model)
    static = constant_values(g)
    outputs = {o.name for o in g.output}
    readers: dict[str, list[int]] = {}
    for i, n in enumerate(g.node):
        for x in dict.fromkeys(n.input):
            if x:
                readers.setdefault(x, []).append(i)
    producer = {o: i for i, n in enumerate(g.node) for o in n.output if o}
    values = [i.name for i in g.input if i.name not in static and i.name in readers]
    values += [
        o
        for n in g.node
        if is_default_domain(n)
        for o in n.output
        if o and o not in static and (o in readers or o in outputs)
    ]
    labels: list[str] = []
    front: list = []
    after: dict[int, list] = {}  # node index → nodes placed right after it

    def chain(v: str, site: str) -> tuple[list, str] | None:
        k = types.get(v)
        if k is None or not k.elem_type:
            return None
        if each:
            picked = [(f"{site}:{name}", step) for name, step in steps if chosen(only, f"{site}:{name}")]
        else:
            picked = [(site, step) for _, step in steps] if chosen(only, site) else []
        nodes, current, applied = [], v, []
        names = Namer(taken, v)
        for label, step in picked:
            if made := step(current, k, version, names):
                nodes.extend(made)
                current = made[-1].output[-1]
                applied.append(label)
        if not nodes:
            return None
        labels.extend(dict.fromkeys(applied))
        return nodes, current

    if _base.LISTING.get():  # the labels only (Rewrite.sites): which chains apply, the graph left as it is
        for v in dict.fromkeys(values):
            chain(v, v)
            if edges and len(readers.get(v, ())) + (v in outputs) >= 2:
                for i in readers[v]:
                    chain(v, edge(v, node_label(g.node[i], i)))
        return labels
    for v in dict.fromkeys(values):
        current = v  # what v's readers read once its value-site nodes are in
        if (made := chain(v, v)) is not None:
            nodes, last = made
            if v in producer:
                i = producer[v]
                pre = fresh_name(taken, f"{v}_pre")
                n = g.node[i]
                n.output[:] = [pre if o == v else o for o in n.output]
                for m in nodes:
                    m.input[:] = [pre if x == v else x for x in m.input]
                nodes[-1].output[-1] = v  # readers and graph outputs keep the name
                after.setdefault(i, []).extend(nodes)
            else:
                front.extend(nodes)
                current = last
                for i in readers[v]:
                    g.node[i].input[:] = [last if x == v else x for x in g.node[i].input]
        if not edges or len(readers.get(v, ())) + (v in outputs) < 2:
            continue
        for i in readers[v]:
            reader = g.node[i]
            if (made := chain(v, edge(v, node_label(reader, i)))) is None:
                continue
            nodes, last = made
            for m in nodes:
                m.input[:] = [current if x == v else x for x in m.input]
            reader.input[:] = [last if x == current else x for x in reader.input]
            if v in producer:  # right after the value (and its value-site nodes), as an exporter writes it
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
