"""Attribute-level spellings that fusion passes match on (ONNX operator spec):

- Conv-1/11 and MaxPool-8/10/11/12 ``auto_pad``: SAME_UPPER / SAME_LOWER pad so that each spatial
  output dim is ceil(in / stride), the total padding max(0, (out - 1) * stride + (k - 1) * dilation
  + 1 - in) split evenly, the odd one at the end (UPPER) or the beginning (LOWER); VALID pads
  nothing. On static spatial dims the same padding may be written as NOTSET with explicit ``pads``.
- Gemm-7+ ``transB``: B' = transpose(B) when set. A static B stored transposed (as an initializer or a Constant,
  as it was) with the flag flipped gives the same B' element for element.
- CastLike-15/19/21: the output is the input cast to the element type of ``target_type``, the same
  as Cast with ``to`` set to that type (``saturate`` on both from 19).

Main graph only; sites are the rewritten nodes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations._base import (
    Rewrite,
    all_names,
    chosen,
    consumers,
    drop_unused,
    is_default_domain,
    node_label,
    opset,
    static_tensors,
)
from passcheck.mutations._graph_edit import attr_value, drop_attribute, edit_sites, splice
from passcheck.mutations._shapes import known
from passcheck.mutations.catalogue import Freedom
from passcheck.mutations.index_sign import _constant, fresh_static

if TYPE_CHECKING:
    import onnx

#: onnx.TensorProto element types with a plain numpy dtype (no bfloat16, 8/4-bit floats, int4, strings).
_PLAIN_TYPES = frozenset((1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 13))
_PADDED = {"Conv": 1, "MaxPool": 8}  # op → lowest opset handled (MaxPool-8: dilations come at 10, default 1)


def _geometry(n: onnx.NodeProto, types) -> tuple[list[int], list[int], list[int], list[int]] | None:
    """(spatial input dims, kernel dims, strides, dilations), each static, or None."""
    k = types.get(n.input[0])
    if k is None or k.rank is None or k.rank < 3:
        return None
    spatial = list(k.dims[2:])
    kernel = attr_value(n, "kernel_shape")
    if kernel is None and n.op_type == "Conv":
        w = types.get(n.input[1]) if len(n.input) > 1 else None
        kernel = None if w is None or w.dims is None else list(w.dims[2:])
    if kernel is None or len(kernel) != len(spatial) or not all(isinstance(d, int) for d in (*spatial, *kernel)):
        return None
    strides = list(attr_value(n, "strides", [1] * len(spatial)))
    dilations = list(attr_value(n, "dilations", [1] * len(spatial)))
    if len(strides) != len(spatial) or len(dilations) != len(spatial):
        return None  # a malformed node: left to the checker, never a rewrite's crash
    return spatial, list(kernel), strides, dilations


def _same_pads(geo, lower: bool) -> list[int] | None:
    begins, ends = [], []
    for size, k, s, d in zip(*geo, strict=True):
        out = -(-size // s)
        total = (out - 1) * s + (k - 1) * d + 1 - size
        if total < 0:
            return None  # runtimes differ on negative totals: left alone
        begins.append((total + 1) // 2 if lower else total // 2)
        ends.append(total - begins[-1])
    return begins + ends


def _pads(model: onnx.ModelProto, only: frozenset[str] | None, explicit: bool) -> list[str]:
    import onnx

    g, types, version, sites = model.graph, known(model), opset(model), []
    for i, n in enumerate(g.node):
        if (
            n.op_type not in _PADDED
            or version < _PADDED[n.op_type]
            or not is_default_domain(n)
            or attr_value(n, "ceil_mode", 0)
            or not chosen(only, label := node_label(n, i))
        ):
            continue
        geo = _geometry(n, types)
        if geo is None:
            continue
        mode = attr_value(n, "auto_pad", b"NOTSET")
        mode = mode.decode() if isinstance(mode, bytes) else mode
        if explicit:
            if mode == "VALID":
                pads = [0] * (2 * len(geo[0]))
            elif mode in ("SAME_UPPER", "SAME_LOWER"):
                pads = _same_pads(geo, lower=mode == "SAME_LOWER")
            else:
                continue
            if pads is None:
                continue
            drop_attribute(n, "auto_pad")
            drop_attribute(n, "pads")
            n.attribute.append(onnx.helper.make_attribute("pads", pads))
        else:
            if mode != "NOTSET":
                continue
            pads = list(attr_value(n, "pads", [0] * (2 * len(geo[0]))))
            named = next(
                (
                    m
                    for m, want in (
                        ("VALID", [0] * len(pads)),
                        ("SAME_UPPER", _same_pads(geo, False)),
                        ("SAME_LOWER", _same_pads(geo, True)),
                    )
                    if want == pads
                ),
                None,
            )
            if named is None:
                continue
            drop_attribute(n, "auto_pad")
            drop_attribute(n, "pads")
            n.attribute.append(onnx.helper.make_attribute("auto_pad", named))
        sites.append(label)
    return sites


def pads_explicit(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Conv/MaxPool with auto_pad SAME_UPPER/SAME_LOWER/VALID on static spatial dims → explicit pads."""
    return _pads(model, only, explicit=True)


def pads_named(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Conv/MaxPool with explicit pads (or none) equal to what an auto_pad mode gives → that auto_pad."""
    return _pads(model, only, explicit=False)


def gemm_transposed_b(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Each static 2-D B that Gemms alone read, each as its B: B stored transposed once and every reader's
    ``transB`` flipped together (round 18e, M360). IR.md lets any number of nodes read one initializer, and an
    exported model shares a weight wherever a layer is called twice; one transposed copy serves every reader
    because each reads it the same way (Operators.md Gemm: ``B' = transpose(B)`` when ``transB``). A constant
    also read by another op, or by a Gemm as A or C, is left alone. Site: the Gemm's label, or for a shared B its
    readers' labels joined by ``..`` (one form per constant, the group flipped as one; a neighbour that adds a
    reader, :mod:`passcheck.hunt.vary_twin_output`, then changes the site, so a composition takes it)."""
    import onnx
    from onnx import numpy_helper

    g, static, readers = model.graph, static_tensors(model.graph), consumers(model.graph)
    if opset(model) < 7:
        return []
    outputs = {o.name for o in g.output}
    groups: dict[str, list[int]] = {}
    for i, n in enumerate(g.node):
        if n.op_type == "Gemm" and is_default_domain(n) and len(n.input) > 1:
            groups.setdefault(n.input[1], []).append(i)
    taken, before, sites, freed = all_names(model), {}, [], set()
    for b, group in groups.items():
        if b not in static or b in outputs or len(static[b].dims) != 2 or readers.get(b) != group:
            continue  # readers[b] lists a node once per slot: equal to the group when each reads it once, as B
        label = "..".join(node_label(g.node[i], i) for i in group)  # a compound site: every reader named
        if not chosen(only, label):
            continue
        made = fresh_static(g, taken, f"{b}_t", numpy_helper.to_array(static[b]).T.copy(), b)
        name = made[0].output[0] if made else g.initializer[-1].name
        for i in group:
            n = g.node[i]
            flag = 1 - attr_value(n, "transB", 0)
            drop_attribute(n, "transB")
            n.attribute.append(onnx.helper.make_attribute("transB", flag))
            n.input[1] = name
        freed.add(b)
        before[group[0]] = made
        sites.append(label)
    if sites:
        splice(g, before)
        drop_unused(g, freed)
    return sites


def _castlike_attrs(version: int) -> set[str]:
    import onnx

    try:
        return set(onnx.defs.get_schema("CastLike", version).attributes)
    except onnx.defs.SchemaError:
        return set()


def cast_as_castlike(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Cast(x, to=T) → CastLike(x, c) with c a one-element constant of type T (opset >= 15; numeric T and bool)."""
    import numpy as np
    import onnx

    g, version = model.graph, opset(model)
    if version < 15:
        return []
    allowed = _castlike_attrs(version)
    taken, before, sites = all_names(model), {}, []
    for i, n in enumerate(g.node):
        if n.op_type != "Cast" or not is_default_domain(n) or not chosen(only, label := node_label(n, i)):
            continue
        to = attr_value(n, "to")
        if to not in _PLAIN_TYPES:
            continue
        dtype = onnx.helper.tensor_dtype_to_np_dtype(to)
        if any(a.name not in allowed | {"to"} for a in n.attribute):
            continue
        c = _constant(taken, f"{n.output[0]}_like", np.zeros([1], dtype))
        n.op_type = "CastLike"
        drop_attribute(n, "to")
        n.input.append(c.output[0])
        before[i] = [c]
        sites.append(label)
    if sites:
        splice(g, before)
    return sites


def castlike_as_cast(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """CastLike(x, like) whose like has a known element type → Cast(x, to=that type)."""
    import onnx

    types = known(model)

    def cast(_i: int, n: onnx.NodeProto) -> list[str] | None:
        if n.op_type != "CastLike" or not is_default_domain(n):
            return None
        k = types.get(n.input[1])
        if k is None or not k.elem_type:
            return None
        freed = [n.input[1]]
        n.op_type = "Cast"
        del n.input[1:]
        n.attribute.append(onnx.helper.make_attribute("to", k.elem_type))
        return freed

    return edit_sites(model.graph, only, cast)


REWRITES = (
    Rewrite(
        "auto-pad-explicit",
        "Conv/MaxPool auto_pad SAME_UPPER/SAME_LOWER/VALID → NOTSET with the pads it means (static spatial dims)",
        pads_explicit,
        inverse="auto-pad-named",
    ),
    Rewrite(
        "auto-pad-named",
        "Conv/MaxPool explicit pads (or none) equal to an auto_pad mode's → that auto_pad (static spatial dims)",
        pads_named,
        inverse="auto-pad-explicit",
    ),
    Rewrite(
        "gemm-transposed-weight",
        "Gemms alone reading a static B, each as B → B stored transposed once, every reader's transB flipped (its own "
        "inverse)",
        gemm_transposed_b,
        inverse="gemm-transposed-weight",
    ),
    Rewrite(
        "cast-as-castlike",
        "Cast(x, to=T) → CastLike(x, one-element constant of T) (opset >= 15)",
        cast_as_castlike,
        inverse="castlike-as-cast",
    ),
    Rewrite(
        "castlike-as-cast",
        "CastLike(x, like) with like's element type known → Cast(x, to=it)",
        castlike_as_cast,
        inverse="cast-as-castlike",
    ),
)

FREEDOMS = (
    Freedom(
        "auto-pad-or-pads",
        "attributes",
        "Operators.md Conv-1/11, MaxPool-8/10/11/12 (auto_pad SAME_UPPER/SAME_LOWER: output ceil(in/stride), "
        "the odd pad at the end/beginning; VALID: no padding; pads: used with NOTSET)",
        "On static spatial dims, the padding an auto_pad mode computes may be written as NOTSET with explicit "
        "pads, and explicit pads equal to a mode's (zeros: VALID) as that mode.",
        ("auto-pad-explicit", "auto-pad-named"),
        "main-graph Conv and MaxPool nodes (ceil_mode 0) whose input spatial dims and kernel are static; "
        "a negative SAME total left alone; AveragePool and ConvTranspose not handled",
    ),
    Freedom(
        "gemm-stored-transposed",
        "algebra",
        "Operators.md Gemm-7/9/11/13 (transB: B is transposed before the product); onnx.proto TensorProto "
        "(row-major storage)",
        "A static Gemm B may be stored as it is used (transB 0) or transposed (transB 1); B' is the same.",
        ("gemm-transposed-weight",),
        "main-graph Gemm nodes whose B is a 2-D initializer or Constant no other node reads; its own inverse",
    ),
    Freedom(
        "cast-or-castlike",
        "operator schemas",
        "Operators.md CastLike-15/19/21 (the element type of target_type is the type cast to), Cast-13/19/21",
        "A cast to type T may be Cast with to = T or CastLike with any tensor of type T as its target_type.",
        ("cast-as-castlike", "castlike-as-cast"),
        "main-graph Cast nodes to numeric or bool types (bfloat16 and 8-bit floats left out) whose attributes "
        "CastLike takes at the model's opset; back: CastLike whose target_type's element type is known",
    ),
)
