"""Non-default attribute values a schema allows, one per attribute, for the constant-operand variants.

The generated ``const-operands`` variant (:mod:`.variants`) feeds constant operands to the recipe's own
attributes, which are the schema defaults for most ops. Passes that fold or fuse constants special-case attribute
values (a Gemm's ``transB`` read when B is pre-transposed, a Conv's ``group`` when its weight is folded, a
Gather's ``axis`` when its data is a constant), so the schemas' other values meet constant operands here, each
derived from the schema's own attribute and input names and the spec text of that attribute:

- ``trans<X>`` (an INT attribute whose suffix names a formal input ``X``, Operators.md Gemm: "Whether A should be
  transposed"): flipped, and input ``X``'s last two dims swapped so the product still has its shape;
- ``axis`` (INT; Operators.md: "Accepted range is [-r, r-1]"): the last axis ``r-1`` (``0`` when that is the
  recipe's own);
- ``perm`` (INTS, Transpose; absent means reversed dims): the rotation ``(1, …, r-1, 0)`` for rank ≥ 3, the
  identity for rank 2;
- ``group`` (INT, Conv / ConvTranspose with an input named ``W``; Operators.md Conv: "number of groups input
  channels and output channels are divided into"): 2 when the input channel count is even, ``W`` (and ``B``)
  reshaped as the spec's weight layout requires.

One value per attribute keeps the generated set bounded (one case per (schema, rule) that applies). A variant
whose shapes the rules cannot fix is still built: the generator's gate (checker, onnxruntime and the reference
evaluator) drops what the spec refuses.
"""

from __future__ import annotations

import onnx

from passcheck.generate.recipe import Input, Node

A = onnx.AttributeProto


def _current(node: Node, name: str):
    """The attribute's value in the recipe, else its schema default (None when it has none)."""
    if name in node.attrs:
        return node.attrs[name]
    d = node.schema.attributes[name].default_value
    return onnx.helper.get_attribute_value(d) if d.type else None


def _data(node: Node) -> list[Input]:
    return [i for i in node.inputs if i.value is None and not i.empty and not i.wrap]


def _input(node: Node, name: str) -> Input | None:
    return next((i for i in node.inputs if i.name == name and not i.empty), None)


def _trans(node: Node, name: str) -> Node | None:
    formal = {f.name.lower(): f.name for f in node.schema.inputs}.get(name[len("trans") :].lower())
    i = _input(node, formal) if formal else None
    if i is None or i.value is not None or len(i.shape) < 2:
        return None
    v = node.copy()
    v.attrs[name] = 0 if _current(node, name) else 1
    j = _input(v, formal)
    j.shape = (*j.shape[:-2], j.shape[-1], j.shape[-2])
    return v


def _axis(node: Node, name: str) -> Node | None:
    data = _data(node)
    r = len(data[0].shape) if data else 0
    cur = _current(node, name)
    if r < 2 or cur is None:
        return None
    new = 0 if cur in (r - 1, -1) else r - 1
    v = node.copy()
    v.attrs[name] = new
    return v


def _perm(node: Node, name: str) -> Node | None:
    data = _data(node)
    r = len(data[0].shape) if data else 0
    if r < 2:
        return None
    new = [*range(1, r), 0] if r >= 3 else [0, 1]
    if node.attrs.get(name) == new:
        return None
    v = node.copy()
    v.attrs[name] = new
    return v


def _group(node: Node, name: str) -> Node | None:
    data = _data(node)
    w = _input(node, "W")
    if not data or w is None or w.value is not None or len(data[0].shape) < 3 or len(w.shape) < 3:
        return None
    c, g = data[0].shape[1], 2
    if c % g or _current(node, name) not in (None, 1):
        return None
    v = node.copy()
    vw = _input(v, "W")
    if node.op == "ConvTranspose":  # W: (C, M / group, k...)
        out = vw.shape[1] * g
    else:  # W: (M, C / group, k...), M a multiple of group
        out = vw.shape[0] + vw.shape[0] % g
        vw.shape = (out, c // g, *vw.shape[2:])
    if (b := _input(v, "B")) is not None:
        if b.value is not None:
            return None
        b.shape = (out,)
    v.attrs[name] = g
    return v


def rules(node: Node) -> dict[str, object]:
    """Attribute name → the rule that rewrites it, for the attributes of ``node``'s schema a rule applies to."""
    out = {}
    for name, a in node.schema.attributes.items():
        if a.type == A.INT and name.lower().startswith("trans") and len(name) > len("trans"):
            out[name] = _trans
        elif a.type == A.INT and name == "axis":
            out[name] = _axis
        elif a.type == A.INTS and name == "perm":
            out[name] = _perm
        elif a.type == A.INT and name == "group":
            out[name] = _group
    return out


def non_default(node: Node) -> list[tuple[str, Node]]:
    """``(label, node')`` per attribute a rule applies to: ``node`` with that attribute set to another value the
    schema allows (inputs reshaped to match); ``label`` is ``<attr>-<value>`` in lower case (``transb-1``,
    ``axis-1``, ``perm-1-2-0``, ``group-2``), in the schema's attribute order."""
    out = []
    for name, rule in rules(node).items():
        v = rule(node, name)
        if v is None:
            continue
        val = v.attrs[name]
        text = "-".join(map(str, val)) if isinstance(val, list) else str(val)
        out.append((f"{name.lower().replace('_', '-')}-{text}", v))
    return out
