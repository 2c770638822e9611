"""Optional-input neighbours: an omitted optional input given a value other than its default.

A pass that reads a pattern's node as if an optional input were absent (a zero point taken as 0, a Pad's
``constant_value`` as 0, a Clip's bound as unbounded) is right on every base that omits it, and on every
spelling that writes the default out; only a model where the input holds another value shows it.

Kind ``opt-fill`` (site ``<node>=<input index>``): the node's omitted optional input (IR.md: an empty name or a
missing trailing input) set to a rank-0 constant 1 of the element type its schema's type variable binds
there. Candidates (``onnx.defs`` schema): a formal input that is ``Optional`` and not variadic, omitted in the
node, whose ``type_str`` is a type variable of the schema that also types a present input of the node with a
known element type (the zero point of ``x``, the bounds of Clip, Pad's ``constant_value``): the element type
is then the node's own, never guessed. The constant is an initializer (a ``Constant`` node below IR version
4, where an initializer must also be a graph input). Whether the neighbour is valid (a rank-0 value where the
schema wants a vector is refused by the checker or onnxruntime) is for :mod:`.vary_probe` to decide.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

KIND = "opt-fill"


def is_optional_kind(kind: str) -> bool:
    """Whether ``kind`` (without the ``vary:`` prefix) is this module's."""
    return kind == KIND


def candidates(model, shapes: dict[str, Any], schema_of) -> Iterator[tuple[str, str]]:
    """(kind, ``<node>=<index>``) of ``model``'s main-graph nodes (named); ``shapes``: value name → TypeProto;
    ``schema_of(node)``: its schema or None."""
    for node in model.graph.node:
        schema = schema_of(node)
        if schema is not None and node.name:
            for index in _fillable(node, schema, shapes):
                yield KIND, f"{node.name}={index}"


def build(model, site: str, shapes: dict[str, Any], schema_of) -> bool:
    """Fill the optional input ``site`` names in ``model`` (in place); False when it is not fillable there."""
    import numpy as np
    from onnx import helper, numpy_helper

    name, _, text = site.rpartition("=")
    node = next((n for n in model.graph.node if n.name == name), None)
    schema = None if node is None else schema_of(node)
    index = int(text)
    if schema is None or index not in _fillable(node, schema, shapes):
        return False
    elem = _elem(node, schema, schema.inputs[index].type_str, shapes)
    value = np.array(1, dtype=helper.tensor_dtype_to_np_dtype(elem))
    const = _fresh(model, f"{name}_opt{index}")
    if model.ir_version >= 4:
        model.graph.initializer.append(numpy_helper.from_array(value, const))
    else:
        model.graph.node.insert(0, helper.make_node("Constant", [], [const], value=numpy_helper.from_array(value)))
    inputs = list(node.input) + [""] * (index + 1 - len(node.input))
    inputs[index] = const
    node.input[:] = inputs
    return True


def _fillable(node, schema, shapes) -> list[int]:
    from onnx.defs import OpSchema

    variables = {c.type_param_str for c in schema.type_constraints}
    out = []
    for i, formal in enumerate(schema.inputs):
        if formal.option != OpSchema.FormalParameterOption.Optional:
            continue
        if i < len(node.input) and node.input[i]:
            continue
        if formal.type_str in variables and _elem(node, schema, formal.type_str, shapes):
            out.append(i)
    return out


def _elem(node, schema, variable: str, shapes) -> int:
    """The element type ``variable`` binds in ``node``: that of a present input it types (0 when none)."""
    for i, formal in enumerate(schema.inputs):
        if formal.type_str != variable or i >= len(node.input) or not node.input[i]:
            continue
        t = shapes.get(node.input[i])
        if t is not None and t.HasField("tensor_type") and t.tensor_type.elem_type:
            return t.tensor_type.elem_type
    return 0


def _fresh(model, stem: str) -> str:
    taken = {v for n in model.graph.node for v in (*n.input, *n.output)}
    taken |= {t.name for t in model.graph.initializer} | {v.name for v in model.graph.input}
    name, k = stem, 0
    while name in taken:
        k += 1
        name = f"{stem}_{k}"
    return name
