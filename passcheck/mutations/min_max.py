"""Two more exact op sequences (issue 27). ONNX operator spec:

- ``Neg(x)`` ↔ ``Mul(x, -1)``: IEEE 754 multiplication by -1 flips the sign exactly (NaN payloads
  aside), and two's complement wraps ``x * -1`` as it wraps ``-x``; float and signed integer types.
- ``Clip(x, lo, hi)`` (Clip-11+, bounds as inputs) → ``Min(Max(x, lo), hi)`` (Max-8 / Min-8+:
  multidirectional broadcasting of the scalar bound), a missing bound giving no Max or Min;
  ``lo > hi`` gives ``hi`` everywhere both ways (Clip-13: "sets all the input values to max").

Main graph only; sites are the rewritten nodes; element types from shape inference."""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite, all_names, chosen, fresh_name, is_default_domain, node_label, opset
from passcheck.mutations._graph_edit import splice
from passcheck.mutations._schema_types import BFLOAT16, FLOATS, SIGNED_INTS, accepts
from passcheck.mutations._shapes import known
from passcheck.mutations.catalogue import Freedom

if TYPE_CHECKING:
    import onnx

#: Mul broadcasts without attributes from 7; Max/Min from 8; Clip takes its bounds as inputs from 11.
MUL_OPSET, MAX_MIN_OPSET, CLIP_INPUTS = 7, 8, 11


def neg_to_mul(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Neg(x) → Mul(x, -1) for float (not bfloat16) and signed integer x (opset >= 7)."""
    import numpy as np
    import onnx
    from onnx import numpy_helper

    g, types, version = model.graph, known(model), opset(model)
    if version < MUL_OPSET:
        return []
    taken, before, sites = all_names(model), {}, []
    for i, n in enumerate(g.node):
        k = types.get(n.input[0]) if n.input else None
        types_ok = k is not None and k.elem_type in (FLOATS | SIGNED_INTS) - {BFLOAT16}
        if (
            n.op_type != "Neg"
            or not is_default_domain(n)
            or not types_ok
            or not accepts("Mul", version, k.elem_type)
            or not accepts("Constant", version, k.elem_type)
            or not chosen(only, label := node_label(n, i))
        ):
            continue
        c = fresh_name(taken, f"{n.output[0]}_minus_one")
        value = numpy_helper.from_array(np.array(-1, onnx.helper.tensor_dtype_to_np_dtype(k.elem_type)))
        before[i] = [onnx.helper.make_node("Constant", [], [c], name=fresh_name(taken, f"{c}_node"), value=value)]
        n.op_type = "Mul"
        n.input.append(c)
        sites.append(label)
    if sites:
        splice(g, before)
    return sites


def clip_to_max_min(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Clip-11+(x, lo, hi) → Min(Max(x, lo), hi), a missing bound leaving out its op (opset >= 11)."""
    import onnx

    g, types, version = model.graph, known(model), opset(model)
    if version < CLIP_INPUTS:
        return []
    taken, replace, sites = all_names(model), {}, []
    for i, n in enumerate(g.node):
        k = types.get(n.input[0]) if n.input else None
        ins = list(n.input) + [""] * (3 - len(n.input))
        if (
            n.op_type != "Clip"
            or not is_default_domain(n)
            or k is None
            or not (ins[1] or ins[2])
            or not all(accepts(op, version, k.elem_type) for op in ("Max", "Min"))
            or not chosen(only, label := node_label(n, i))
        ):
            continue
        nodes, current, out = [], ins[0], n.output[0]
        for op, bound in (("Max", ins[1]), ("Min", ins[2])):
            if bound:
                last = op == "Min" or not ins[2]
                target = out if last else fresh_name(taken, f"{out}_max")
                name = fresh_name(taken, f"{target}_{op.lower()}")
                nodes.append(onnx.helper.make_node(op, [current, bound], [target], name=name))
                current = target
        replace[i] = nodes
        sites.append(label)
    if sites:
        splice(g, replace=replace)
    return sites


REWRITES = (
    Rewrite("neg-as-mul-minus-one", "Neg(x) → Mul(x, -1) (float, signed int; exact)", neg_to_mul),
    Rewrite(
        "clip-as-max-min", "Clip(x, lo, hi) → Min(Max(x, lo), hi) (Clip-11+; a missing bound: no op)", clip_to_max_min
    ),
)

FREEDOMS = (
    Freedom(
        "neg-as-mul-minus-one",
        "algebra",
        "Operators.md Neg, Mul; IEEE 754 (multiplying by -1 is exact)",
        "Neg(x) is x * (-1), exact for floats (a sign flip) and signed integers (both wrap alike).",
        ("neg-as-mul-minus-one",),
        "main-graph Neg nodes of float or signed-int type; opset >= 7; one way "
        "(add-neg-as-sub and neutral-remove read the Neg spelling)",
    ),
    Freedom(
        "clip-as-max-min",
        "algebra",
        "Operators.md Clip-11/12/13, Max-8+, Min-8+",
        "Clip(x, lo, hi) is Min(Max(x, lo), hi); with one bound, one Max or one Min.",
        ("clip-as-max-min",),
        "main-graph Clip-11+ nodes with at least one bound of a type Max and Min take; one way (the hand-written "
        "cases optional-input/clip-min-only and clip-max-only write Max/Min against Clip)",
    ),
)
