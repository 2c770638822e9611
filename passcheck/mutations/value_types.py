"""How much a model says about its values' types (IR.md §Static tensor shapes: a dim may be a
dim_value, a dim_param or neither; a value of unknown rank has no shape; the main graph's inputs and
outputs must give a rank, subgraph inputs and outputs MAY omit their types; value_info is optional).

- ``symbolic-input-dims``: every dim_value of a main-graph input → a fresh dim_param (one per input
  dim; the feeds are the original's, so the values are the same).
- ``anonymous-input-dims``: every dim of a main-graph input (no initializer) → neither dim_value nor dim_param,
  the rank kept. An input's annotation is a precondition the caller meets (the shape-annotation semantics, seed 000:
  an anonymous dim asserts nothing), so the weaker one admits every feed the original does; the feeds are the
  original's. Values downstream keep their own declarations, so a pass that reads a dim from the input's
  spelling meets an unknown dim where the base gave it a number or a name.
- ``value-info-elem-type-only``: every value_info entry (every graph) → its elem_type, no shape.
- ``untyped-subgraph-io``: the types of every subgraph's outputs → removed (names kept). Body inputs keep
  theirs: onnx shape inference (1.23) types a Loop body from its declared inputs, so untyped inputs
  fail the full checker.
- ``anonymous-output-dims``: every dim of a main-graph tensor output → neither dim_value nor dim_param
  (the rank stays: a main-graph output must give one). It withholds what a pass may infer: with other
  rewrites in a form, the hunt pairs both sides without the dims (:mod:`passcheck.mutations.withheld`).

- ``rename-dim-params``: every dim_param → a fresh name, the same at every occurrence.

Sites: value names (``GRAPH:name`` for subgraph outputs; dim_param names for ``rename-dim-params``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite, all_names, chosen, fresh_name
from passcheck.mutations._freedom import Freedom
from passcheck.mutations._scopes import scopes

if TYPE_CHECKING:
    import onnx


def _tensor(v: onnx.ValueInfoProto):
    return v.type.tensor_type if v.type.HasField("tensor_type") else None


def symbolic_inputs(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Static dims of main-graph inputs → fresh dim_params."""
    taken, sites = all_names(model), []
    inits = {t.name for t in model.graph.initializer}
    for v in model.graph.input:
        t = _tensor(v)
        if t is None or v.name in inits or not chosen(only, v.name):
            continue
        dims = [d for d in t.shape.dim if d.HasField("dim_value")]
        for k, d in enumerate(dims):
            d.dim_param = fresh_name(taken, f"{v.name}_d{k}")
        if dims:
            sites.append(v.name)
    return sites


def anonymous_input_dims(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Dims of main-graph tensor inputs without an initializer → unknown (neither field), rank kept."""
    inits = {t.name for t in model.graph.initializer}
    sites = []
    for v in model.graph.input:
        t = _tensor(v)
        if t is None or v.name in inits or not chosen(only, v.name):
            continue
        dims = [d for d in t.shape.dim if d.HasField("dim_value") or d.HasField("dim_param")]
        for d in dims:
            d.ClearField("dim_value")
            d.ClearField("dim_param")
        if dims:
            sites.append(v.name)
    return sites


def elem_type_only(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """value_info entries → elem_type only."""
    sites = []
    for scope in scopes(model, functions=False):
        for v in scope.body.value_info:
            t = _tensor(v)
            if t is not None and t.HasField("shape") and chosen(only, v.name):
                t.ClearField("shape")
                sites.append(v.name)
    return sites


def untyped_subgraph_io(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Types of subgraph outputs → removed."""
    sites = []
    for scope in scopes(model, functions=False):
        if scope.kind != "subgraph":
            continue
        for v in scope.body.output:
            label = f"{scope.body.name}:{v.name}"
            if v.HasField("type") and chosen(only, label):
                v.ClearField("type")
                sites.append(label)
    return list(dict.fromkeys(sites))


def anonymous_output_dims(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Dims of main-graph tensor outputs → unknown (neither field), rank kept."""
    sites = []
    for v in model.graph.output:
        t = _tensor(v)
        if t is None or not chosen(only, v.name):
            continue
        dims = [d for d in t.shape.dim if d.HasField("dim_value") or d.HasField("dim_param")]
        for d in dims:
            d.Clear()
        if dims:
            sites.append(v.name)
    return sites


def rename_dim_params(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Every dim_param → a fresh name, the same everywhere it occurs (dimension variables are not
    scoped: one name, one size across the model and its subgraphs)."""
    taken = all_names(model)
    dims = []
    for scope in scopes(model, functions=False):
        b = scope.body
        for v in [*b.input, *b.output, *b.value_info]:
            t = _tensor(v)
            if t is not None:
                dims += [d for d in t.shape.dim if d.HasField("dim_param")]
    taken |= {d.dim_param for d in dims}
    new: dict[str, str] = {}
    for d in dims:
        if chosen(only, d.dim_param):
            new.setdefault(d.dim_param, fresh_name(taken, f"dim{len(new)}"))
            d.dim_param = new[d.dim_param]
    return list(new)


REWRITES = (
    Rewrite(
        "symbolic-input-dims", "static dims of main-graph inputs → fresh dim_params", symbolic_inputs, detail="inputs"
    ),
    Rewrite(
        "anonymous-input-dims",
        "dims of main-graph inputs → unknown (neither dim_value nor dim_param), rank kept",
        anonymous_input_dims,
        detail="inputs",
    ),
    Rewrite(
        "value-info-elem-type-only",
        "value_info entries → elem_type only, no shape (every graph)",
        elem_type_only,
        detail="values",
    ),
    Rewrite(
        "rename-dim-params",
        "every dim_param → a fresh name, consistently across the model",
        rename_dim_params,
        detail="dim_params",
    ),
    Rewrite("untyped-subgraph-io", "types of subgraph outputs → removed", untyped_subgraph_io, detail="values"),
    Rewrite(
        "anonymous-output-dims",
        "dims of main-graph outputs → unknown, rank kept",
        anonymous_output_dims,
        detail="outputs",
        withholds=True,
    ),
)

FREEDOMS = (
    Freedom(
        "input-dims-static-or-symbolic",
        "values",
        "IR.md §Static tensor shapes (a dim is a dim_value or a dim_param); "
        "§Graphs (main-graph inputs must give a rank, not the dims)",
        "A graph input's dim may be declared as a number or as a name; for the same feeds the model computes the same.",
        ("symbolic-input-dims",),
        "main-graph inputs without an initializer; one way (naming a number back needs the feeds, which the model "
        "does not fix); static-shape folds of a pass then have nothing to fold.",
    ),
    Freedom(
        "output-dims-anonymous",
        "values",
        "IR.md §Static tensor shapes (a dim with neither field is unknown), §Graphs",
        "A graph output may declare its rank only, each dim unknown, instead of its dims.",
        ("anonymous-output-dims",),
        "main-graph tensor outputs with a dim_value or dim_param; the parity oracle blames a pass only for a gap "
        "it made, not one the form declares and the pass keeps (docs/found.md row 25, false).",
    ),
    Freedom(
        "input-dims-anonymous",
        "values",
        "IR.md §Static tensor shapes (a dim with neither field is unknown), §Graphs (main-graph inputs must give "
        "a rank); the shape-annotation semantics (graph inputs are preconditions; an anonymous dim asserts nothing)",
        "A graph input may declare its rank with every dim unknown instead of a number or a name; the same feeds "
        "satisfy both, and the values downstream keep their own declarations.",
        ("anonymous-input-dims",),
        "main-graph tensor inputs without an initializer; one way (the dims back need the feeds). Passes that "
        "compare shapes taken from the input (a shape-equality check, a shape copied onto an output) then meet "
        "an unknown dim where the base had a number or a name.",
    ),
    Freedom(
        "value-info-partial-type",
        "values",
        "IR.md §Static tensor shapes (an absent shape: any shape), §Graphs (value_info)",
        "A value_info entry may give the elem_type alone, without a shape.",
        ("value-info-elem-type-only", "inferred-value-info"),
        "every graph's value_info; single-site forms give a mix of full and partial entries.",
    ),
    Freedom(
        "dim-param-names",
        "names and domains",
        "IR.md §Static tensor shapes (a dimension variable denotes the same "
        "size everywhere in the model, subgraphs included; its name is a C90 identifier)",
        "Dimension variables may carry any names, as long as each is renamed at every occurrence.",
        ("rename-dim-params",),
        "graph inputs, outputs and value_info of every graph; its own inverse. Sites: the old dim_param names.",
    ),
    Freedom(
        "subgraph-io-types",
        "subgraphs",
        "IR.md §Graphs (nested subgraphs MUST name their inputs and outputs and MAY give their types)",
        "The inputs and outputs of an If/Loop/Scan body may carry types or only names.",
        ("untyped-subgraph-io",),
        "outputs of every subgraph; one way (typing them back is onnx shape inference's job). Body inputs are left "
        "typed: onnx shape inference (1.23) fails on an untyped Loop body input, so the full checker refuses it.",
        evidence="tests/mutations/test_spelling_rewrites.py::test_untyped_loop_body_inputs_fail_the_full_checker",
    ),
)
