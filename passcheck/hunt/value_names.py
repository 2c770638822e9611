"""Names in a main graph the hunt's structural variations must not reuse, and a fresh name beside them.

IR.md (Names within a graph): value names are unique within a graph (SSA: each is produced once) and node names,
when present, unique too; a variation that adds a node or a value therefore picks a name no input, output,
initializer, value_info, node or node input/output of the main graph holds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import onnx


def graph_names(model: onnx.ModelProto) -> set[str]:
    """Every name the main graph of ``model`` holds: node names, node inputs and outputs, graph inputs, outputs,
    value_info and initializers (subgraphs are not read: the variations add to the main graph only)."""
    g = model.graph
    out = {n.name for n in g.node} | {v for n in g.node for v in [*n.input, *n.output]}
    return out | {v.name for v in [*g.input, *g.output, *g.value_info]} | {t.name for t in g.initializer}


def fresh(name: str, taken: set[str]) -> str:
    """``name``, else ``name1``, ``name2`` …, the first not in ``taken``; it is added to ``taken``."""
    out, i = name, 1
    while out in taken:
        out, i = f"{name}{i}", i + 1
    taken.add(out)
    return out
