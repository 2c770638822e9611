"""The one reader of a graph's constant values: what is a constant, and its value as an array.

IR.md (Graphs, initializers): an initializer that is also a graph input is only a default, which a feed may
override, so it is no constant. Operators.md (Constant): the node's single attribute is its value, ``value`` a
tensor, ``value_float`` / ``value_floats`` a float32 scalar / 1-D tensor, ``value_int`` / ``value_ints`` an int64
scalar / 1-D tensor (``sparse_value`` and ``value_string(s)`` are not read here: no numeric array).

The parity oracle (a cropping Pad's ``pads``), the conformance oracle (constant inputs its rules read) and the hunt
(:mod:`passcheck.hunt.graph_values`: the small constants its variations change) all read constants here.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np
    import onnx

#: The Constant attributes read as numeric arrays, each with the element type it denotes (None: the tensor's own).
ATTRIBUTES = {
    "value": None,
    "value_float": "float32",
    "value_floats": "float32",
    "value_int": "int64",
    "value_ints": "int64",
}
_DEFAULT_DOMAINS = ("", "ai.onnx")


def constant_attribute(node: onnx.NodeProto) -> onnx.AttributeProto | None:
    """The attribute holding the value of a default-domain ``Constant`` node with one output and exactly one
    attribute of :data:`ATTRIBUTES` (the spec's "exactly one"), else None."""
    if node.op_type != "Constant" or node.domain not in _DEFAULT_DOMAINS or not node.output:
        return None
    if len(node.attribute) != 1 or node.attribute[0].name not in ATTRIBUTES:
        return None
    return node.attribute[0]


def value_of(src: onnx.TensorProto | onnx.AttributeProto) -> np.ndarray:
    """The value of an initializer (TensorProto) or of a Constant's attribute (see :func:`constant_attribute`):
    an array of the tensor's element type, float32 for ``value_float(s)``, int64 for ``value_int(s)``.

    Raises:
        whatever ``onnx.numpy_helper.to_array`` raises for a tensor it cannot convert (e.g. data outside the model).
    """
    import numpy as np
    from onnx import AttributeProto, helper, numpy_helper

    if not isinstance(src, AttributeProto):
        return numpy_helper.to_array(src)
    if src.name == "value":
        return numpy_helper.to_array(src.t)
    return np.asarray(helper.get_attribute_value(src), dtype=ATTRIBUTES[src.name])


def sources(graph: onnx.GraphProto) -> dict[str, Any]:
    """Value name → the proto its constant value is read from (:func:`value_of`): the initializers no graph input
    overrides, then the outputs of the Constant nodes (:func:`constant_attribute`) in node order. Subgraphs are not
    read (a caller walking them adds their own, the outer scope's visible)."""
    inputs = {v.name for v in graph.input}
    out: dict[str, Any] = {t.name: t for t in graph.initializer if t.name not in inputs}
    for n in graph.node:
        a = constant_attribute(n)
        if a is not None:
            out[n.output[0]] = a
    return out


class Constants(Mapping):
    """Value name → array (:func:`value_of`) of the constants of one graph (:func:`sources`), each converted when
    first read (a large weight no one reads never is)."""

    def __init__(self, graph: onnx.GraphProto) -> None:
        self._src = sources(graph)
        self._done: dict[str, np.ndarray] = {}

    def __getitem__(self, name: str) -> np.ndarray:
        if name not in self._done:
            self._done[name] = value_of(self._src[name])
        return self._done[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._src)

    def __len__(self) -> int:
        return len(self._src)
