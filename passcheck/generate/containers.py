"""Sequence and optional values in generated recipes (ONNX IR "Static tensor shapes and types":
``seq(tensor(T))``, ``optional(tensor(T))``, ``optional(seq(tensor(T)))``).

A type parameter is spelled by a *wrap*: ``""`` (a tensor), ``seq``, ``optional`` or
``optional-seq``. Graph inputs stay tensors (random feeds synthesized from static shapes): a
wrapped node input is built inside the graph from tensor graph inputs (SequenceConstruct, Optional),
and a wrapped node output is a graph output of that type.
"""

from __future__ import annotations

import functools
from typing import Any

import onnx
import onnx.defs
import onnx.helper

#: the type-string spelling of each wrap around ``tensor(T)``
PATTERNS = {
    "": "tensor({})",
    "seq": "seq(tensor({}))",
    "optional": "optional(tensor({}))",
    "optional-seq": "optional(seq(tensor({})))",
}
#: preference when a parameter allows several wraps and the domain table chooses none
PREFERENCE = ("", "seq", "optional", "optional-seq")
#: elements of a sequence input built in the graph
SEQ_LENGTH = 2


def elem_names(type_strs, wrap: str) -> set[str]:
    """The tensor element type names that ``type_strs`` allow under ``wrap`` (a new set each call)."""
    return set(_elem_names(tuple(type_strs), wrap))


@functools.lru_cache(maxsize=4096)
def _elem_names(type_strs: tuple[str, ...], wrap: str) -> frozenset[str]:
    """:func:`elem_names`, kept per (type strings, wrap): a schema's constraint lists recur in every recipe of its
    op (loading the case library asked it 13,506 times for a few hundred distinct lists)."""
    head, tail = PATTERNS[wrap].split("{}")
    return frozenset(
        s[len(head) : -len(tail)]
        for s in type_strs
        if s.startswith(head) and s.endswith(tail) and "(" not in s[len(head) : -len(tail)]
    )


def wrap_of(schema: onnx.defs.OpSchema, param: str | None, type_str: str, row: dict[str, Any]) -> str:
    """The wrap a formal parameter of ``type_str`` (type parameter ``param``, or None for a fixed
    type) is built with: the table row's ``wraps`` choice, else the first of :data:`PREFERENCE`
    the constraint allows."""
    if param is None:
        strs = [type_str]
    else:
        strs = next((list(c.allowed_type_strs) for c in schema.type_constraints if c.type_param_str == param), [])
    chosen = row.get("wraps", {}).get(param or type_str)
    if chosen is not None:
        return chosen
    return next((w for w in PREFERENCE if elem_names(strs, w)), "")


def type_proto(elem: int, wrap: str, dims=None) -> onnx.TypeProto:
    """The TypeProto of ``wrap`` around a tensor of ``elem`` (``dims``: its shape, None for none)."""
    t = onnx.helper.make_tensor_type_proto(elem, dims)
    if wrap in ("seq", "optional-seq"):
        t = onnx.helper.make_sequence_type_proto(t)
    if wrap.startswith("optional"):
        t = onnx.helper.make_optional_type_proto(t)
    return t


def build_input(name: str, elem: int, wrap: str, dims: list) -> tuple[list, list[onnx.NodeProto]]:
    """Graph inputs (tensors) and the nodes that make the value ``name`` of ``wrap`` from them."""
    if wrap in ("seq", "optional-seq"):
        parts = [f"{name}_e{j}" for j in range(SEQ_LENGTH)]
        inputs = [onnx.helper.make_tensor_value_info(p, elem, dims) for p in parts]
        seq = name if wrap == "seq" else name + "_seq"
        nodes = [onnx.helper.make_node("SequenceConstruct", parts, [seq])]
        if wrap == "optional-seq":
            nodes.append(onnx.helper.make_node("Optional", [seq], [name]))
        return inputs, nodes
    inputs = [onnx.helper.make_tensor_value_info(name + "_v", elem, dims)]
    return inputs, [onnx.helper.make_node("Optional", [name + "_v"], [name])]
