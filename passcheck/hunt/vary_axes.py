"""The axes-group neighbours: every reduction of one connected pattern moved to another axis together, or spelt
with the other sign together (round 9e, M91).

Operators.md ReduceMean / ReduceSum / ReduceMax … (every ``Reduce*``): ``axes`` (an attribute before ReduceMean-18,
ReduceSum-13 …; input 1 since) lists the axes reduced, each in ``[-r, r-1]`` where ``r`` is the rank of the data
input, a negative axis counting from the back; with ``keepdims`` 1 (the default) each reduced axis stays with size
1, so every elementwise reader of the result broadcasts it back along that axis (Broadcasting.md). A decomposed
norm is such a pattern: ``ReduceMean(x) … Sub … Pow … ReduceMean … Add … Sqrt … Div`` (layer norm), ``Pow …
ReduceMean … Add … Sqrt … Div`` (RMS norm); its two reductions must name the same axes or it is no norm at all.
Torch exports normalize over the last axis, so every base reduces over ``[-1]``; a norm over the channel axis of an
NCHW tensor (``axes=[1]``) is as valid, and a fusion that reads the pattern but not its axes (docs/found.md rows
500, 570, 571) is wrong only there. A neighbour changing one node's axes breaks the pattern (the second reduction
no longer matches the first), so the unit is the *group*: the ``Reduce*`` nodes of the main graph that reduce the
same axes of data of the same rank and lie on one directed path of the graph (one reads what the other computes,
directly or not).

Kinds (site ``<first node of the group>=<axes>``, axes ``,``-joined as written into every node of the group):

- ``axes-move``: the group reduces another single axis ``a`` (a group of one axis, each other axis of the data whose
  static dim is not 1, written as ``a`` ≥ 0); every node has ``keepdims`` 1, so each output keeps the rank and every
  reader broadcasts it (not equivalent: another computation). Annotations inferred anew.
- ``axes-sign``: the group's axes in the other spelling (``-1`` ↔ ``r-1``), the same computation by the schema's
  ``[-r, r-1]`` range; equivalent (judged as a pair with its base too).

Axes given as an input are written as a new initializer the group's nodes read (an initializer read elsewhere stays
as it was); an ``axes`` attribute is replaced in place.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import onnx

MOVE = "axes-move"
SIGN = "axes-sign"
KINDS = (MOVE, SIGN)


def is_kind(kind: str) -> bool:
    """Whether ``kind`` (no ``vary:`` prefix) is one of this module's."""
    return kind in KINDS


def _is_reduce(node) -> bool:
    return node.op_type.startswith("Reduce") and node.domain in ("", "ai.onnx")


def _attr(node, name: str):
    from onnx import helper

    return next((helper.get_attribute_value(a) for a in node.attribute if a.name == name), None)


def _axes(node, consts) -> list[int] | None:
    """The axes ``node`` names as written (attribute or constant input 1), or None (none given: every axis, or not
    constant)."""
    got = _attr(node, "axes")
    if got is not None:
        return [int(a) for a in got]
    if len(node.input) > 1 and node.input[1]:
        arr = consts.get(node.input[1])
        return None if arr is None else [int(a) for a in arr.reshape(-1)]
    return None


def _dims(name: str, shapes) -> list | None:
    t = shapes.get(name)
    if t is None or not t.HasField("tensor_type") or not t.tensor_type.HasField("shape"):
        return None
    return [d.dim_value if d.HasField("dim_value") else None for d in t.tensor_type.shape.dim]


def groups(model: onnx.ModelProto, shapes) -> list[tuple[list, list[int], list | None]]:
    """The groups of ``model`` (module docs): (nodes in graph order, the normalized axes, the data's dims with None
    for a dim of no static value). ``shapes``: value name → TypeProto (:func:`.variation._inferred`)."""
    from passcheck.hunt.graph_values import constants

    consts = constants(model)
    found = []
    for n in model.graph.node:
        if not _is_reduce(n) or not n.input:
            continue
        axes, dims = _axes(n, consts), _dims(n.input[0], shapes)
        if not axes or dims is None or not all(-len(dims) <= a < len(dims) for a in axes):
            continue
        found.append((n, sorted({a % len(dims) for a in axes}), dims))
    reach = _reach(model)
    parent = list(range(len(found)))

    def root(i: int) -> int:
        while parent[i] != i:
            i = parent[i]
        return i

    for i, (a, ax_a, d_a) in enumerate(found):
        for j in range(i + 1, len(found)):
            b, ax_b, d_b = found[j]
            if ax_a == ax_b and len(d_a) == len(d_b) and (b.name in reach[a.name] or a.name in reach[b.name]):
                parent[root(j)] = root(i)
    out: dict[int, list] = {}
    for i in range(len(found)):
        out.setdefault(root(i), []).append(i)
    return [([found[i][0] for i in idx], found[idx[0]][1], found[idx[0]][2]) for idx in out.values()]


def _reach(model: onnx.ModelProto) -> dict[str, set[str]]:
    """Node name → the names of the main-graph nodes reading, directly or not, what it computes."""
    readers: dict[str, list] = {}
    for n in model.graph.node:
        for x in n.input:
            readers.setdefault(x, []).append(n)
    out: dict[str, set[str]] = {}
    for n in reversed(model.graph.node):  # graph order is topological: a reader's set is known before
        got: set[str] = set()
        for y in n.output:
            for r in readers.get(y, ()):
                got |= {r.name} | out.get(r.name, set())
        out[n.name] = got
    return out


def candidates(model: onnx.ModelProto, shapes) -> Iterator[tuple[str, str]]:
    """(kind, site) of every axes-group neighbour of ``model`` (module docs); nodes named as
    :func:`passcheck.mutations.forms.named` names them."""
    consts = None
    for nodes, axes, dims in groups(model, shapes):
        r = len(dims)
        if consts is None:
            from passcheck.hunt.graph_values import constants

            consts = constants(model)
        written = _axes(nodes[0], consts) or []
        other = [a - r if a >= 0 else a + r for a in written]
        yield SIGN, f"{nodes[0].name}={','.join(map(str, other))}"
        if len(axes) == 1 and all(_attr(n, "keepdims") in (None, 1) for n in nodes):
            for a in range(r):
                if a != axes[0] and dims[a] != 1:
                    yield MOVE, f"{nodes[0].name}={a}"


def build(model: onnx.ModelProto, kind: str, site: str, shapes) -> bool:
    """Change ``model`` in place into the neighbour ``kind@site``; False when ``site`` is no site of it."""
    import numpy as np
    from onnx import helper, numpy_helper

    from passcheck.hunt.value_names import fresh, graph_names

    name, _, text = site.rpartition("=")
    try:
        axes = [int(a) for a in text.split(",")]
    except ValueError:
        return False
    if (kind, site) not in set(candidates(model, shapes)):
        return False
    nodes = next(g for g, _, _ in groups(model, shapes) if g[0].name == name)
    shared = None
    for n in nodes:
        if _attr(n, "axes") is not None:
            kept = [a for a in n.attribute if a.name != "axes"]
            del n.attribute[:]
            n.attribute.extend([*kept, helper.make_attribute("axes", axes)])
            continue
        if shared is None:
            shared = fresh(f"{n.input[1]}__{kind.replace('-', '_')}", graph_names(model))
            model.graph.initializer.append(numpy_helper.from_array(np.array(axes, dtype=np.int64), shared))
        n.input[1] = shared
    return True
