"""An initializer that is also a graph input ↔ one that is not (IR.md §Graphs and §Nodes: an
initializer named like a graph input gives that input a default a caller MAY override; one with no
input of its name is a constant; from IR 4 an initializer need not be an input).

- ``initializer-as-input``: a main-graph initializer that is no graph input → also a graph input of
  its type and shape (an overridable default; the feeds are unchanged, since an input with an
  initializer needs none). IR >= 4. Sites: initializer names.
- ``initializer-not-input``: a main-graph input with an initializer → not an input (a constant).
  IR >= 4. Sites: initializer names.

Main graph only: in subgraphs, from IR 4, a name MUST NOT be both an initializer and an input
(IR.md §Nodes).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite, chosen
from passcheck.mutations._freedom import Freedom
from passcheck.mutations._graph_edit import set_list

if TYPE_CHECKING:
    import onnx


def as_input(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Each non-input initializer → also listed as a graph input."""
    import onnx

    if model.ir_version < 4:
        return []
    g = model.graph
    inputs = {v.name for v in g.input}
    sites = []
    for t in g.initializer:
        if t.name not in inputs and chosen(only, t.name):
            g.input.append(onnx.helper.make_tensor_value_info(t.name, t.data_type, list(t.dims)))
            sites.append(t.name)
    return sites


def not_input(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Each graph input that has an initializer → dropped from the input list."""
    if model.ir_version < 4:
        return []
    g = model.graph
    inits = {t.name for t in g.initializer}
    sites = [v.name for v in g.input if v.name in inits and chosen(only, v.name)]
    if sites:
        set_list(g.input, [v for v in g.input if v.name not in set(sites)])
    return sites


REWRITES = (
    Rewrite(
        "initializer-as-input",
        "a non-input initializer → also a graph input (an overridable default; IR >= 4)",
        as_input,
        inverse="initializer-not-input",
        detail="initializers",
    ),
    Rewrite(
        "initializer-not-input",
        "a graph input with an initializer → not an input (a constant; IR >= 4)",
        not_input,
        inverse="initializer-as-input",
        detail="initializers",
    ),
)

FREEDOMS = (
    Freedom(
        "initializer-as-graph-input",
        "initializers",
        "IR.md §Graphs (initializer), §Nodes (a name in both the "
        "initializer and the input list: a default a runtime MAY let callers override)",
        "A parameter may be a plain initializer (a constant) or also a graph input (a default), from IR 4; with "
        "no feed "
        "given, both compute the same.",
        ("initializer-as-input", "initializer-not-input"),
        "main-graph initializers (subgraphs may not list an initializer as input from IR 4); a pass may fold only the "
        "constant spelling. Composes with initializer-to-constant (only non-input initializers move).",
    ),
)
