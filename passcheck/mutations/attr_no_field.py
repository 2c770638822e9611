"""A scalar attribute whose value is the zero value (``i = 0``, ``f = +0.0``, ``s = ""``) ↔ the same
attribute with its ``type`` but no value field (issue 15). ONNX rule (onnx.proto, AttributeProto):
``type`` MUST be set and says which value field is in use, a rule "made to accommodate proto3
implementations", which never write a scalar field holding its zero value; so ``type = INT``
without ``i`` is how a proto3 writer spells ``i = 0``. onnx.proto also says exactly one value
field must be present, which a proto2 reader can see as missing; the onnx checker (1.23) and
onnxruntime accept the proto3 spelling and read the zero value. Main graph and subgraphs; sites
are node labels (main graph) or the node's first output (subgraphs)."""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Iterator
from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite, node_label, subgraphs
from passcheck.mutations._only import wanted

if TYPE_CHECKING:
    import onnx

#: attribute type → its scalar value field.
FIELDS = {1: "f", 2: "i", 3: "s"}  # AttributeProto.FLOAT, INT, STRING


def _nodes(model: onnx.ModelProto) -> Iterator[tuple[onnx.NodeProto, str]]:
    def walk(g: onnx.GraphProto, main: bool):
        for i, n in enumerate(g.node):
            yield n, node_label(n, i) if main else (n.output[0] if n.output else node_label(n, i))
            for sg in subgraphs(n):
                yield from walk(sg, False)

    yield from walk(model.graph, True)


def _is_zero(a: onnx.AttributeProto, field: str) -> bool:
    v = getattr(a, field)
    return v == 0 and not (field == "f" and math.copysign(1.0, v) < 0) if field != "s" else v == b""


def _edit(
    model: onnx.ModelProto, only: Collection[str] | None, change: Callable[[onnx.AttributeProto, str], bool]
) -> list[str]:
    """Apply ``change(attribute, value field)`` to every scalar attribute; sites: nodes where it returned True."""
    sites = []
    for n, label in _nodes(model):
        if not wanted(only, label):
            continue
        hits = [change(a, FIELDS[a.type]) for a in n.attribute if a.type in FIELDS and not a.ref_attr_name]
        if any(hits):
            sites.append(label)
    return sites


def _clear_zero(a: onnx.AttributeProto, field: str) -> bool:
    if not a.HasField(field) or not _is_zero(a, field):
        return False
    a.ClearField(field)
    return True


def _write_zero(a: onnx.AttributeProto, field: str) -> bool:
    if a.HasField(field):
        return False
    setattr(a, field, b"" if field == "s" else 0)
    return True


def clear(model: onnx.ModelProto, only: Collection[str] | None = None) -> list[str]:
    """Every INT/FLOAT/STRING attribute set to its zero value → the value field cleared (type kept)."""
    return _edit(model, only, _clear_zero)


def fill(model: onnx.ModelProto, only: Collection[str] | None = None) -> list[str]:
    """Every INT/FLOAT/STRING attribute without its value field → the zero value written out."""
    return _edit(model, only, _write_zero)


REWRITES = (
    Rewrite(
        "attribute-zero-no-field",
        'a scalar attribute equal to 0 / 0.0 / "" → type only, no value field (the proto3 spelling; onnx.proto AttributeProto.type)',
        clear,
        inverse="attribute-zero-explicit",
    ),
    Rewrite(
        "attribute-zero-explicit",
        "a scalar attribute with a type and no value field → the zero value written out",
        fill,
        inverse="attribute-zero-no-field",
    ),
)
