"""Identity nodes an interface needs: copies no pass can remove while it keeps the graph's, a subgraph's or a
local function's inputs and outputs as they are.

onnx.proto names every value once (IR.md §Graphs, "single static assignment") and a graph, a subgraph or a
function lists its outputs by value name. An ``Identity`` (Operators.md Identity) whose output is an output of the
graph (or body) holding it is a copy the interface needs when the value it copies cannot take the output's name:

- an input of that graph or body (renaming it renames the interface; a graph input with an initializer is an
  overridable default, IR.md §Graphs, still an input);
- another output of that graph or body (one value, two output names);
- a value of an enclosing scope, read by a subgraph (IR.md §Graphs: "names from outer scopes");
- a value that several such copies read: one of them may take the name, every other needs its copy
  (renaming an initializer to the first output and keeping the second copy is what an Identity eliminator writes).

The parity oracle (:mod:`~passcheck.oracles.parity`) counts a function call as its body and a subgraph's nodes as
the model's; these copies are what a pass that keeps the functions and branches must keep, so keeping them where
another form (with no such interface) lost its Identity is no missed optimization. Whether the pass should have
inlined the function or folded the If is judged on the ops those carry, not on their copies.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

import onnx

from passcheck.runtime.graph_index import per_model


@per_model
def needed(model: onnx.ModelProto) -> int:
    """How many ``Identity`` nodes of ``model`` (default domain) its interfaces need (module docs), counted the way
    :func:`passcheck.oracles._context.op_counts` counts them: main graph, every subgraph at any depth, and each
    call of a model-local function as its body (a call from its own body is not expanded)."""
    bodies = {(f.domain, f.name): f for f in model.functions}
    total = 0

    def walk(nodes: Iterable[onnx.NodeProto], inputs: set[str], outputs: set[str], local: set[str], calls) -> None:
        nonlocal total
        nodes = list(nodes)
        total += _copies(nodes, inputs, outputs, local | {o for n in nodes for o in n.output if o})
        for n in nodes:
            key = (n.domain, n.op_type)
            if key in bodies and key not in calls:
                f = bodies[key]
                walk(f.node, set(f.input), set(f.output), set(), calls | {key})
                continue
            for a in n.attribute:
                for g in ([a.g] if a.HasField("g") else []) + list(a.graphs):
                    graph(g, calls)

    def graph(g: onnx.GraphProto, calls) -> None:
        local = {t.name for t in g.initializer} | {t.values.name for t in g.sparse_initializer}
        walk(g.node, {v.name for v in g.input}, {v.name for v in g.output}, local, calls)

    graph(model.graph, frozenset())
    return total


def _copies(nodes: list[onnx.NodeProto], inputs: set[str], outputs: set[str], produced: set[str]) -> int:
    """The Identity nodes of one graph or body its interface needs (module docs)."""
    by_source = Counter(
        n.input[0]
        for n in nodes
        if n.op_type == "Identity" and n.domain in ("", "ai.onnx") and n.output and n.output[0] in outputs
    )
    fixed = inputs | outputs
    return sum(k if (src in fixed or src not in produced) else k - 1 for src, k in by_source.items())
