"""Values of a model's main graph the neighbours read: its small constants and who reads each value.

A *constant* is an initializer no graph input overrides (IR.md: an initializer that is also a graph input is only
a default) or the output of a ``Constant`` node; its value is read when first asked for.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

#: Largest constant (elements) whose value a variation changes: a pattern's scalar or per-channel vector.
SMALL = 16


def constants(model) -> Mapping[str, np.ndarray]:
    """Main-graph constants: initializers no graph input overrides, and Constant node values (``value`` or a
    float/int ``value_*`` attribute), each converted to an array when first read (a large weight no one reads
    never is). The reader is :class:`passcheck.runtime.constants.Constants`, the oracles' too."""
    from passcheck.runtime.constants import Constants

    return Constants(model.graph)


def readers(model) -> dict[str, list[tuple[Any, int]]]:
    """Value name → the main-graph nodes reading it, each with the input index it is read at."""
    out: dict[str, list] = {}
    for n in model.graph.node:
        for i, v in enumerate(n.input):
            out.setdefault(v, []).append((n, i))
    return out


def replace(model, name: str, new: np.ndarray) -> None:
    """Constant ``name`` of ``model`` (see :func:`constants`) given the value ``new``, in place: the initializer's
    tensor, or the Constant node's one ``value`` attribute (a ``value_*`` spelling becomes ``value``).

    Raises:
        StopIteration: ``name`` is neither an initializer nor a Constant's output."""
    from onnx import helper, numpy_helper

    for t in model.graph.initializer:
        if t.name == name:
            t.CopyFrom(numpy_helper.from_array(new, name))
            return
    node = next(n for n in model.graph.node if n.op_type == "Constant" and n.output and n.output[0] == name)
    del node.attribute[:]
    node.attribute.append(helper.make_attribute("value", numpy_helper.from_array(new)))
