"""Type and dimension denotations are annotations (IR.md §Type Denotation: TypeProto.denotation names
what a value holds, TENSOR for a generic tensor; DimensionDenotation.md and onnx.proto
TensorShapeProto.Dimension.denotation: a standard label per axis, DATA_FEATURE among them). Both are
optional and describe values without entering the computation: a model with them or without them
computes the same, and a pass must treat both alike.

- ``add-denotations``: every tensor type of a graph input, output or value_info entry (main graph and
  every If/Loop/Scan body) and of a function's value_info, nested element types of sequence, optional
  and map types included, gets the denotation TENSOR, and every dim of its shape without a label gets
  DATA_FEATURE (one label on every axis, so no axis contradicts another; a dim with neither a value
  nor a name keeps them absent and gets only the label).
- ``strip-denotations``: every type and dim denotation cleared.

Sites: value names (a function's values: ``FUNCTION/NAME``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite, chosen
from passcheck.mutations._freedom import Freedom
from passcheck.mutations._scopes import scopes

if TYPE_CHECKING:
    import onnx

TYPE_DENOTATION = "TENSOR"  # IR.md §Type Denotation: a generic tensor
DIM_DENOTATION = "DATA_FEATURE"  # DimensionDenotation.md §Denotation Definition


def _values(model: onnx.ModelProto) -> Iterator[tuple[str, onnx.ValueInfoProto]]:
    for scope in scopes(model):
        b = scope.body
        if scope.is_graph:
            for v in [*b.input, *b.output, *b.value_info]:
                yield f"{scope.prefix}{v.name}", v
        else:
            for v in b.value_info:
                yield f"{scope.prefix}{v.name}", v


def _types(t: onnx.TypeProto) -> Iterator[onnx.TypeProto]:
    """``t`` and the element types nested in it (sequence, optional, map values)."""
    yield t
    kind = t.WhichOneof("value")
    if kind == "sequence_type" and t.sequence_type.HasField("elem_type"):
        yield from _types(t.sequence_type.elem_type)
    elif kind == "optional_type" and t.optional_type.HasField("elem_type"):
        yield from _types(t.optional_type.elem_type)
    elif kind == "map_type" and t.map_type.HasField("value_type"):
        yield from _types(t.map_type.value_type)


def _denote(t: onnx.TypeProto, add: bool) -> bool:
    changed = False
    for u in _types(t):
        tensor = u.WhichOneof("value") == "tensor_type"
        dims = list(u.tensor_type.shape.dim) if tensor and u.tensor_type.HasField("shape") else []
        if add and tensor and not u.denotation:
            u.denotation = TYPE_DENOTATION
            changed = True
        elif not add and u.denotation:
            u.ClearField("denotation")
            changed = True
        for d in dims:
            if add and not d.denotation:
                d.denotation = DIM_DENOTATION
                changed = True
            elif not add and d.denotation:
                d.ClearField("denotation")
                changed = True
    return changed


def _rewrite(model: onnx.ModelProto, only: frozenset[str] | None, add: bool) -> list[str]:
    sites = []
    for label, v in _values(model):
        if v.HasField("type") and chosen(only, label) and _denote(v.type, add):
            sites.append(label)
    return list(dict.fromkeys(sites))


def add(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """TENSOR on every tensor type and DATA_FEATURE on every unlabelled dim of every declared value."""
    return _rewrite(model, only, add=True)


def strip(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Every type and dimension denotation cleared."""
    return _rewrite(model, only, add=False)


REWRITES = (
    Rewrite(
        "add-denotations",
        "declared tensor types → denotation TENSOR, their dims → DATA_FEATURE (IR.md §Type Denotation)",
        add,
        inverse="strip-denotations",
        detail="values",
    ),
    Rewrite(
        "strip-denotations",
        "every type and dimension denotation cleared",
        strip,
        inverse="add-denotations",
        detail="values",
    ),
)

FREEDOMS = (
    Freedom(
        "type-denotation",
        "values",
        "IR.md §Type Denotation; onnx.proto TypeProto.denotation, TensorShapeProto.Dimension.denotation; "
        "DimensionDenotation.md",
        "A value's type may carry a denotation (what it holds) and each dim a standard axis label, or none; they "
        "describe the value and do not change what the model computes.",
        ("add-denotations", "strip-denotations"),
        "graph inputs, outputs and value_info of the main graph and every If/Loop/Scan body, and function "
        "value_info (nested sequence/optional/map element types too); a dim with neither value nor name gets the "
        "label alone; composes with every rewrite (depth 2)",
    ),
)
