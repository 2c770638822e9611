"""Small graph edits the rewrites share: replacing the node list, int64 Constant nodes, values
that must keep their name, and removing constants nothing reads any more."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from passcheck.mutations._base import drop_unused, fresh_name, names_used_in_subgraphs

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


def drop_unread(g: onnx.GraphProto, names: set[str]) -> None:
    """Remove the Constant nodes and non-input initializers among ``names`` that nothing reads any more
    (see :func:`passcheck.mutations._base.drop_unused`)."""
    drop_unused(g, names)


def drop_attribute(n: "onnx.NodeProto", name: str) -> None:  # noqa: UP037 - the module's style
    """Remove ``n``'s attribute ``name``, if any."""
    keep = [a for a in n.attribute if a.name != name]
    del n.attribute[:]
    n.attribute.extend(keep)


def splice(
    g: "onnx.GraphProto",
    before: "dict[int, list] | None" = None,  # noqa: UP037 - the module's style
    replace: "dict[int, list] | None" = None,
) -> None:  # noqa: UP037
    """Rebuild ``g``'s node list: node ``i`` preceded by ``before[i]`` and replaced by ``replace[i]``
    (an empty list drops it), the others kept in order."""
    before, replace = before or {}, replace or {}
    set_nodes(g, [m for i, n in enumerate(g.node) for m in (*before.get(i, []), *replace.get(i, [n]))])


def attr_value(n: "onnx.NodeProto", name: str, default=None):  # noqa: UP037 - the module's style
    """The value of ``n``'s attribute ``name`` (``onnx.helper.get_attribute_value``), or ``default``."""
    import onnx

    return next((onnx.helper.get_attribute_value(a) for a in n.attribute if a.name == name), default)
