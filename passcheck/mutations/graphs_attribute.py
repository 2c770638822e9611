"""A call of a model-local function carrying a GRAPHS attribute its body never reads, whose graphs read the call's
inputs from the outer scope (IR.md §Functions: a function declares the names of the attributes it takes and its
body need not reference each; §Attributes: ``GRAPHS`` is an attribute type, a list of graphs; §Graphs, names
within a graph: a nested graph may read any value of an enclosing scope).

- ``call-carries-graphs-attribute``: a default-domain node → a call of a model-local function holding it
  (:func:`passcheck.mutations.local_functions.as_function`), the function's attribute list gaining ``bodies`` and
  the call a ``bodies`` attribute of type GRAPHS: two graphs with no inputs, each ``o_k = Identity(x_k)`` for
  every tensor input ``x_k`` of the call (an outer-scope read), the outputs untyped (onnx.proto's
  ``ValueInfoProto.type`` is required of the top-level graph's inputs and outputs only; nothing runs these graphs, so
  no oracle could check a type written there).

The body never references ``bodies``, so the computation is the node's. No operator onnx defines takes a GRAPHS
attribute, so without this rewrite no form holds one; a pass that walks nested graphs through ``AttributeProto.g``
alone (renaming, extraction, dead-value removal) leaves these graphs' outer reads behind.

Sites: node labels of the main graph (``node-as-local-function``'s, main graph only), nodes with at least one input
of a known element type. IR raised to 8 when lower (as ``node-as-local-function``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite, chosen, is_default_domain, node_label
from passcheck.mutations._freedom import Freedom
from passcheck.mutations._shapes import known
from passcheck.mutations.local_functions import DOMAIN, as_function

if TYPE_CHECKING:
    import onnx

#: The attribute's name, declared by the function and given at the call.
NAME = "bodies"
#: How many graphs the attribute holds (more than one: a list, not a single graph spelled as a list).
COUNT = 2


def _bodies(reads: list[tuple[str, int]]) -> list[onnx.GraphProto]:
    """``COUNT`` graphs with no inputs, each ``o<k> = Identity(x_k)`` for each ``(x_k, elem_type)`` of ``reads``,
    ``o<k>`` untyped."""
    import onnx

    h = onnx.helper
    out = []
    for j in range(COUNT):
        nodes = [h.make_node("Identity", [x], [f"o{k}"], name=f"{NAME}{j}_read{k}") for k, (x, _) in enumerate(reads)]
        # untyped: onnx.proto asks a type of the top-level graph's inputs and outputs only (onnx/onnx#2310), and a
        # type written here could never be checked (nothing runs these graphs)
        outs = [h.make_empty_tensor_value_info(f"o{k}") for k in range(len(reads))]
        out.append(h.make_graph(nodes, f"{NAME}{j}", [], outs))
    return out


def carry_graphs(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Each eligible main-graph node → a call of a model-local function holding it, the call carrying an unread
    GRAPHS attribute whose graphs read the call's inputs from the outer scope."""
    import onnx

    if any(o.domain == DOMAIN for o in model.opset_import):
        return []  # already wrapped: as_function refuses, names would clash
    types = known(model)
    eligible = frozenset(
        label
        for i, n in enumerate(model.graph.node)
        if is_default_domain(n)
        and chosen(only, label := node_label(n, i))
        and any(x in types and types[x].elem_type for x in n.input if x)
    )
    if not eligible:
        return []
    sites = as_function(model, eligible)
    functions = {f.name: f for f in model.functions if f.domain == DOMAIN}
    for i, n in enumerate(model.graph.node):
        if n.domain != DOMAIN or node_label(n, i) not in sites:
            continue
        reads = [(x, types[x].elem_type) for x in n.input if x and x in types and types[x].elem_type]
        n.attribute.append(onnx.helper.make_attribute(NAME, _bodies(reads)))
        f = functions[n.op_type]
        if NAME not in f.attribute:
            f.attribute.append(NAME)
    return sites


REWRITES = (
    Rewrite(
        "call-carries-graphs-attribute",
        "a node → a call of a model-local function holding it, the call carrying an unread GRAPHS attribute whose "
        "graphs read the call's inputs from the outer scope (IR.md §Functions, §Attributes; IR >= 8)",
        carry_graphs,
        inverse="inline-local-functions",
    ),
)

FREEDOMS = (
    Freedom(
        "function-unread-graphs-attribute",
        "functions",
        "IR.md §Functions (attribute: the names a function takes), §Attributes (GRAPHS), §Graphs (nested scopes)",
        "A call of a model-local function may give an attribute the function declares and its body never reads, of "
        "any attribute type, a list of graphs too; the graphs may read the caller's values from the outer scope; "
        "the computation is the body's either way.",
        ("call-carries-graphs-attribute", "inline-local-functions"),
        "default-domain main-graph nodes with an input of known element type; each call's attribute holds two "
        "graphs reading every typed input of the call.",
    ),
)
