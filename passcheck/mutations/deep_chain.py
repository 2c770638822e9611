"""A graph input read through a long chain of Identity nodes: the same computation at a graph depth no base reaches.

IR.md §Graphs bounds neither the number of nodes nor the length of a path from a graph input to an output, and
Identity (every opset, tensors) gives its input unchanged, so ``f(x)`` is ``f(Identity^n(x))`` for any ``n``. The
bases are at most a few dozen nodes deep; a pass that walks producers or consumers one call per node (a recursive
depth-first search, as `onnx.utils.Extractor` and graph utilities written in Python often do) meets CPython's default
recursion limit (1,000 frames, ``sys.getrecursionlimit``) only on a deeper path. :data:`DEPTH` is past that bound.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations._base import LISTING, Rewrite, all_names, chosen, consumers, fresh_name, redirect_reads
from passcheck.mutations.catalogue import Freedom

if TYPE_CHECKING:
    import onnx

#: Identity nodes in one chain: above CPython's default recursion limit (1,000), so a walk of one frame per node
#: along the chain exceeds it whatever the frames below it.
DEPTH = 1_100


def _tensor_inputs(g: onnx.GraphProto) -> list[str]:
    initializers = {t.name for t in g.initializer}
    return [v.name for v in g.input if v.name not in initializers and v.type.HasField("tensor_type")]


def deepen(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Route each tensor graph input's main-graph reads through :data:`DEPTH` chained Identity nodes.

    Sites are the graph inputs (not initializers) that main-graph nodes read; the chain is placed first in the
    node list (its inputs are graph inputs, so the order stays topological) and the readers' inputs are renamed
    to its last value. Reads inside subgraphs and a graph output naming the input keep the input itself. Under
    :data:`._base.LISTING` (the rewrite is declared ``lists``) the labels alone, the model untouched.
    """
    import onnx

    g = model.graph
    readers = consumers(g)
    sites = [name for name in _tensor_inputs(g) if name in readers and chosen(only, name)]
    if not sites or LISTING.get():
        return sites
    taken = all_names(model)
    chains: list[onnx.NodeProto] = []
    for name in sites:
        prev = name
        for i in range(DEPTH):  # NodeProto built directly: 1,100 a chain, make_node's checks cost most of a listing
            out = fresh_name(taken, f"{name}_deep{i}")
            node = onnx.NodeProto(op_type="Identity", name=fresh_name(taken, f"{out}_node"))
            node.input.append(prev)
            node.output.append(out)
            chains.append(node)
            prev = out
        redirect_reads(g, readers[name], name, prev)
    rest = list(g.node)
    del g.node[:]
    g.node.extend(chains + rest)
    return sites


REWRITES = (
    Rewrite(
        "deep-identity-chain",
        f"a graph input's reads → through {DEPTH:,} chained Identity nodes (IR.md §Graphs: no depth bound; "
        "Identity-1+)",
        deepen,
        detail="values",
        lists=True,
    ),
)

FREEDOMS = (
    Freedom(
        "graph-depth",
        "graphs",
        "IR.md §Graphs (a graph is any list of nodes in topological order: no bound on their number or on a "
        "path's length); Operators.md Identity-1/13/14/16 (the output is the input)",
        "A graph computes the same with any number of Identity nodes between a value and its readers, so a "
        "model may be as deep as its writer makes it; the same computation a thousand nodes deep is the "
        "same model.",
        ("deep-identity-chain",),
        f"main-graph reads of tensor graph inputs (not initializers), one chain of {DEPTH:,} Identity nodes per "
        "input placed before every other node; subgraph reads and graph outputs keep the input",
    ),
)
