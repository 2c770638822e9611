"""Every scope of a model a rewrite may edit: the main graph, each subgraph (If/Loop/Scan bodies,
nested ones too) and each model-local function body, with the site labels nodes get there.

Labels: a main-graph node is :func:`~passcheck.mutations._base.node_label`; a subgraph node is its
first output's name (value names are unique model-wide, IR.md §Nodes); a function-body node is
``FUNCTION/`` + its first output's name (function bodies have their own value namespace)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import TYPE_CHECKING

from passcheck.mutations._base import node_label, subgraphs

if TYPE_CHECKING:
    import onnx


@dataclasses.dataclass
class Scope:
    """One list of nodes and where it sits.

    Attributes:
        body: the GraphProto or FunctionProto holding the nodes.
        kind: ``main``, ``subgraph`` or ``function``.
        prefix: label prefix of the nodes (``""`` except in function bodies: ``NAME/``).
    """

    body: onnx.GraphProto | onnx.FunctionProto
    kind: str
    prefix: str = ""

    @property
    def is_graph(self) -> bool:
        return self.kind != "function"

    def label(self, node: onnx.NodeProto, index: int) -> str:
        if self.kind == "main":
            return node_label(node, index)
        first = next((o for o in node.output if o), "")
        return f"{self.prefix}{first or node_label(node, index)}"


def _nested(g: onnx.GraphProto, prefix: str) -> Iterator[Scope]:
    for n in g.node:
        for sg in subgraphs(n):
            yield Scope(sg, "subgraph", prefix)
            yield from _nested(sg, prefix)


def scopes(model: onnx.ModelProto, functions: bool = True) -> Iterator[Scope]:
    """The main graph, its subgraphs (depth first), then each function body and the subgraphs in it."""
    yield Scope(model.graph, "main")
    yield from _nested(model.graph, "")
    if functions:
        for f in model.functions:
            prefix = f"{f.name}/"
            yield Scope(f, "function", prefix)
            for n in f.node:
                for sg in subgraphs(n):
                    yield Scope(sg, "subgraph", prefix)
                    yield from _nested(sg, prefix)


def opset_of(model: onnx.ModelProto, scope: Scope, domain: str = "") -> int:
    """The opset version ``scope``'s nodes see for ``domain`` (a function's own import, else the model's)."""
    imports = scope.body.opset_import if scope.kind == "function" else model.opset_import
    wanted = ("", "ai.onnx") if domain in ("", "ai.onnx") else (domain,)
    for o in imports:
        if o.domain in wanted:
            return o.version
    if scope.kind == "function":
        return opset_of(model, Scope(model.graph, "main"), domain)
    return 0
