"""A model-local function's own default-domain import stamped at another version than the model's (round 19e, M396).

ONNX spec: onnx.proto FunctionProto.opset_import — a function body binds its nodes against the operator sets *the
function* imports; an operator set both the function and the model import may be imported at different versions as
long as every op of the body selects the same schema at both (IR.md §Functions: a call means its body, whose nodes
are operators of the function's own imports). The onnx checker enforces exactly this (its opset compatibility check
of model-local functions), so the written form is valid when, and only when, the schemas agree.

- ``function-opset-down``: each function's ``""`` / ``ai.onnx`` import → the lowest version (not below 7) at which
  every ai.onnx op of its body (subgraphs of the body included) selects the schema it selects at the model's
  default-domain version (and at the function's own).
- ``function-opset-up``: the same import → the highest such version, capped as the model stamp is
  (:func:`passcheck.mutations._opsets.highest_opset`).

Left alone: functions without a default-domain import or without an ai.onnx op, and models that do not import the
default domain. A pass that inlines a body into the main graph (whose nodes then bind to the model's version),
converts the model's opset, or merges the imports of a function into the model's must give the same values; one that
reads the function's version as the model's (or the model's as the function's) may not.

Sites: the function labels ``DOMAIN:NAME`` (an overload: ``DOMAIN:NAME:OVERLOAD``), as ``function-overload-*``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite, chosen, opset
from passcheck.mutations._freedom import Freedom
from passcheck.mutations._opsets import highest_opset, schema

if TYPE_CHECKING:
    import onnx

#: Lowest version a function's import moves down to (as :data:`passcheck.mutations.opset_stamp.OLDEST`).
OLDEST = 7
DEFAULT = ("", "ai.onnx")
#: Rewrites that write model-local functions at the model's version, where these then have sites (Rewrite.after).
OPENED_BY = ("node-as-local-function", "region-as-local-function")


def _label(f: onnx.FunctionProto) -> str:
    return f"{f.domain}:{f.name}" + (f":{f.overload}" if f.overload else "")


def _since(op: str, version: int) -> int | None:
    s = schema(op, version)
    return None if s is None else s.since_version


def _keeps(ops: set[str], a: int, b: int) -> bool:
    """Every op in ``ops`` selects the same schema (the same since_version) at versions ``a`` and ``b``."""
    return all((x := _since(op, a)) is not None and x == _since(op, b) for op in ops)


def target(model: onnx.ModelProto, f: onnx.FunctionProto, up: bool) -> int | None:
    """The version ``f``'s default-domain import moves to, or None when it does not move.

    Raises nothing; returns None for a function without a default-domain import or an ai.onnx op, a model without a
    default-domain import, or an op unknown at the function's version (onnx.proto FunctionProto.opset_import)."""
    from passcheck.passes.version_converter import _ops

    model_v = opset(model)
    own = next((o.version for o in f.opset_import if o.domain in DEFAULT), 0)
    ops = _ops(f)
    if not model_v or not own or not ops or not _keeps(ops, own, model_v):
        return None
    if up:
        cap, t = highest_opset(model.ir_version), own
        while t + 1 <= cap and _keeps(ops, own, t + 1):
            t += 1
    else:
        t = max([OLDEST] + [_since(op, own) for op in ops])
    return t if t != own and (t > own if up else t < own) else None


def _move(model: onnx.ModelProto, only: frozenset[str] | None, up: bool) -> list[str]:
    sites = []
    for f in model.functions:
        label = _label(f)
        if not chosen(only, label) or (t := target(model, f, up)) is None:
            continue
        for o in f.opset_import:
            if o.domain in DEFAULT:
                o.version = t
        sites.append(label)
    return sites


def down(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Each model-local function's default-domain import → the lowest version where its body keeps every schema."""
    return _move(model, only, up=False)


def up(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Each model-local function's default-domain import → the highest version where its body keeps every schema."""
    return _move(model, only, up=True)


REWRITES = (
    Rewrite(
        "function-opset-down",
        "a model-local function's ai.onnx import → the lowest version where its body's ops keep their schemas",
        down,
        inverse="function-opset-up",
        detail="functions",
        after=OPENED_BY,
    ),
    Rewrite(
        "function-opset-up",
        "a model-local function's ai.onnx import → the highest version where its body's ops keep their schemas",
        up,
        inverse="function-opset-down",
        detail="functions",
        after=OPENED_BY,
    ),
)

FREEDOMS = (
    Freedom(
        "function-opset-import-differs",
        "functions",
        "onnx.proto FunctionProto.opset_import (a function's imports may name another version of a set the model "
        "imports when the schemas selected agree); IR.md §Functions",
        "A model-local function may import the default operator set at a version other than the model's, as long as "
        "every op of its body selects the same schema at both: the body means the same.",
        ("function-opset-down", "function-opset-up"),
        "every model-local function with a default-domain import and an ai.onnx op (body subgraphs included), in "
        "models that import the default domain; one site per function; composes with node-as-local-function and "
        "region-as-local-function (Rewrite.after), which write functions at the model's version.",
    ),
)
