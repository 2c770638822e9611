"""Small graph edits the rewrites share: replacing the node list, int64 Constant nodes, values
that must keep their name, removing constants nothing reads any more, and the site loop of a
rewrite that edits main-graph nodes in place (:func:`edit_sites`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from passcheck.mutations._base import chosen, drop_unused, fresh_name, names_used_in_subgraphs, node_label

if TYPE_CHECKING:
    import onnx


def set_nodes(g: onnx.GraphProto, nodes: Iterable[onnx.NodeProto]) -> None:
    """Replace ``g``'s nodes by ``nodes`` (which may be the same protos, reordered or filtered)."""
    set_list(g.node, nodes)


def set_list(field, items: Iterable) -> None:
    """Replace the entries of a repeated message field by ``items`` (its own entries, reordered or filtered)."""
    items = list(items)
    del field[:]
    field.extend(items)


def protected(g: onnx.GraphProto) -> set[str]:
    """Values a rewrite may not rename or remove: graph outputs and names read by subgraphs."""
    return {o.name for o in g.output} | names_used_in_subgraphs(g)


def int64_constant(
    taken: set[str], base: str, values: Sequence[int], dims: Sequence[int] | None = None
) -> onnx.NodeProto:
    """A Constant node holding int64 ``values`` (1-D unless ``dims``), output and node names fresh from ``base``."""
    import onnx

    out = fresh_name(taken, base)
    t = onnx.helper.make_tensor("", onnx.TensorProto.INT64, [len(values)] if dims is None else list(dims), list(values))
    return onnx.helper.make_node("Constant", [], [out], name=fresh_name(taken, f"{out}_node"), value=t)


def edit_sites(
    g: onnx.GraphProto,
    only: frozenset[str] | None,
    edit: Callable[[int, onnx.NodeProto], Iterable[str] | None],
) -> list[str]:
    """The site loop of a rewrite that changes main-graph nodes in place: ``edit(i, n)`` for each node
    ``n`` (index ``i``) of ``g`` whose label ``only`` chooses (:func:`~passcheck.mutations._base.chosen`)
    either changes ``n`` and returns the names it stopped reading, or returns None, leaving ``n`` as it
    was (not a site). The freed names nothing reads any more are then removed
    (:func:`~passcheck.mutations._base.drop_unused`). Returns the labels of the nodes changed, in
    order, each as the node was before its edit."""
    sites, freed = [], set()
    for i, n in enumerate(g.node):
        label = node_label(n, i)
        if not chosen(only, label) or (names := edit(i, n)) is None:
            continue
        freed.update(names)
        sites.append(label)
    drop_unused(g, freed)
    return sites


def drop_unread(g: onnx.GraphProto, names: set[str]) -> None:
    """Remove the Constant nodes and non-input initializers among ``names`` that nothing reads any more
    (see :func:`passcheck.mutations._base.drop_unused`)."""
    drop_unused(g, names)


def trim_trailing_empty(names) -> bool:
    """Drop the trailing ``""`` entries of a node's ``input`` or ``output`` list; whether any was dropped.

    IR.md §Optional Inputs and Outputs: a trailing optional slot is omitted either by writing ``""`` or by leaving it
    off the end; interior ``""`` slots must stay (they keep the later slots' positions)."""
    cut = False
    while names and not names[-1]:
        del names[-1]
        cut = True
    return cut


def drop_attribute(n: "onnx.NodeProto", name: str) -> None:  # noqa: UP037 - the module's style
    """Remove ``n``'s attribute ``name``, if any."""
    keep = [a for a in n.attribute if a.name != name]
    del n.attribute[:]
    n.attribute.extend(keep)


def splice(g: onnx.GraphProto, before: dict[int, list] | None = None, replace: dict[int, list] | None = None) -> None:
    """Rebuild ``g``'s node list: node ``i`` preceded by ``before[i]`` and replaced by ``replace[i]``
    (an empty list drops it), the others kept in order."""
    before, replace = before or {}, replace or {}
    set_nodes(g, [m for i, n in enumerate(g.node) for m in (*before.get(i, []), *replace.get(i, [n]))])


def attr_value(n: "onnx.NodeProto", name: str, default=None):  # noqa: UP037 - the module's style
    """The value of ``n``'s attribute ``name`` (``onnx.helper.get_attribute_value``), or ``default``."""
    import onnx

    return next((onnx.helper.get_attribute_value(a) for a in n.attribute if a.name == name), default)
