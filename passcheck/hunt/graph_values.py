"""Values of a model's main graph the neighbours read: its small constants and who reads each value.

A *constant* is an initializer no graph input overrides (IR.md: an initializer that is also a graph input is only
a default) or the output of a ``Constant`` node; its value is read when first asked for.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

#: Largest constant (elements) whose value a variation changes: a pattern's scalar or per-channel vector.
SMALL = 16


def constants(model) -> Mapping[str, np.ndarray]:
    """Main-graph constants: initializers no graph input overrides, and Constant node values (``value`` or a
    float/int ``value_*`` attribute), each converted to an array when first read (a large weight no one reads
    never is)."""
    return _Constants(model)


class _Constants(Mapping):
    def __init__(self, model) -> None:
        inputs = {v.name for v in model.graph.input}
        self._src: dict[str, Any] = {t.name: t for t in model.graph.initializer if t.name not in inputs}
        for n in model.graph.node:
            if n.op_type == "Constant" and n.output and len(n.attribute) == 1 and n.attribute[0].name in _CONST_ATTRS:
                self._src[n.output[0]] = n.attribute[0]
        self._done: dict[str, Any] = {}

    def __getitem__(self, name: str) -> np.ndarray:
        if name not in self._done:
            self._done[name] = _array(self._src[name])
        return self._done[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._src)

    def __len__(self) -> int:
        return len(self._src)


_CONST_ATTRS = ("value", "value_float", "value_floats", "value_int", "value_ints")


def _array(src) -> np.ndarray:
    """The value of an initializer (TensorProto) or of a Constant's attribute (:data:`_CONST_ATTRS`)."""
    import numpy as np
    from onnx import AttributeProto, helper, numpy_helper

    if not isinstance(src, AttributeProto):
        return numpy_helper.to_array(src)
    if src.name == "value":
        return numpy_helper.to_array(src.t)
    return np.asarray(
        helper.get_attribute_value(src), dtype=np.int64 if src.name.startswith("value_int") else np.float32
    )


def readers(model) -> dict[str, list[tuple[Any, int]]]:
    """Value name → the main-graph nodes reading it, each with the input index it is read at."""
    out: dict[str, list] = {}
    for n in model.graph.node:
        for i, v in enumerate(n.input):
            out.setdefault(v, []).append((n, i))
    return out
