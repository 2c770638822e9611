"""The default-domain opset stamp moved to the nearest boundary where no op of the model changes
(issue 15). ONNX rule: a node follows the schema with the highest ``since_version`` not above the
model's opset (Versioning.md), so when every op of the model has the same schema at two opsets,
the model means the same at both. Down: the lowest such opset (the newest ``since_version``
among the model's ops, not below 7); up: the highest, capped by what the model's IR version goes
with and what every supported environment knows (:func:`passcheck.mutations._opsets.highest_opset`).
Models with model-local functions are left alone. Site: ``opset_import``."""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite, opset
from passcheck.mutations._only import wanted
from passcheck.mutations._opsets import changed_ops, default_ops, highest_opset, schema, set_default_opset

if TYPE_CHECKING:
    import onnx

SITE = "opset_import"
#: Lowest opset a stamp moves down to (the floor of :func:`passcheck.cases.opsets.kept_opsets`).
OLDEST = 7


def _target(model: onnx.ModelProto, up: bool) -> int | None:
    v = opset(model)
    ops = default_ops(model)
    if not v or not ops or any(schema(op, v) is None for op in ops):
        return None
    if up:
        cap, t = highest_opset(model.ir_version), v
        while t + 1 <= cap and not changed_ops(model, v, t + 1):
            t += 1
    else:
        t = max([OLDEST] + [schema(op, v).since_version for op in ops])
    return t if (t > v if up else t < v) else None


def up_target(model: onnx.ModelProto) -> int | None:
    """Where ``opset-stamp-up`` moves the stamp, or None when it does not move."""
    return _target(model, up=True)


def _move(model: onnx.ModelProto, only: Collection[str] | None, up: bool) -> list[str]:
    if not wanted(only, SITE) or (t := _target(model, up)) is None:
        return []
    set_default_opset(model, t)
    return [SITE]


def down(model: onnx.ModelProto, only: Collection[str] | None = None) -> list[str]:
    """The stamp → the lowest opset at which every op of the model has the schema it has now."""
    return _move(model, only, up=False)


def up(model: onnx.ModelProto, only: Collection[str] | None = None) -> list[str]:
    """The stamp → the highest opset (within the IR version's) at which every op has the schema it has now."""
    return _move(model, only, up=True)


REWRITES = (
    Rewrite(
        "opset-stamp-down",
        "default-domain opset → the lowest opset where every op of the model keeps its schema",
        down,
        inverse="opset-stamp-up",
        detail="opset stamps",
    ),
    Rewrite(
        "opset-stamp-up",
        "default-domain opset → the highest opset (for the IR version) where every op keeps its schema",
        up,
        inverse="opset-stamp-down",
        detail="opset stamps",
    ),
)
