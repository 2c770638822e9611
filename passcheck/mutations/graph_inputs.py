"""An initializer that is also a graph input ↔ one that is not (IR.md §Graphs and §Nodes: an
initializer named like a graph input gives that input a default a caller MAY override; one with no
input of its name is a constant; from IR 4 an initializer need not be an input).

- ``initializer-as-input``: a main-graph initializer that is no graph input → also a graph input of
  its type and shape (an overridable default; the feeds are unchanged, since an input with an
  initializer needs none). IR >= 4. Sites: initializer names.
- ``initializer-not-input``: a main-graph input with an initializer → not an input (a constant).
  IR >= 4. Sites: initializer names.
- ``unused-default-input``: a graph input no node reads, with an initializer as its default, added
  (``float[1]``, 0; named ``unused_default``): the graph's values are unchanged and the caller need not
  feed it, so a pass must keep it overridable (both listed) or drop both. IR >= 4. Site: the new name.

Main graph only: in subgraphs, from IR 4, a name MUST NOT be both an initializer and an input
(IR.md §Nodes).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite, all_names, chosen, fresh_name
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


def unused_default(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Add a main-graph input ``float[1]`` that no node reads, with an initializer (0) as its default."""
    import onnx

    if model.ir_version < 4:
        return []
    name = fresh_name(all_names(model), "unused_default")
    if not chosen(only, name):
        return []
    g = model.graph
    g.input.append(onnx.helper.make_tensor_value_info(name, onnx.TensorProto.FLOAT, [1]))
    g.initializer.append(onnx.helper.make_tensor(name, onnx.TensorProto.FLOAT, [1], [0.0]))
    return [name]


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
    Rewrite(
        "unused-default-input",
        "a graph input no node reads, with an initializer default, added (overridable, never fed; IR >= 4)",
        unused_default,
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
    Freedom(
        "unused-default-input",
        "initializers",
        "IR.md §Graphs (a graph's inputs need not be read by a node; an initializer named like an input is its "
        "default, from IR 4)",
        "A graph may list an input no node reads; with an initializer of its name it needs no feed, so the "
        "graph with it and without it compute the same outputs from the same feeds.",
        ("unused-default-input",),
        "main graph only, one site (the new input); a pass may drop the input and its initializer together or keep "
        "both, never keep the input without its default (it would then need a feed).",
    ),
)
