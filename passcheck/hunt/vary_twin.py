"""The twin neighbour: the base's computation a second time, on an input of another size, every constant shared.

IR.md ("Graphs", "Nodes") lets any number of nodes read one value, an initializer or a Constant's output included;
nothing in the spec ties a constant to one reader. A pass that rewrites a constant for the match it found and
writes the result under the constant's own name (onnxscript's rules creating ``op.initializer(…, name=…)``, an
onnxruntime transformer editing an initializer in place) is right only while that match is the constant's one
reader. A graph computing the same thing twice on inputs of different sizes gives each such constant a second
reader that resolves it differently (a ``-1`` of a Reshape shape, a broadcast, a slice end past the dim).

Kind ``twin`` (site ``<input>=<axis>``, a graph input and one of its axes whose dim is static or a ``dim_param``):
the site's dim is doubled, ``Concat(x, x, axis)`` (Operators.md Concat-4+: the inputs agree except on ``axis``),
in every graph input that holds that dim (the same ``dim_param`` at any axis; the same static value at the same
axis index), so inputs that share a size keep sharing it. Every node whose result depends on a doubled input is
copied (outputs and node names ``<name>__twin``), reading the doubled inputs and the copies' results; every other
value, initializers, Constant outputs and values computed from constants alone, is read by both copies under
its one name. Each graph output the copy computes is appended as ``<name>__twin`` (element type and rank; the
dims onnx shape inference states, else none). The base's inputs and outputs keep their names and places.

Sites are left out where a copied node holds a graph attribute (a body reading an outer value could not be told
to read the copy's) or a graph input is not a tensor of known rank. The variation gate (:mod:`.vary_probe`) drops
a twin that does not run (a shared constant fixing the doubled dim: a Reshape to a full static shape).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from passcheck.hunt.value_names import fresh, graph_names
from passcheck.runtime import isolated_tools
from passcheck.runtime.graph_index import scoped

if TYPE_CHECKING:
    import onnx

KIND = "twin"
KINDS = (KIND,)
SUFFIX = "__twin"


def is_kind(kind: str) -> bool:
    """Whether ``kind`` (without the ``vary:`` prefix) is this module's."""
    return kind == KIND


def _dims(vi) -> list | None:
    t = vi.type
    if not t.HasField("tensor_type") or not t.tensor_type.HasField("shape"):
        return None
    return list(t.tensor_type.shape.dim)


def _inputs(model: onnx.ModelProto) -> list:
    """The graph inputs no initializer gives a value (IR.md: an initializer of the same name is a default)."""
    inits = {t.name for t in model.graph.initializer}
    return [vi for vi in model.graph.input if vi.name not in inits]


def doubled(model: onnx.ModelProto, site: str) -> dict[str, list[int]] | None:
    """Graph input → the axes the twin of ``site`` doubles in it (module docs), or None when ``site`` is no site."""
    name, _, axis_text = site.rpartition("=")
    ins = {vi.name: _dims(vi) for vi in _inputs(model)}
    dims = ins.get(name)
    if dims is None or not axis_text.lstrip("-").isdigit() or not 0 <= int(axis_text) < len(dims):
        return None
    a = int(axis_text)
    d = dims[a]
    out: dict[str, list[int]] = {}
    if d.HasField("dim_param") and d.dim_param:
        for n, ds in ins.items():
            axes = [i for i, e in enumerate(ds or []) if e.HasField("dim_param") and e.dim_param == d.dim_param]
            if axes:
                out[n] = axes
    elif d.HasField("dim_value") and d.dim_value >= 1:
        for n, ds in ins.items():
            if ds is not None and a < len(ds) and ds[a].HasField("dim_value") and ds[a].dim_value == d.dim_value:
                out[n] = [a]
    return out or None


def _copied(model: onnx.ModelProto, seeds: set[str]) -> list[int]:
    """Indexes of the main-graph nodes whose result depends on a value of ``seeds`` (the graph is sorted)."""
    tainted = set(seeds)
    out = []
    for i, n in enumerate(model.graph.node):
        if any(v in tainted for v in n.input if v):
            out.append(i)
            tainted.update(o for o in n.output if o)
    return out


def candidates(model: onnx.ModelProto) -> Iterator[tuple[str, str]]:
    """(kind, site) of every twin of ``model`` (module docs)."""
    for vi in _inputs(model):
        dims = _dims(vi)
        if dims is None or not vi.type.tensor_type.elem_type:
            continue
        for a, d in enumerate(dims):
            site = f"{vi.name}={a}"
            if (d.HasField("dim_param") and d.dim_param) or (d.HasField("dim_value") and d.dim_value >= 1):
                if _applies(model, site):
                    yield KIND, site


def _applies(model: onnx.ModelProto, site: str) -> bool:
    axes = doubled(model, site)
    if axes is None:
        return False
    nodes = [model.graph.node[i] for i in _copied(model, set(axes))]
    outs = {o.name for o in model.graph.output}
    if any(scoped(n) for n in nodes):
        return False
    return any(o in outs for n in nodes for o in n.output)


def added(model: onnx.ModelProto, site: str) -> int:
    """How many graph outputs the twin of ``site`` appends to ``model`` (0 when ``site`` is no site)."""
    axes = doubled(model, site)
    if axes is None:
        return 0
    made = {o for i in _copied(model, set(axes)) for o in model.graph.node[i].output}
    return sum(1 for o in model.graph.output if o.name in made)


def build(model: onnx.ModelProto, site: str) -> bool:
    """Change ``model`` in place into the twin of ``site``; False when ``site`` is no site of it."""
    import onnx
    from onnx import helper

    if not _applies(model, site):
        return False
    axes = doubled(model, site)
    assert axes is not None
    g = model.graph
    taken = graph_names(model)
    renamed: dict[str, str] = {}
    front = []
    for name, ax in axes.items():
        cur = name
        for a in ax:
            nxt = fresh(f"{name}{SUFFIX}" if cur == name else f"{cur}_{a}", taken)
            concat = fresh(f"Concat{SUFFIX}_{nxt}", taken)
            front.append(helper.make_node("Concat", [cur, cur], [nxt], name=concat, axis=a))
            cur = nxt
        renamed[name] = cur
    copies = copy_nodes([g.node[i] for i in _copied(model, set(axes))], renamed, taken, SUFFIX)
    nodes = list(g.node)
    del g.node[:]
    g.node.extend(front + nodes + copies)  # the Concats read graph inputs only: first keeps the order sorted
    types = _inferred(model)
    for o in list(g.output):
        if o.name in renamed:
            t = onnx.TypeProto()
            known = renamed[o.name] in types
            t.CopyFrom(types[renamed[o.name]] if known else o.type)
            if t.HasField("tensor_type") and t.tensor_type.HasField("shape"):
                for d in t.tensor_type.shape.dim:
                    if not known or not d.HasField("dim_value"):
                        d.Clear()
            g.output.append(helper.make_value_info(renamed[o.name], t))
    return True


def copy_nodes(nodes: list[onnx.NodeProto], renamed: dict[str, str], taken: set[str], suffix: str) -> list:
    """Copies of ``nodes`` (graph order) that read each other's copies: every output renamed ``<name><suffix>``
    (fresh in ``taken``, recorded in ``renamed``), every input found in ``renamed`` read under its new name, the
    rest (constants, values computed without the copies) under its own; a named node's copy ``<name><suffix>``.
    Attributes, domain and doc string are the original's."""
    import onnx

    copies = []
    for n in nodes:
        c = onnx.NodeProto()
        c.CopyFrom(n)
        for k, v in enumerate(c.output):
            if v:
                renamed[v] = fresh(f"{v}{suffix}", taken)
                c.output[k] = renamed[v]
        for k, v in enumerate(c.input):
            if v in renamed:
                c.input[k] = renamed[v]
        if c.name:
            c.name = fresh(f"{c.name}{suffix}", taken)
        copies.append(c)
    return copies


def _inferred(model: onnx.ModelProto) -> dict:
    """Value name → TypeProto as onnx shape inference infers them on a copy of ``model`` (empty when it fails)."""
    try:
        done = isolated_tools.infer_shapes(model)
    except Exception:  # noqa: BLE001 - no inferred type: the appended outputs keep the base's
        return {}
    return {vi.name: vi.type for vi in [*done.graph.value_info, *done.graph.output]}
