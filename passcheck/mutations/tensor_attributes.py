"""A list or scalar attribute → its tensor sibling holding the same values (``keys_int64s = [0, 1]`` →
``keys_tensor = int64[2] {0, 1}``).

Some schemas give one parameter two attribute spellings: typed lists or scalars, and a TENSOR attribute
named after the same stem, ``P_tensor`` or ``P_as_tensor`` (Operators-ml.md LabelEncoder-4: one of
``keys_strings`` / ``keys_int64s`` / ``keys_floats`` / ``keys_tensor``, likewise ``values_*`` and the
one-element ``default_tensor``; TreeEnsembleRegressor-3 / TreeEnsembleClassifier-3: ``nodes_values`` or
``nodes_values_as_tensor``, ``base_values`` or ``base_values_as_tensor``, …). The pairs are read off the
node's own schema (:func:`tensor_siblings`), so every op that offers such a pair is covered. A pass that
reads, hashes or compares attributes (onnxruntime's common subexpression elimination hashes tensor
attributes; its LabelEncoder fusion reads the maps) meets tensor attributes, of any element type the
schema allows, strings included, only in this spelling.

The tensor's element type is the list's (FLOATS → float, INTS → int64, STRINGS → string), its shape
``[len]`` for a list and ``[1]`` for a scalar. A group is rewritten where the node sets exactly one of its
spellings and not the tensor. A scalar sibling (LabelEncoder's ``default_*``) is rewritten only where a list
group of the same node becomes a tensor of the scalar's element type (the default must be of the values'
type; a ``default_string`` stated beside int64 values is unused and stays).

Sites: main-graph nodes (their labels) with at least one such group.
"""

from __future__ import annotations

from collections.abc import Collection
from functools import cache

import onnx
import onnx.defs

from passcheck.mutations._base import Rewrite, node_label, opset
from passcheck.mutations._freedom import Freedom
from passcheck.mutations._only import wanted

A = onnx.AttributeProto
#: list / scalar attribute type → (the tensor's element type, whether it is a list).
ELEMENTS = {
    A.FLOATS: (onnx.TensorProto.FLOAT, True),
    A.INTS: (onnx.TensorProto.INT64, True),
    A.STRINGS: (onnx.TensorProto.STRING, True),
    A.FLOAT: (onnx.TensorProto.FLOAT, False),
    A.INT: (onnx.TensorProto.INT64, False),
    A.STRING: (onnx.TensorProto.STRING, False),
}
TENSOR = onnx.defs.OpSchema.AttrType.TENSOR


@cache
def tensor_siblings(op: str, domain: str, version: int) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """``(tensor attribute, its list/scalar siblings)`` of the schema of ``domain.op`` at opset ``version``:
    each TENSOR attribute ``P_tensor`` / ``P_as_tensor`` with the non-tensor attributes named ``P`` or ``P_*``
    (empty for an unknown op)."""
    try:
        s = onnx.defs.get_schema(op, version, domain)
    except onnx.defs.SchemaError:
        return ()
    out = []
    for name, a in sorted(s.attributes.items()):
        if a.type != TENSOR:
            continue
        stem = next((name.removesuffix(x) for x in ("_as_tensor", "_tensor") if name.endswith(x)), None)
        if not stem:
            continue
        sibs = tuple(
            sorted(
                n
                for n, b in s.attributes.items()
                if n != name and b.type != TENSOR and (n == stem or n.startswith(stem + "_"))
            )
        )
        if sibs:
            out.append((name, sibs))
    return tuple(out)


def _as_tensor(a: onnx.AttributeProto, name: str) -> onnx.TensorProto:
    elem, is_list = ELEMENTS[a.type]
    value = onnx.helper.get_attribute_value(a)
    values = list(value) if is_list else [value]
    return onnx.helper.make_tensor(name, elem, [len(values)], values)


def _groups(n: onnx.NodeProto, version: int) -> list[tuple[str, onnx.AttributeProto]]:
    """``(tensor attribute, the one sibling set)`` of each group ``n`` can rewrite."""
    set_attrs = {a.name: a for a in n.attribute if not a.ref_attr_name}
    lists, scalars = [], []
    for tname, sibs in tensor_siblings(n.op_type, n.domain, version):
        present = [set_attrs[s] for s in sibs if s in set_attrs]
        if tname in set_attrs or len(present) != 1 or present[0].type not in ELEMENTS:
            continue
        (lists if ELEMENTS[present[0].type][1] else scalars).append((tname, present[0]))
    listed = {ELEMENTS[a.type][0] for _, a in lists}
    return lists + [(t, a) for t, a in scalars if ELEMENTS[a.type][0] in listed]


def as_tensors(model: onnx.ModelProto, only: Collection[str] | None = None) -> list[str]:
    """Every list / scalar attribute with a tensor sibling (see the module doc) → that sibling, in place;
    the labels of the nodes changed."""
    changed = []
    for i, n in enumerate(model.graph.node):
        label = node_label(n, i)
        if not wanted(only, label):
            continue
        groups = _groups(n, opset(model, n.domain))
        if not groups:
            continue
        for tname, a in groups:
            tensor = _as_tensor(a, tname)
            n.attribute.remove(a)
            n.attribute.append(onnx.helper.make_attribute(tname, tensor))
        changed.append(label)
    return changed


REWRITES = (
    Rewrite(
        "list-attributes-as-tensor",
        "a list / scalar attribute with a TENSOR sibling P_tensor / P_as_tensor in the node's schema → that "
        "sibling holding the same values (LabelEncoder-4 keys_* / values_* / default_*; TreeEnsemble*-3 *_as_tensor)",
        as_tensors,
    ),
)

FREEDOMS = (
    Freedom(
        "attribute-tensor-sibling",
        "attributes",
        "Operators-ml.md LabelEncoder-4 (keys_tensor, values_tensor, default_tensor), TreeEnsembleRegressor-3 and "
        "TreeEnsembleClassifier-3 (the *_as_tensor attributes)",
        "Where a schema names a TENSOR attribute after a list or scalar one (P_tensor, P_as_tensor), the same "
        "values may be written either way: a typed list, or a tensor of its element type and length (a scalar: "
        "one element).",
        ("list-attributes-as-tensor",),
        "main-graph nodes whose schema has such a pair and which set one list spelling of it (a scalar "
        "sibling only beside a list group of its element type)",
    ),
)
