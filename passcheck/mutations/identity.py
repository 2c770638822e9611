"""An Identity on every node-to-node edge of the main graph (ONNX operator spec, Identity: the
output equals the input; tensors in every opset, sequences and optionals from opset 14/16)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite, all_names, chosen, consumers, fresh_name, opset, redirect_reads
from passcheck.runtime import isolated_tools

if TYPE_CHECKING:
    import onnx

#: Identity-16 takes any type; earlier versions tensors only (Identity-14 adds sequences).
ANY_TYPE_OPSET = 16


def _tensor_values(model: onnx.ModelProto) -> set[str]:

    try:
        g = isolated_tools.infer_shapes(model).graph
    except Exception:  # noqa: BLE001 - types unknown: only opset >= 16 models are rewritten
        return set()
    return {v.name for v in list(g.value_info) + list(g.output) if v.type.HasField("tensor_type")}


def insert(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Route each node output read by other main-graph nodes through a new Identity placed right after its producer.

    Sites are the values so routed (their readers' inputs are renamed).

    Graph outputs keep their producer; subgraph reads keep the original value. Before opset 16,
    only values that shape inference types as tensors get an Identity.
    """
    import onnx

    g = model.graph
    readers = consumers(g)
    typed = None if opset(model) >= ANY_TYPE_OPSET else _tensor_values(model)
    taken = all_names(model)
    nodes, sites = [], []
    for n in g.node:
        nodes.append(n)
        for out in n.output:
            if not out or out not in readers or (typed is not None and out not in typed) or not chosen(only, out):
                continue
            new = fresh_name(taken, f"{out}_identity")
            nodes.append(
                onnx.helper.make_node("Identity", [out], [new], name=fresh_name(taken, f"{out}_identity_node"))
            )
            redirect_reads(g, readers[out], out, new)
            sites.append(out)
    if sites:
        del g.node[:]
        g.node.extend(nodes)
    return sites


REWRITES = (
    Rewrite("identity-edges", "every node-to-node edge → routed through an Identity node", insert, detail="values"),
)
