"""Spelling kinds: from one runnable node, pairs of forms that differ in one spelling each.

Each kind is a function ``(node, ctx) → [Pair]``; a kind that does not apply returns ``[]``.
Forms are :class:`~passcheck.generate.recipe.Node` s (built into models with a shape mode), so a
pair changes exactly one thing: an optional input's spelling, an attribute's presence, an axis
sign, the opset stamp, the graph input shapes.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import numpy as np
import onnx
import onnx.defs

from passcheck.generate.recipe import NO_VALUE, Input, Node, table_row, type_name

A = onnx.AttributeProto


@dataclasses.dataclass
class Ctx:
    """What a kind needs beyond the node: the schema's opset range and its previous version."""

    last_opset: int  # the newest opset at which this schema still holds (capped by onnxruntime)
    previous: Node | None  # the op's recipe under the previous schema (at since_version - 1), if any


@dataclasses.dataclass
class Pair:
    """Forms of one computation: name → (node, shape mode, doc); the first is ``common``."""

    kind: str
    detail: str
    forms: dict[str, tuple[Node, str, str]]
    doc: str


def _rank(node: Node) -> int:
    return max((len(i.shape) for i in node.inputs if i.value is None and not i.empty), default=0)


def shapes(node: Node, ctx: Ctx) -> list[Pair]:
    if not any(i.value is None and not i.empty and i.shape for i in node.inputs):
        return []
    return [
        Pair(
            "shape",
            "",
            {
                "common": (node, "static", ""),
                "symbolic": (node, "symbolic", "graph input dims as dim_param"),
                "anonymous": (node, "anonymous", "graph input dims with neither dim_value nor dim_param"),
            },
            "graph input shapes static vs symbolic vs anonymous",
        )
    ]


def opset_stamp(node: Node, ctx: Ctx) -> list[Pair]:
    if node.domain or ctx.last_opset <= node.opset:
        return []
    hi = node.copy()
    hi.opset = ctx.last_opset
    return [
        Pair(
            "opset",
            "",
            {
                "common": (node, "static", ""),
                f"opset{ctx.last_opset}": (
                    hi,
                    "static",
                    f"the same graph stamped opset {ctx.last_opset}, the last before the schema changes",
                ),
            },
            f"opset stamp {node.opset} (since_version) vs {ctx.last_opset} (last with this schema)",
        )
    ]


def _zero(atype: int):
    return {A.INT: 0, A.FLOAT: 0.0, A.STRING: "", A.INTS: [], A.FLOATS: []}.get(atype)


def attr_defaults(node: Node, ctx: Ctx) -> list[Pair]:
    out = []
    for name, a in node.schema.attributes.items():
        if (
            name in node.attrs
            or a.default_value.type == 0
            or a.type not in (A.INT, A.FLOAT, A.STRING, A.INTS, A.FLOATS)
        ):
            continue
        value = onnx.helper.get_attribute_value(a.default_value)
        if isinstance(value, bytes):
            value = value.decode()
        explicit = node.copy()
        explicit.attrs[name] = value
        out.append(
            Pair(
                "attr-default",
                name.lower().replace("_", "-"),
                {"common": (node, "static", ""), "explicit": (explicit, "static", f"{name}={value!r} written out")},
                f"attribute {name} omitted vs written with its default {value!r}",
            )
        )
    return out


def attr_no_value(node: Node, ctx: Ctx) -> list[Pair]:
    """An attribute whose proto3 default (0, 0.0, "", []) is a valid value: explicit vs value field unset."""
    out = []
    for name, a in node.schema.attributes.items():
        zero = _zero(int(a.type))
        if zero is None or a.type == A.STRING:
            continue
        current = node.attrs.get(name)
        if current is not None and current != zero:
            continue
        default = onnx.helper.get_attribute_value(a.default_value) if a.default_value.type else None
        # only flags, axes and lists whose zero value is meaningful for every op
        if not (a.type == A.INT and (default in (0, 1) or name == "axis")):
            continue
        zeroed, unset = node.copy(), node.copy()
        zeroed.attrs[name] = zero
        unset.attrs[name] = NO_VALUE
        out.append(
            Pair(
                "attr-no-value",
                name.lower().replace("_", "-"),
                {
                    "common": (zeroed, "static", ""),
                    "no-value-field": (
                        unset,
                        "static",
                        f"{name} present with type and no value field (proto3 default {zero!r})",
                    ),
                },
                f"attribute {name}={zero!r} written vs present with its value field unset",
            )
        )
    return out


def optional_inputs(node: Node, ctx: Ctx) -> list[Pair]:

    opts = [f for f in node.schema.inputs if f.option == onnx.defs.OpSchema.FormalParameterOption.Optional]
    if not opts:
        return []
    given = {i.name for i in node.inputs if not i.empty}
    n_formal = len(node.schema.inputs)
    forms: dict[str, tuple[Node, str, str]] = {"common": (node, "static", "")}
    if len(node.inputs) < n_formal and all(
        f.option != onnx.defs.OpSchema.FormalParameterOption.Variadic for f in node.schema.inputs
    ):
        padded = node.copy()
        while len(padded.inputs) < n_formal:
            padded.inputs.append(Input("", onnx.TensorProto.FLOAT, (), empty=True))
        forms["trailing-empty"] = (padded, "static", 'every omitted optional input written as ""')
        one = node.copy()
        one.inputs.append(Input("", onnx.TensorProto.FLOAT, (), empty=True))
        if len(one.inputs) != len(padded.inputs):
            forms["one-empty"] = (one, "static", 'the first omitted optional input written as ""')
    defaults = table_row(node.schema).get("defaults", {})
    explicit = node.copy()
    changed = []
    for k, f in enumerate(node.schema.inputs):
        if f.name in defaults and f.name not in given and k <= len(explicit.inputs):
            d = defaults[f.name]
            p = f.type_str if f.type_str.startswith("tensor(") else None
            elem = node.dtypes.get(f.type_str) if p is None else None
            from passcheck.generate.recipe import elem_type

            inp = Input(f.name, elem if elem is not None else elem_type(p), tuple(np.shape(d)), value=d)
            if k < len(explicit.inputs):
                if not explicit.inputs[k].empty:
                    continue
                explicit.inputs[k] = inp
            else:
                explicit.inputs.append(inp)
            changed.append(f.name)
    if changed:
        forms["explicit-default"] = (
            explicit,
            "static",
            f"{', '.join(changed)} given explicitly with the default value",
        )
    if len(forms) < 2:
        return []
    return [Pair("optional-input", "", forms, 'optional inputs omitted vs "" vs given with their default')]


def _axis_attr(node: Node) -> list[Pair]:
    out = []
    r = _rank(node)
    if "axis" in node.schema.attributes and node.schema.attributes["axis"].type == A.INT and node.opset >= 11 and r:
        a = node.schema.attributes["axis"]
        cur = node.attrs.get("axis", onnx.helper.get_attribute_value(a.default_value) if a.default_value.type else None)
        if cur is not None:
            pos = cur % r if cur < 0 else cur
            neg = pos - r
            p, n = node.copy(), node.copy()
            p.attrs["axis"], n.attrs["axis"] = pos, neg
            out.append(
                Pair(
                    "axis",
                    "",
                    {"common": (p, "static", ""), "negative": (n, "static", f"axis={neg} instead of {pos}")},
                    "axis positive vs negative",
                )
            )
    return out


def _axes_value(node: Node) -> Input | None:
    return next((i for i in node.inputs if i.name == "axes" and i.value is not None), None)


def axes(node: Node, ctx: Ctx) -> list[Pair]:
    out = _axis_attr(node)
    r = _rank(node)
    if node.op == "Unsqueeze":  # its axes index the output, whose rank adds one per axis
        listed = node.attrs.get("axes") if isinstance(node.attrs.get("axes"), list) else None
        inp0 = _axes_value(node)
        r += len(listed if listed is not None else (np.ravel(inp0.value) if inp0 is not None else []))
    if not r or node.opset < 11:
        return out
    inp = _axes_value(node)
    attr = "axes" in node.schema.attributes and node.schema.attributes["axes"].type == A.INTS
    if attr and "axes" in node.attrs and node.attrs["axes"] not in (NO_VALUE, []):
        vals = list(node.attrs["axes"])
        forms = {"common": (node, "static", "")}
        neg = node.copy()
        neg.attrs["axes"] = [v - r if v >= 0 else v for v in vals]
        forms["negative"] = (neg, "static", f"axes={neg.attrs['axes']}")
        if len(vals) > 1 and not node.schema.name.startswith("Unsqueeze"):
            un = node.copy()
            un.attrs["axes"] = sorted(vals, reverse=True)
            forms["unsorted"] = (un, "static", f"axes={un.attrs['axes']} (unsorted)")
        out.append(Pair("axes", "attribute", forms, "axes attribute positive vs negative vs unsorted"))
    if inp is not None:
        vals = list(np.ravel(inp.value))
        forms = {"common": (node, "static", "")}
        neg = node.copy()
        _axes_value(neg).value = [v - r if v >= 0 else v for v in vals]
        forms["negative"] = (neg, "static", f"axes input {_axes_value(neg).value}")
        if len(vals) > 1 and not node.schema.name.startswith("Unsqueeze"):
            un = node.copy()
            _axes_value(un).value = sorted(vals, reverse=True)
            forms["unsorted"] = (un, "static", "axes input unsorted")
        out.append(Pair("axes", "input", forms, "axes input positive vs negative vs unsorted"))
    # reductions: no axes (= all axes, noop_with_empty_axes=0) vs every axis listed vs empty axes tensor
    if node.schema.name.startswith("Reduce") and node.attrs.get("noop_with_empty_axes", 0) == 0:
        none = node.copy()
        none.inputs = [i for i in none.inputs if i.name != "axes"]
        none.attrs.pop("axes", None)
        forms = {"common": (none, "static", "")}
        every = node.copy()
        if inp is not None:
            _axes_value(every).value = list(range(r))
            empty = node.copy()
            _axes_value(empty).value = np.zeros((0,), np.int64)
            forms["empty-axes-input"] = (empty, "static", "axes input an empty tensor (reduce over all axes)")
        elif attr:
            every.attrs["axes"] = list(range(r))
        forms["all-axes-listed"] = (every, "static", f"every axis listed: {list(range(r))}")
        out.append(Pair("axes", "all", forms, "axes omitted vs every axis listed vs an empty axes tensor"))
    return out


def attr_to_input(node: Node, ctx: Ctx) -> list[Pair]:
    """Inputs that were attributes under the previous schema: as initializer / Constant / computed
    value at opset N, and as the attribute at opset N-1."""
    prev = ctx.previous
    out = []
    for inp in node.inputs:
        if inp.value is None or inp.empty:
            continue
        forms = {"common": (node, "static", "")}
        modes = [("constant", "a Constant node")] if node.opset >= 9 else []
        if node.opset >= 9 and inp.elem in (
            onnx.TensorProto.FLOAT,
            onnx.TensorProto.DOUBLE,
            onnx.TensorProto.INT32,
            onnx.TensorProto.INT64,
        ):
            modes.append(("computed", "a value computed from Constants (Add of zero)"))
        if not modes and (prev is None or inp.name not in prev.schema.attributes):
            continue
        for mode, doc in modes:
            m = node.copy()
            next(i for i in m.inputs if i.name == inp.name).mode = mode
            forms[f"input-{mode}"] = (m, "static", f"{inp.name} as {doc}")
        if prev is not None and inp.name in prev.schema.attributes and inp.name not in [i.name for i in prev.inputs]:
            a = prev.copy()
            flat = np.ravel(inp.value).tolist()
            a.attrs[inp.name] = flat if prev.schema.attributes[inp.name].type in (A.INTS, A.FLOATS) else flat[0]
            a.attrs.update({k: v for k, v in node.attrs.items() if k in prev.schema.attributes})
            forms[f"attribute-opset{prev.opset}"] = (
                a,
                "static",
                f"{inp.name} as an attribute at opset {prev.opset} (before the schema moved it to an input)",
            )
            tag = "attr-to-input"
        else:
            tag = "constant-input"
        out.append(
            Pair(
                tag,
                inp.name.lower().replace("_", "-"),
                forms,
                f"input {inp.name}: initializer vs Constant vs computed"
                + (" vs the opset-N-1 attribute" if tag == "attr-to-input" else ""),
            )
        )
    return out


def zero_size(node: Node, ctx: Ctx) -> list[Pair]:

    if table_row(node.schema).get("no_zero_size") or node.opset < 11:
        return []
    data = [i for i in node.inputs if i.value is None and not i.empty]
    if not data or any(len(i.shape) < 2 for i in data) or len({tuple(i.shape) for i in data}) > 1:
        return []
    z = node.copy()
    for i in z.inputs:
        if i.value is None and not i.empty:
            i.shape = (i.shape[0], 0, *i.shape[2:])
    return [
        Pair(
            "zero-size",
            "",
            {
                "common": (z, "static", ""),
                "symbolic": (z, "symbolic", "zero-size dim kept static, others symbolic"),
                "anonymous": (z, "anonymous", "zero-size dim kept static, others anonymous"),
            },
            "a zero-size dim in every data input, static vs symbolic vs anonymous other dims",
        )
    ]


def rank_low(node: Node, ctx: Ctx) -> list[Pair]:

    row = table_row(node.schema)
    if (
        "shape" in row
        or row.get("no_rank_low")
        or any(i.value is not None for i in node.inputs)
        or {"axis", "axes"} & set(node.schema.attributes)
    ):  # an axis has no valid value at rank 0
        return []
    data = [i for i in node.inputs if not i.empty]
    if not data:
        return []
    out = []
    for rank, shape in ((0, ()), (1, (5,))):
        n = node.copy()
        for i in n.inputs:
            if not i.empty:
                i.shape = shape
        out.append(
            Pair(
                "rank",
                str(rank),
                {
                    "common": (n, "static", ""),
                    "symbolic": (n, "symbolic", "symbolic dims"),
                    "anonymous": (n, "anonymous", "anonymous dims"),
                },
                f"rank-{rank} inputs, static vs symbolic vs anonymous",
            )
        )
    return out


def broadcast(node: Node, ctx: Ctx) -> list[Pair]:
    """Binary ops with multidirectional broadcasting: implicit vs Expand vs Unsqueeze-spelled operand."""
    doc = node.schema.doc or ""
    data = [i for i in node.inputs if i.value is None and not i.empty]
    if (
        "broadcast" not in doc.lower()
        or len(data) != 2
        or len(node.inputs) != 2
        or node.opset < 13
        or len(data[1].shape) != 3
    ):
        return []
    small = node.copy()
    small.inputs[1].shape = (small.inputs[1].shape[-1],)
    return [
        Pair(
            "broadcast",
            "",
            {
                "common": (small, "static", ""),
                "explicit-expand": (small, "expand", "second operand Expand-ed to the full shape first"),
                "explicit-unsqueeze": (small, "unsqueeze", "second operand Unsqueeze-d to rank 3 first"),
            },
            "implicit broadcasting vs broadcast spelled with Expand / Unsqueeze",
        )
    ]


def constant_value(node: Node, ctx: Ctx) -> list[Pair]:
    """Constant's value as a tensor vs the typed list attribute the schema allows (``value_floats``,
    Constant-12 on) and vs ``sparse_value`` (Constant-11 on; onnx Operators.md, Constant)."""
    value = node.attrs.get("value")
    if node.op != "Constant" or node.domain or not isinstance(value, dict):
        return []
    out = []
    if "value_floats" in node.schema.attributes:
        listed = node.copy()
        del listed.attrs["value"]
        listed.attrs["value_floats"] = [float(v) for v in np.ravel(value["value"])]
        forms = {
            "common": (node, "static", ""),
            "value-floats": (listed, "static", "the same 1-D float constant written as value_floats"),
        }
        out.append(
            Pair("constant-value", "value-floats", forms, "Constant value as a tensor attribute vs as value_floats")
        )
    if "sparse_value" in node.schema.attributes:
        sparse = node.copy()
        sparse.attrs["sparse_value"] = sparse.attrs.pop("value")
        sparse.attr_types["sparse_value"] = int(onnx.AttributeProto.SPARSE_TENSOR)
        forms = {
            "common": (node, "static", ""),
            "sparse-value": (sparse, "static", "the same constant written as sparse_value, every element stored"),
        }
        out.append(Pair("constant-value", "sparse-value", forms, "Constant value as a tensor vs as sparse_value"))
    return out


KINDS: dict[str, Callable[[Node, Ctx], list[Pair]]] = {
    "shape": shapes,
    "opset": opset_stamp,
    "attr-default": attr_defaults,
    "attr-no-value": attr_no_value,
    "optional-input": optional_inputs,
    "axes": axes,
    "attr-to-input": attr_to_input,
    "zero-size": zero_size,
    "rank": rank_low,
    "broadcast": broadcast,
    "constant-value": constant_value,
}


def dtype_pair(node: Node, ctx: Ctx) -> list[Pair]:
    """For a non-main dtype: the same node static vs symbolic (and opset-last), tagged by dtype."""
    forms = {"common": (node, "static", ""), "symbolic": (node, "symbolic", "graph input dims as dim_param")}
    if not node.domain and ctx.last_opset > node.opset:
        hi = node.copy()
        hi.opset = ctx.last_opset
        forms[f"opset{ctx.last_opset}"] = (hi, "static", f"stamped opset {ctx.last_opset}")
    return [Pair("dtype", type_name(node.main_elem()), forms, f"element type {type_name(node.main_elem())}")]
