"""Type constraints tied by bit width: a data-type attribute whose schema says the target type "must have the same
bit-width as the input type" (Operators.md BitCast-26, attribute ``to``).

The recipe binds the input's constraint (the dtype pairs, an element-type variant of ``T1``) or the attribute's
(a variant of ``T2``) one at a time; a binding that leaves the two of different widths is a node the schema
refuses, not a spelling of the op. :func:`tie` re-binds the *other* side to a type of the bound one's width, so
every such pair is a valid node; :func:`untied` says whether a node breaks the rule (the gate's self-check).
"""

from __future__ import annotations

import re

import onnx
import onnx.helper

from passcheck.generate.node_types import output_param
from passcheck.generate.recipe import Node, _param_of, type_name

#: How the schema states the tie (lower case, "bit-width" or "bit width").
_SAME_WIDTH = re.compile(r"same bit[- ]width as the input")
#: Types tried as the partner of a bound type, in order (one per family, as the element-type variants build them).
PARTNERS = ("float", "float16", "bfloat16", "double", "int8", "uint8", "int16", "int32", "int64", "uint64", "bool")


def bits(elem: int) -> int:
    """Bit width of TensorProto element type ``elem`` (bool: 8, a byte per element as onnx stores it); 0 for a
    type without a fixed storage width (string, undefined)."""
    if elem in (onnx.TensorProto.STRING, onnx.TensorProto.UNDEFINED):
        return 0
    return int(onnx.helper.tensor_dtype_to_np_dtype(elem).itemsize) * 8


def tied(node: Node) -> tuple[str, str, str] | None:
    """(attribute, its output's type parameter, the input's type parameter) when ``node``'s schema ties an
    integer data-type attribute to the input's width (module docs); None otherwise."""
    s = node.schema
    for name, a in s.attributes.items():
        if a.type != onnx.AttributeProto.INT or not _SAME_WIDTH.search((a.description or "").lower()):
            continue
        if not s.inputs or not s.outputs:
            return None
        src, dst = _param_of(s.inputs[0].type_str), _param_of(s.outputs[0].type_str)
        return (name, dst, src) if src and dst else None
    return None


def untied(node: Node) -> str | None:
    """Why ``node`` breaks its schema's width tie (the input's and the attribute's types of different widths),
    or None (no tie, or it holds)."""
    t = tied(node)
    if t is None or t[0] not in node.attrs or t[2] not in node.dtypes:
        return None
    to, src = int(node.attrs[t[0]]), node.dtypes[t[2]]
    if bits(to) == bits(src):
        return None
    return f"{t[0]}={type_name(to)} ({bits(to)} bits) beside {t[2]}={type_name(src)} ({bits(src)} bits)"


def _allowed(node: Node, param: str) -> tuple[str, ...]:
    return next((tuple(c.allowed_type_strs) for c in node.schema.type_constraints if c.type_param_str == param), ())


def _partner(node: Node, param: str, width: int, other: int) -> int | None:
    """A type for ``param`` of ``width`` bits: the first of :data:`PARTNERS` other than ``other`` that the schema
    allows, else ``other`` itself when allowed (the same type: BitCast is then a copy), else None."""
    allowed = _allowed(node, param)
    names = [t for t in PARTNERS if f"tensor({t})" in allowed]
    codes = [int(getattr(onnx.TensorProto, t.upper())) for t in names]
    same = [c for c in codes if bits(c) == width]
    return next((c for c in same if c != other), other if other in same else None)


def tie(node: Node, bound: str) -> Node | None:
    """``node`` with its width tie holding: the constraint other than ``bound`` (the one just chosen) re-bound to a
    type of ``bound``'s width (:func:`_partner`); ``node`` unchanged when there is no tie or it holds; None when no
    allowed type has that width."""
    t = tied(node)
    if t is None or untied(node) is None:
        return node
    attr, dst, src = t
    v = node.copy()
    if bound == dst:  # the attribute was chosen: the input follows
        elem = _partner(v, src, bits(int(v.attrs[attr])), int(v.attrs[attr]))
        if elem is None:
            return None
        for i in v.inputs:
            if not i.empty and _param_of(_formal(v, i.name)) == src:
                if i.value is not None:
                    return None
                i.elem = elem
        v.dtypes[src] = elem
        return v
    elem = _partner(v, dst, bits(v.dtypes[src]), v.dtypes[src])
    if elem is None:
        return None
    v.attrs[attr] = elem
    v.dtypes[dst] = elem
    v.out_elems.update({o: elem for o in v.outputs if output_param(v, o) == dst})
    return v


def _formal(node: Node, name: str) -> str:
    f = next((f for f in node.schema.inputs if name == f.name or name.startswith(f.name + "_")), None)
    return f.type_str if f is not None else ""
