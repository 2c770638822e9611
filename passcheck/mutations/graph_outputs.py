"""How a graph output is produced (IR.md §Nodes: when a node output has a graph output's name, the
graph output is that value; a graph output may also be read by other nodes; Operators.md Identity).

- ``output-through-identity``: a graph output written by a node → the node writes a fresh name and an
  Identity copies it to the output (readers of the output keep reading the output). Main graph,
  subgraphs and function bodies. Sites: the output names (``FUNCTION/name`` in a function).
- ``output-identity-folded``: an Identity that writes a graph output from a node output nothing else
  reads (and that is no graph output) → the producer writes the output name directly. Sites as above.
- ``initializer-output``: a main-graph output written by an Identity (or Constant) of a constant →
  the output is itself an initializer of that name (a graph output that is directly an
  initializer). Sites: the output names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite, all_names, chosen, fresh_name, is_default_domain, subgraphs
from passcheck.mutations._freedom import Freedom
from passcheck.mutations._graph_edit import set_nodes
from passcheck.mutations._scopes import scopes

if TYPE_CHECKING:
    import onnx


def _outputs(scope) -> list[str]:
    b = scope.body
    return [v.name for v in b.output] if scope.is_graph else list(b.output)


def _uses(body, count: dict[str, int] | None = None) -> dict[str, int]:
    """Value name → how many node inputs read it, in ``body`` and every graph nested in it."""
    count = {} if count is None else count
    for n in body.node:
        for x in n.input:
            count[x] = count.get(x, 0) + 1
        for sg in subgraphs(n):
            _uses(sg, count)
            for v in sg.output:
                count[v.name] = count.get(v.name, 0) + 1
    return count


def through_identity(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Each graph output written by a node → via a fresh name and an Identity."""
    import onnx

    taken, sites = all_names(model), []
    for scope in scopes(model):
        b = scope.body
        outs = set(_outputs(scope))
        nodes = []
        for n in b.node:
            nodes.append(n)
            for k, y in enumerate(n.output):
                identity = n.op_type == "Identity" and is_default_domain(n)
                if y in outs and not identity and chosen(only, scope.prefix + y):
                    inner = fresh_name(taken, f"{y}_inner")
                    n.output[k] = inner
                    name = fresh_name(taken, f"{y}_identity")
                    nodes.append(onnx.helper.make_node("Identity", [inner], [y], name=name))
                    sites.append(scope.prefix + y)
        if len(nodes) != len(b.node):
            set_nodes(b, nodes)
    return sites


def identity_folded(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Each Identity from a single-use node output to a graph output → folded into the producer."""
    sites = []
    for scope in scopes(model):
        b = scope.body
        outs, uses = set(_outputs(scope)), _uses(b)
        producer = {o: n for n in b.node for o in n.output if o}
        drop = []
        for n in b.node:
            if not (n.op_type == "Identity" and is_default_domain(n) and n.output[0] in outs):
                continue
            x, y = n.input[0], n.output[0]
            p = producer.get(x)
            if p is None or x in outs or uses.get(x, 0) != 1 or not chosen(only, scope.prefix + y):
                continue
            p.output[list(p.output).index(x)] = y
            drop.append(n)
            sites.append(scope.prefix + y)
        if drop:
            set_nodes(b, [n for n in b.node if all(n is not d for d in drop)])
    return sites


def initializer_output(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Each main-graph output that is an Identity of a non-input initializer, or a Constant(value=tensor)
    output → an initializer named as the output (IR >= 4)."""
    import onnx

    if model.ir_version < 4:
        return []
    g = model.graph
    outs, uses = {v.name for v in g.output}, _uses(g)
    inputs = {v.name for v in g.input}
    inits = {t.name: t for t in g.initializer if t.name not in inputs}
    sites, drop = [], []
    for n in g.node:
        if not is_default_domain(n) or not n.output or n.output[0] not in outs or not chosen(only, n.output[0]):
            continue
        y = n.output[0]
        if n.op_type == "Identity" and n.input[0] in inits:
            t = onnx.TensorProto()
            t.CopyFrom(inits[n.input[0]])
        elif n.op_type == "Constant" and len(n.attribute) == 1 and n.attribute[0].name == "value":
            t = onnx.TensorProto()
            t.CopyFrom(n.attribute[0].t)
        else:
            continue
        if uses.get(y, 0):
            continue  # read by other nodes too: keep the node that defines it
        t.name = y
        g.initializer.append(t)
        drop.append(n)
        sites.append(y)
    if drop:
        set_nodes(g, [n for n in g.node if all(n is not d for d in drop)])
        from passcheck.mutations._base import drop_unused

        drop_unused(g, [n.input[0] for n in drop if n.input])
    return sites


REWRITES = (
    Rewrite(
        "output-through-identity",
        "a graph output written by a node → a fresh value copied to the output by an Identity (every scope)",
        through_identity,
        inverse="output-identity-folded",
        detail="outputs",
    ),
    Rewrite(
        "output-identity-folded",
        "an Identity writing a graph output from a single-use node output → the producer "
        "writes the output (every scope)",
        identity_folded,
        inverse="output-through-identity",
        detail="outputs",
    ),
    Rewrite(
        "initializer-output",
        "a main-graph output that is an Identity of an initializer or a Constant → itself an initializer (IR >= 4)",
        initializer_output,
        detail="outputs",
    ),
)

FREEDOMS = (
    Freedom(
        "graph-output-producer",
        "values",
        "IR.md §Nodes (a node output with a graph output's name is that output); Operators.md Identity",
        "A graph output may be written by the node that computes it or copied from a fresh value by an Identity.",
        ("output-through-identity", "output-identity-folded"),
        "main graph, subgraphs (body outputs) and function bodies; identity-edges covers node-to-node edges.",
    ),
    Freedom(
        "graph-output-also-intermediate",
        "values",
        "IR.md §Nodes (a name is defined once and may be used by nodes and as a graph output)",
        "A value may be both a graph output and read by later nodes, or the readers may read a copy.",
        ("output-through-identity", "identity-edges"),
        "output-through-identity leaves readers on the output name; identity-edges gives readers a copy.",
    ),
    Freedom(
        "graph-output-is-initializer",
        "values",
        "IR.md §Nodes (a graph output is a use; an initializer is a definition)",
        "A constant graph output may be an initializer named as the output, with no node producing it.",
        ("initializer-output", "initializer-to-constant"),
        "main-graph outputs made by an Identity of an initializer or by a Constant; back with initializer-to-constant "
        "(a Constant node writes it).",
    ),
)
