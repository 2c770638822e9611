"""Axes left out vs axes written out, where the operator spec says both mean the same. ONNX operator spec:

- ReduceSum-13 and Reduce*-18 take ``axes`` as an optional int64 input: "when axes is empty (either not
  provided or explicitly empty)" the node reduces every axis (``noop_with_empty_axes`` 0) or is the
  identity (1). So an omitted axes input and an empty one-dimensional tensor ([0] elements) are one
  computation whatever ``noop_with_empty_axes`` says.
- Squeeze-1/11/13/21 without ``axes`` removes every dim of size 1; with ``axes`` it removes the dims
  named. Where every dim of the input is static, leaving ``axes`` out and listing exactly the size-1
  dims are the same (a symbolic dim might be 1 at run time, so those inputs are left alone; an input
  with no size-1 dim is left alone too, since the spec does not define an empty list).

Main graph; the axes become an int64 initializer (an input from opset 13, an attribute before for
Squeeze). Sites are the rewritten nodes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations._base import (
    Rewrite,
    all_names,
    chosen,
    drop_unused,
    fresh_name,
    is_default_domain,
    node_label,
    opset,
    static_axes,
    static_tensors,
)
from passcheck.mutations._graph_edit import drop_attribute
from passcheck.mutations._shapes import known
from passcheck.mutations.axes import _REDUCE
from passcheck.mutations.catalogue import Freedom

if TYPE_CHECKING:
    import onnx

#: Reduce op → the first opset whose ``axes`` is an optional input (empty: as if not provided).
AXES_INPUT_SINCE = {**{op: 18 for op in _REDUCE}, "ReduceSum": 13}
#: Squeeze takes ``axes`` as an input from opset 13 (an attribute before).
SQUEEZE_AXES_INPUT = 13


def _reduces(model: onnx.ModelProto, only: frozenset[str] | None):
    version = opset(model)
    for i, n in enumerate(model.graph.node):
        since = AXES_INPUT_SINCE.get(n.op_type)
        if is_default_domain(n) and since is not None and version >= since and chosen(only, node_label(n, i)):
            yield i, n


def _axes_initializer(model: onnx.ModelProto, taken: set[str], n: onnx.NodeProto, values: list[int]) -> None:
    """Give ``n`` a fresh int64 initializer holding ``values`` as its second input (replacing any)."""
    import numpy as np
    from onnx import numpy_helper

    name = fresh_name(taken, f"{n.name or n.output[0]}_axes")
    model.graph.initializer.append(numpy_helper.from_array(np.array(values, np.int64), name))
    del n.input[1:]
    n.input.append(name)


def _drop_axes_input(g: onnx.GraphProto, edited: list[onnx.NodeProto]) -> None:
    """Leave out the axes input of each of ``edited`` (the tensor goes when nothing else reads it)."""
    freed = {n.input[1] for n in edited if len(n.input) > 1}
    for n in edited:
        del n.input[1:]
    drop_unused(g, freed)


def empty_axes(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Reduce* with no axes input (or ``""``) → the same node reading an empty int64 axes initializer."""
    taken = all_names(model)
    sites = []
    for i, n in _reduces(model, only):
        if len(n.input) < 2 or not n.input[1]:
            _axes_initializer(model, taken, n, [])
            sites.append(node_label(n, i))
    return sites


def no_empty_axes(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Reduce* reading a static, empty axes tensor → the same node with the axes input left out."""
    from onnx import numpy_helper

    static = static_tensors(model.graph)
    found = [
        (i, n)
        for i, n in _reduces(model, only)
        if len(n.input) > 1 and n.input[1] in static and not numpy_helper.to_array(static[n.input[1]]).size
    ]
    _drop_axes_input(model.graph, [n for _i, n in found])
    return [node_label(n, i) for i, n in found]


def _squeezes(model: onnx.ModelProto, only: frozenset[str] | None):
    """Main-graph Squeeze nodes whose input dims are all static, with the indices of their size-1 dims."""
    types = None
    for i, n in enumerate(model.graph.node):
        if n.op_type != "Squeeze" or not is_default_domain(n) or not chosen(only, node_label(n, i)):
            continue
        types = known(model) if types is None else types
        k = types.get(n.input[0])
        if k is None or k.dims is None or not all(isinstance(d, int) for d in k.dims):
            continue
        ones = [a for a, d in enumerate(k.dims) if d == 1]
        if ones:
            yield i, n, len(k.dims), ones


def squeeze_explicit(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Squeeze without axes (input dims all static, one or more of them 1) → Squeeze listing those axes."""
    import onnx

    taken = all_names(model)
    sites = []
    for i, n, _rank, ones in list(_squeezes(model, only)):
        if any(a.name == "axes" for a in n.attribute) or (len(n.input) > 1 and n.input[1]):
            continue
        if opset(model) < SQUEEZE_AXES_INPUT:
            n.attribute.append(onnx.helper.make_attribute("axes", ones))
        else:
            _axes_initializer(model, taken, n, ones)
        sites.append(node_label(n, i))
    return sites


def squeeze_omitted(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Squeeze whose static axes name exactly the size-1 dims of an all-static input → Squeeze without axes."""
    static = static_tensors(model.graph)
    found = []
    for i, n, rank, ones in list(_squeezes(model, only)):
        axes = static_axes(n, static)
        if axes and len(axes) == len(ones) and sorted({a % rank for a in axes if -rank <= a < rank}) == ones:
            drop_attribute(n, "axes")
            found.append((i, n))
    _drop_axes_input(model.graph, [n for _i, n in found])
    return [node_label(n, i) for i, n in found]


REWRITES = (
    Rewrite(
        "reduce-axes-empty",
        "Reduce* without an axes input (ReduceSum-13, Reduce*-18) → an empty int64 axes tensor",
        empty_axes,
        inverse="reduce-axes-empty-omitted",
    ),
    Rewrite(
        "reduce-axes-empty-omitted",
        "Reduce* reading a static empty axes tensor → the axes input left out",
        no_empty_axes,
        inverse="reduce-axes-empty",
    ),
    Rewrite(
        "squeeze-axes-explicit",
        "Squeeze without axes on an all-static input → Squeeze listing its size-1 dims",
        squeeze_explicit,
        inverse="squeeze-axes-omitted",
    ),
    Rewrite(
        "squeeze-axes-omitted",
        "Squeeze listing exactly the size-1 dims of an all-static input → Squeeze without axes",
        squeeze_omitted,
        inverse="squeeze-axes-explicit",
    ),
)

FREEDOMS = (
    Freedom(
        "reduce-axes-empty-or-omitted",
        "operator schemas",
        "Operators.md ReduceSum-13, Reduce*-18 (axes: when empty, either not provided or explicitly empty, "
        "noop_with_empty_axes decides: every axis reduced, or the identity)",
        "A Reduce's axes input may be left out or given as an empty tensor; both mean the same, whatever "
        "noop_with_empty_axes says.",
        ("reduce-axes-empty", "reduce-axes-empty-omitted"),
        "main-graph ReduceSum-13+ and Reduce*-18+ nodes (the empty tensor an int64 initializer; back: any static "
        "empty axes tensor, dropped when nothing else reads it); composes with reduce-axes-all-explicit / "
        "reduce-axes-omitted (every axis listed) at depth 2",
    ),
    Freedom(
        "squeeze-axes-omitted",
        "operator schemas",
        "Operators.md Squeeze-1/11/13/21 (axes not provided: every single dimension removed)",
        "On an input whose dims are all static, Squeeze may leave axes out or list exactly its size-1 dims.",
        ("squeeze-axes-explicit", "squeeze-axes-omitted"),
        "main-graph Squeeze nodes whose input dims onnx shape inference gives as numbers, one or more of them 1 "
        "(axes an attribute before opset 13, an int64 initializer from 13); a symbolic dim might be 1 at run "
        "time, so such inputs are left alone",
    ),
)
