"""Parameters a schema lets a writer spell two ways (issue 27, schema walk). ONNX operator spec:

- Transpose-1/13/21: "By default, reverse the dimensions", so a missing ``perm`` is
  ``[r-1, …, 0]`` for a rank-``r`` input; the explicit list means the same.
- Relu-6/13/14: ``y = max(0, x)``, which is Max-8+ (``Max(x, 0)``, a scalar 0 broadcast) and
  Clip-11+ with ``min = 0`` and no ``max`` ("no bound": Clip-11 takes the type's largest value).
- Split-13: without ``split`` "the tensor is split to equal sized parts"; Split-18: ``num_outputs``
  splits into chunks of ``ceil(d / n)``, the last one smaller; either way the same pieces as the
  explicit ``split`` sizes (an input from 13, an attribute before: Split-2/11).

Transpose with its perm written out loses it in every scope (the rank is the list's length);
writing it needs the rank from shape inference, so main graph only; Relu and Split need element
types or dims, main graph only. Sites are the rewritten nodes."""

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
    static_tensors,
    subgraphs,
)
from passcheck.mutations._graph_edit import attr_value, drop_attribute, int64_constant, splice
from passcheck.mutations._schema_types import BFLOAT16, accepts
from passcheck.mutations._shapes import known
from passcheck.mutations.catalogue import Freedom

if TYPE_CHECKING:
    import onnx

#: Max broadcasts from 8; Clip takes its bounds as inputs from 11; Split takes ``split`` as an input
#: from 13 and ``num_outputs`` from 18.
MAX_OPSET, CLIP_INPUTS, SPLIT_INPUT, SPLIT_NUM_OUTPUTS = 8, 11, 13, 18


def transpose_perm_explicit(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Transpose without ``perm`` → ``perm = [r-1, …, 0]`` (main graph, rank from shape inference)."""
    import onnx

    types, sites = known(model), []
    for i, n in enumerate(model.graph.node):
        k = types.get(n.input[0]) if n.input else None
        if (
            n.op_type != "Transpose"
            or not is_default_domain(n)
            or attr_value(n, "perm") is not None
            or k is None
            or k.rank is None
            or not chosen(only, label := node_label(n, i))
        ):
            continue
        n.attribute.append(onnx.helper.make_attribute("perm", list(range(k.rank))[::-1]))
        sites.append(label)
    return sites


def transpose_perm_omitted(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Transpose with ``perm = [r-1, …, 0]`` → no ``perm``, in every scope (main graph labels as
    usual; nodes of subgraphs and function bodies by name, or ``GRAPH#index:Transpose``)."""
    sites: list[str] = []

    def walk(g: onnx.GraphProto, scope: str) -> None:
        for i, n in enumerate(g.node):
            label = node_label(n, i) if not scope or n.name else f"{scope}/{node_label(n, i)}"
            # a perm read by reference in a function body (IR.md §Functions) is the caller's: no value here
            by_ref = any(a.name == "perm" and a.ref_attr_name for a in n.attribute)
            perm = None if by_ref else attr_value(n, "perm")
            if (
                n.op_type == "Transpose"
                and is_default_domain(n)
                and perm is not None
                and list(perm) == list(range(len(perm)))[::-1]
                and chosen(only, label)
            ):
                drop_attribute(n, "perm")
                sites.append(label)
            for sg in subgraphs(n):
                walk(sg, sg.name)

    walk(model.graph, "")
    for f in model.functions:
        walk(f, f.name)  # a FunctionProto has .node like a graph
    return sites


def _zero(taken: set[str], base: str, elem_type: int) -> onnx.NodeProto:
    import numpy as np
    import onnx
    from onnx import numpy_helper

    out = fresh_name(taken, base)
    value = numpy_helper.from_array(np.array(0, onnx.helper.tensor_dtype_to_np_dtype(elem_type)))
    return onnx.helper.make_node("Constant", [], [out], name=fresh_name(taken, f"{out}_node"), value=value)


def _relu_as(op: str, since: int):
    def edit(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
        g, types, version = model.graph, known(model), opset(model)
        if version < since:
            return []
        taken, before, sites = all_names(model), {}, []
        for i, n in enumerate(g.node):
            k = types.get(n.input[0]) if n.input else None
            if (
                n.op_type != "Relu"
                or not is_default_domain(n)
                or k is None
                or k.elem_type in (0, BFLOAT16)
                or not accepts(op, version, k.elem_type)
                or not accepts("Constant", version, k.elem_type)
                or not chosen(only, label := node_label(n, i))
            ):
                continue
            zero = _zero(taken, f"{n.output[0]}_zero", k.elem_type)
            before[i] = [zero]
            n.op_type = op
            n.input.append(zero.output[0])
            sites.append(label)
        if sites:
            splice(g, before)
        return sites

    edit.__doc__ = f"Relu(x) → {op}(x, 0) (opset >= {since}; element types {op} takes, bfloat16 left out)."
    return edit


def _equal_sizes(dim: int, parts: int, version: int) -> list[int] | None:
    """The sizes Split gives ``parts`` outputs of a ``dim`` without ``split`` (None: no valid split)."""
    if parts < 1 or dim < parts:
        return None
    if version >= SPLIT_NUM_OUTPUTS:
        chunk = -(-dim // parts)
        last = dim - chunk * (parts - 1)
        return None if last <= 0 else [chunk] * (parts - 1) + [last]
    return None if dim % parts else [dim // parts] * parts


def _split_dim(n: onnx.NodeProto, types) -> int | None:
    k = types.get(n.input[0])
    if k is None or k.rank is None:
        return None
    axis = attr_value(n, "axis", 0)
    dim = k.dims[axis] if -k.rank <= axis < k.rank else None
    return dim if isinstance(dim, int) else None


def split_sizes_explicit(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Split into equal parts (no ``split``; ``num_outputs`` at 18+) → the explicit sizes of a static dim."""
    import onnx

    g, types, version = model.graph, known(model), opset(model)
    taken, before, sites = all_names(model), {}, []
    for i, n in enumerate(g.node):
        split_given = (len(n.input) > 1 and n.input[1]) or attr_value(n, "split") is not None
        if (
            n.op_type != "Split"
            or not is_default_domain(n)
            or split_given
            or not chosen(only, label := node_label(n, i))
        ):
            continue
        dim = _split_dim(n, types)
        sizes = None if dim is None else _equal_sizes(dim, len(n.output), version)
        if sizes is None:
            continue
        if version >= SPLIT_INPUT:
            c = int64_constant(taken, f"{n.output[0]}_split", sizes)
            before[i] = [c]
            del n.input[1:]
            n.input.append(c.output[0])
            drop_attribute(n, "num_outputs")
        else:
            n.attribute.append(onnx.helper.make_attribute("split", sizes))
        sites.append(label)
    if sites:
        splice(g, before)
    return sites


def split_equal_parts(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Split with static sizes that are the equal parts of a static dim → no ``split`` (``num_outputs`` at 18+)."""
    import onnx
    from onnx import numpy_helper

    g, types, version = model.graph, known(model), opset(model)
    static, sites, freed = static_tensors(g), [], set()
    for i, n in enumerate(g.node):
        if n.op_type != "Split" or not is_default_domain(n) or not chosen(only, label := node_label(n, i)):
            continue
        as_input = version >= SPLIT_INPUT and len(n.input) > 1 and n.input[1] in static
        if as_input:
            sizes = [int(v) for v in numpy_helper.to_array(static[n.input[1]]).reshape(-1)]
        else:
            sizes = attr_value(n, "split")
        dim = _split_dim(n, types)
        if sizes is None or dim is None or list(sizes) != _equal_sizes(dim, len(n.output), version):
            continue
        if as_input:
            freed.add(n.input[1])
            del n.input[1:]
        else:
            drop_attribute(n, "split")
        if version >= SPLIT_NUM_OUTPUTS:
            n.attribute.append(onnx.helper.make_attribute("num_outputs", len(n.output)))
        sites.append(label)
    drop_unused(g, freed)
    return sites


REWRITES = (
    Rewrite(
        "transpose-perm-explicit",
        "Transpose without perm → perm = [r-1 … 0] (the default reversal written out)",
        transpose_perm_explicit,
        inverse="transpose-perm-omitted",
    ),
    Rewrite(
        "transpose-perm-omitted",
        "Transpose(perm = [r-1 … 0]) → no perm (every scope)",
        transpose_perm_omitted,
        inverse="transpose-perm-explicit",
    ),
    Rewrite("relu-as-max", "Relu(x) → Max(x, 0) (opset >= 8)", _relu_as("Max", MAX_OPSET)),
    Rewrite("relu-as-clip", "Relu(x) → Clip(x, 0) with max omitted (opset >= 11)", _relu_as("Clip", CLIP_INPUTS)),
    Rewrite(
        "split-sizes-explicit",
        "Split into equal parts (no split / num_outputs) → explicit split sizes",
        split_sizes_explicit,
        inverse="split-equal-parts",
    ),
    Rewrite(
        "split-equal-parts",
        "Split with equal static sizes → no split (num_outputs at opset >= 18)",
        split_equal_parts,
        inverse="split-sizes-explicit",
    ),
)

FREEDOMS = (
    Freedom(
        "transpose-perm-omitted",
        "operator schemas",
        "Operators.md Transpose-1/13/21 (perm: by default, reverse the dimensions)",
        "Transpose without perm reverses the axes, the same as perm = [r-1 … 0].",
        ("transpose-perm-explicit", "transpose-perm-omitted"),
        "written out on main-graph Transposes whose input rank shape inference knows; dropped in every scope "
        "(main graph, subgraphs, function bodies: the rank is the list's length)",
    ),
    Freedom(
        "relu-as-clip-or-max",
        "algebra",
        "Operators.md Relu-6/13/14 (y = max(0, x)), Max-8+, Clip-11+ (a missing max: no upper bound)",
        "Relu(x) is Clip(x, 0) with max omitted and Max(x, 0).",
        ("relu-as-max", "relu-as-clip"),
        "main-graph Relu nodes of a known element type the target op takes at the model's opset (bfloat16 left "
        "out); one way (recognising Relu is a fusion pass's job; the case family fusions_conv writes them too)",
    ),
    Freedom(
        "split-equal-or-sizes",
        "operator schemas",
        "Operators.md Split-2/11 (split attribute), Split-13 (split input; omitted: equal parts), Split-18 "
        "(num_outputs: chunks of ceil(d/n), the last smaller)",
        "A Split into equal parts may name no sizes (num_outputs from 18) or list them explicitly.",
        ("split-sizes-explicit", "split-equal-parts"),
        "main-graph Split nodes whose split axis has a static dim; sizes as an input from opset 13, as an "
        "attribute before; uneven num_outputs chunks at 18+ included",
    ),
)
