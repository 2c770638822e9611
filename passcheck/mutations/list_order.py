"""Lists the spec leaves unordered, reversed (IR.md §Graphs: the order of the initializer list is
unspecified; §Nodes: attributes are matched to the operator by name; §Models: opset_import and
functions are collections identified by domain and name).

- ``reverse-attribute-order``: the attributes of every node with two or more, in every scope.
  Sites: node labels (see :mod:`passcheck.mutations._scopes`).
- ``reverse-unordered-lists``: the initializers and value_info of every graph, the model's
  opset_import, metadata_props and functions, and each function's opset_import. Sites:
  ``GRAPH:initializer``, ``GRAPH:value_info``, ``model:opset_import``, ``model:functions``,
  ``model:metadata_props``, ``FUNCTION:opset_import``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite, chosen
from passcheck.mutations._freedom import Freedom
from passcheck.mutations._scopes import scopes

if TYPE_CHECKING:
    import onnx


def _reverse(field) -> bool:
    """Reverse a repeated message field in place; False when it has fewer than two entries."""
    if len(field) < 2:
        return False
    items = [type(x)() for x in field]
    for new, old in zip(items, field, strict=True):
        new.CopyFrom(old)
    del field[:]
    field.extend(reversed(items))
    return True


def reverse_attributes(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Reverse the attribute list of every node with two or more attributes."""
    sites = []
    for scope in scopes(model):
        for i, n in enumerate(scope.body.node):
            if len(n.attribute) > 1 and chosen(only, label := scope.label(n, i)) and _reverse(n.attribute):
                sites.append(label)
    return sites


def reverse_lists(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Reverse every unordered list named in the module doc."""
    lists = [
        ("model:opset_import", model.opset_import),
        ("model:functions", model.functions),
        ("model:metadata_props", model.metadata_props),
    ]
    for scope in scopes(model):
        b = scope.body
        if scope.is_graph:
            lists += [(f"{b.name}:initializer", b.initializer), (f"{b.name}:value_info", b.value_info)]
        else:
            lists.append((f"{b.name}:opset_import", b.opset_import))
    return list(dict.fromkeys(label for label, field in lists if chosen(only, label) and _reverse(field)))


REWRITES = (
    Rewrite(
        "reverse-attribute-order", "every node's attributes in reverse order (matched by name)", reverse_attributes
    ),
    Rewrite(
        "reverse-unordered-lists",
        "initializers, value_info, opset_import, functions and metadata_props in "
        "reverse order (every graph and function)",
        reverse_lists,
        detail="lists",
    ),
)

FREEDOMS = (
    Freedom(
        "attribute-order",
        "attributes",
        "IR.md §Nodes (attributes are associated with operator attributes by name)",
        "A node's attributes may come in any order.",
        ("reverse-attribute-order",),
        "every node with two or more attributes, in every scope; its own inverse.",
    ),
    Freedom(
        "initializer-order",
        "initializers",
        "IR.md §Graphs (initializer: the order of the list is unspecified)",
        "A graph's initializers may be listed in any order.",
        ("reverse-unordered-lists",),
        "every graph (main and subgraphs); site GRAPH:initializer; its own inverse.",
    ),
    Freedom(
        "value-info-order",
        "values",
        "IR.md §Graphs (value_info: annotations of values, looked up by name)",
        "A graph's value_info entries may come in any order.",
        ("reverse-unordered-lists",),
        "every graph; site GRAPH:value_info.",
    ),
    Freedom(
        "opset-import-order",
        "opset imports",
        "IR.md §Models, §Operator Set Identifiers (a set identified by domain)",
        "The model's (and each function's) opset imports may come in any order.",
        ("reverse-unordered-lists",),
        "model:opset_import and FUNCTION:opset_import (only where two or more domains are imported, e.g. after "
        "extra-opset-import at depth 2).",
    ),
    Freedom(
        "function-order",
        "functions",
        "IR.md §Models (functions: model-local functions, identified by domain and name)",
        "Model-local functions may be listed in any order (a function may even follow the nodes that call it).",
        ("reverse-unordered-lists",),
        "model:functions, where a model has two or more.",
    ),
)
