"""Spelling kinds of the node itself: its attributes and inputs. Each kind is a function
``(node, ctx) → [Pair]`` as in :mod:`.spellings` (which lists them all in ``KINDS``): an attribute
omitted vs written with its schema default, or present with no value field; optional inputs
omitted vs ``""`` vs given with their default; axes positive vs negative vs unsorted (and a
reduction's axes omitted vs all listed vs empty); a constant input as initializer vs Constant vs
computed vs the previous schema's attribute; a Constant's value as a tensor vs ``value_floats``.
"""

from __future__ import annotations

import numpy as np
import onnx
import onnx.defs

from passcheck.generate.pair import Ctx, Pair
from passcheck.generate.recipe import NO_VALUE, Input, Node, table_row

A = onnx.AttributeProto


def _rank(node: Node) -> int:
    return max((len(i.shape) for i in node.inputs if i.value is None and not i.empty), default=0)


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


#: Constant-12's typed attributes (Operators.md Constant: value_int / value_ints give an int64 scalar /
#: 1-D tensor, value_float / value_floats a float one), by element type.
TYPED_CONSTANT = {onnx.TensorProto.INT64: "value_int", onnx.TensorProto.FLOAT: "value_float"}


def typed_attribute(opset: int, elem: int, value) -> bool:
    """Whether a constant input of element type ``elem`` holding ``value`` may be written as a
    Constant's typed attribute (:data:`TYPED_CONSTANT`): opset >= 12, int64 or float, rank 0 or 1."""
    return opset >= 12 and elem in TYPED_CONSTANT and value is not None and np.ndim(value) <= 1


def attr_to_input(node: Node, ctx: Ctx) -> list[Pair]:
    """Inputs that were attributes under the previous schema: as initializer / Constant / computed
    value at opset N, and as the attribute at opset N-1. A Constant is written with ``value`` (a
    tensor) and, where Constant-12 allows (:func:`typed_attribute`), with its typed attribute: the same
    scalar or 1-D value, a spelling every reader of the input must treat alike."""
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
        if typed_attribute(node.opset, inp.elem, inp.value):
            modes.append(("constant-attr", "a Constant node's typed attribute (value_int(s) / value_float(s))"))
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
                f"input {inp.name}: initializer vs Constant (value / typed attribute) vs computed"
                + (" vs the opset-N-1 attribute" if tag == "attr-to-input" else ""),
            )
        )
    return out


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
