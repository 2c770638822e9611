"""Rewrites of the attribute freedoms the schema texts state (M357), for every domain whose schemas passcheck
reads (:mod:`passcheck.mutations.attr_text`):

- ``text-axis-negative`` / ``text-axis-positive``: an INT/INTS attribute whose description says a negative
  value counts dimensions from the back, written ``a - r`` for ``a >= 0`` (or ``a + r`` for ``a < 0``), r the
  rank of the input the text names. Only attributes the axis sign rewrites of
  :mod:`passcheck.mutations.axes` do not already flip at the model's opset (``Shape`` start/end,
  ``GatherBlockQuantized`` gather_axis/quantize_axis, ``Gather-1`` axis, ...), and values in [-r, r-1].
- ``text-default-explicit`` / ``text-default-omitted``: an optional scalar attribute with no schema default
  whose description states one as a literal, written with that value ↔ left out.

IR.md §Attributes (an omitted optional attribute takes the operator's default); each op's schema at the opset
its domain's import selects. Main graph only (the rank from onnx shape inference of the main graph's values);
attributes given by ``ref_attr_name`` are left alone. Sites are the rewritten nodes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite, chosen, node_label, opset
from passcheck.mutations._graph_edit import drop_attribute
from passcheck.mutations._shapes import known
from passcheck.mutations.attr_text import freedoms
from passcheck.mutations.axes import AXIS_ATTRS
from passcheck.mutations.catalogue import Freedom

if TYPE_CHECKING:
    import onnx


def _version(model: onnx.ModelProto, n: onnx.NodeProto) -> int:
    return opset(model, "" if n.domain == "ai.onnx" else n.domain)


def _flipped_by_axes(n: onnx.NodeProto, attr: str, version: int) -> bool:
    """Whether negative-axes / positive-axes already rewrite this attribute at ``version``."""
    spec = AXIS_ATTRS.get(n.op_type) if n.domain in ("", "ai.onnx") else None
    return spec is not None and spec[0] == attr and spec[1] <= version <= spec[2]


def _flip(values: list[int], r: int, negative: bool) -> list[int] | None:
    if not all(-r <= v < r for v in values):
        return None
    new = [v - r if negative and v >= 0 else v + r if not negative and v < 0 else v for v in values]
    return None if new == values else new


def _signs(model: onnx.ModelProto, only: frozenset[str] | None, negative: bool) -> list[str]:
    candidates = []
    for i, n in enumerate(model.graph.node):
        version = _version(model, n)
        rows = freedoms(n.domain, n.op_type, version, "from-back") if version else {}
        rows = {k: v for k, v in rows.items() if not _flipped_by_axes(n, k, version)}
        if rows and chosen(only, node_label(n, i)):
            candidates.append((node_label(n, i), n, rows))
    if not candidates:
        return []
    shapes, sites = known(model), []
    for label, n, rows in candidates:
        changed = False
        for a in n.attribute:
            row = rows.get(a.name)
            if row is None or a.ref_attr_name or len(n.input) <= row.rank_slot:
                continue
            k = shapes.get(n.input[row.rank_slot])
            if k is None or k.rank is None:
                continue
            new = _flip([a.i] if a.type == a.INT else list(a.ints), k.rank, negative)
            if new is None:
                continue
            if a.type == a.INT:
                a.i = new[0]
            else:
                del a.ints[:]
                a.ints.extend(new)
            changed = True
        if changed:
            sites.append(label)
    return sites


def negative(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Every text-stated from-the-back attribute ``a >= 0`` → ``a - r``."""
    return _signs(model, only, negative=True)


def positive(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Every text-stated from-the-back attribute ``a < 0`` → ``a + r``."""
    return _signs(model, only, negative=False)


def _defaults(model: onnx.ModelProto, only: frozenset[str] | None, write: bool) -> list[str]:
    import onnx

    sites = []
    for i, n in enumerate(model.graph.node):
        version = _version(model, n)
        rows = freedoms(n.domain, n.op_type, version, "stated-default") if version else {}
        if not rows or not chosen(only, node_label(n, i)):
            continue
        have = {a.name: a for a in n.attribute}
        if write:
            missing = [r for name, r in rows.items() if name not in have]
            n.attribute.extend(onnx.helper.make_attribute(r.attr, r.value) for r in missing)
            changed = bool(missing)
        else:
            drop = [
                name
                for name, r in rows.items()
                if name in have
                and not have[name].ref_attr_name
                and (have[name].i if isinstance(r.value, int) else have[name].f) == r.value
                and have[name].type == (have[name].INT if isinstance(r.value, int) else have[name].FLOAT)
            ]
            for name in drop:
                drop_attribute(n, name)
            changed = bool(drop)
        if changed:
            sites.append(node_label(n, i))
    return sites


def explicit(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Every omitted attribute whose schema text states a default → written with it."""
    return _defaults(model, only, write=True)


def omitted(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Every attribute equal to the default its schema text states → left out."""
    return _defaults(model, only, write=False)


REWRITES = (
    Rewrite(
        "text-axis-negative",
        "attributes whose schema text says negative counts from the back (not axis-sign's), a >= 0 → a - r",
        negative,
        inverse="text-axis-positive",
    ),
    Rewrite(
        "text-axis-positive",
        "attributes whose schema text says negative counts from the back (not axis-sign's), a < 0 → a + r",
        positive,
        inverse="text-axis-negative",
    ),
    Rewrite(
        "text-default-explicit",
        "optional scalar attributes with no schema default, omitted → the default their text states",
        explicit,
        inverse="text-default-omitted",
    ),
    Rewrite(
        "text-default-omitted",
        "optional scalar attributes with no schema default, equal to the default their text states → omitted",
        omitted,
        inverse="text-default-explicit",
    ),
)

FREEDOMS = (
    Freedom(
        "text-counted-from-back",
        "attributes",
        "each op's schema, attribute description ('Negative value means counting dimensions from the back', "
        "'Accepted range is [-r, r-1]'): Operators.md Shape-15 (start, end), Gather-1 (axis); onnxruntime "
        "ContribOperators.md GatherBlockQuantized (gather_axis, quantize_axis)",
        "An integer attribute whose description says a negative value counts dimensions from the back may be written "
        "a or a - r for the same dim, r the rank of the input the text names; the attributes the axis rows name "
        "are one case, the others are read from the text of every schema of every domain.",
        ("text-axis-negative", "text-axis-positive"),
        "main-graph nodes of any domain whose schema at the model's opset states it (passcheck.mutations.attr_text), "
        "those negative-axes/positive-axes flip left to them; values in [-r, r-1], r known from shape inference",
    ),
    Freedom(
        "text-stated-default",
        "attributes",
        "IR.md §Attributes; each op's schema, attribute description ('Default value is …') where the schema "
        "carries no default value: onnxruntime ContribOperators.md Attention/GroupQueryAttention/PagedAttention/"
        "SparseAttention (do_rotary, softcap, ...), RotaryEmbedding, MRotaryEmbedding; Operators.md Concat-1 (axis)",
        "An optional scalar attribute whose default only its description states, as a literal, may be written "
        "with that value or left out.",
        ("text-default-explicit", "text-default-omitted"),
        "main-graph nodes of any domain whose schema at the model's opset states it (passcheck.mutations.attr_text); "
        "the Conv/pool list defaults are prose-default's",
    ),
)
