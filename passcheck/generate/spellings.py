"""Spelling kinds: from one runnable node, pairs of forms that differ in one spelling each.

Each kind is a function ``(node, ctx) → [Pair]``; a kind that does not apply returns ``[]``.
Forms are :class:`~passcheck.generate.recipe.Node` s (built into models with a shape mode), so a
pair changes exactly one thing: an optional input's spelling, an attribute's presence, an axis
sign, the opset stamp, the graph input shapes. The kinds of the node's own attributes and inputs are
in :mod:`.node_spellings`; :data:`KINDS` lists every kind, in the order cases are generated.
"""

from __future__ import annotations

from collections.abc import Callable

from passcheck.cases.opsets import NEWEST_PORTABLE
from passcheck.generate.node_spellings import (
    attr_defaults,
    attr_no_value,
    attr_to_input,
    axes,
    constant_value,
    optional_inputs,
)
from passcheck.generate.omitted import omitted
from passcheck.generate.pair import Ctx, Pair
from passcheck.generate.recipe import Node, _param_of, table_row, type_name


def shapes(node: Node, ctx: Ctx) -> list[Pair]:
    if not any(i.value is None and not i.empty and i.shape for i in node.inputs):
        return []
    return [
        Pair(
            "shape",
            "",
            {
                "common": (node, "static", ""),
                "symbolic": (node, "symbolic", "graph input dims as dim_param"),
                "anonymous": (node, "anonymous", "graph input dims with neither dim_value nor dim_param"),
            },
            "graph input shapes static vs symbolic vs anonymous",
        )
    ]


def opset_stamp(node: Node, ctx: Ctx) -> list[Pair]:
    if node.domain or ctx.last_opset <= node.opset:
        return []
    hi = node.copy()
    hi.opset = ctx.last_opset
    forms = {
        "common": (node, "static", ""),
        f"opset{ctx.last_opset}": (
            hi,
            "static",
            f"the same graph stamped opset {ctx.last_opset}, the last before the schema changes",
        ),
    }
    if node.opset < NEWEST_PORTABLE < ctx.last_opset:
        # the newest stamp every pinned environment's onnxruntime loads: the last one is n/a in the older
        # environments, and a pass may spell what it writes by the model's opset (Split-18's num_outputs)
        mid = node.copy()
        mid.opset = NEWEST_PORTABLE
        forms[f"opset{NEWEST_PORTABLE}"] = (mid, "static", f"the same graph stamped opset {NEWEST_PORTABLE}")
    return [
        Pair(
            "opset",
            "",
            forms,
            f"opset stamp {node.opset} (since_version) vs {ctx.last_opset} (last with this schema)",
        )
    ]


def zero_size(node: Node, ctx: Ctx) -> list[Pair]:

    if table_row(node.schema).get("no_zero_size") or node.opset < 11:
        return []
    data = [i for i in node.inputs if i.value is None and not i.empty]
    if not data or any(len(i.shape) < 2 for i in data) or len({tuple(i.shape) for i in data}) > 1:
        return []
    z = node.copy()
    for i in z.inputs:
        if i.value is None and not i.empty:
            i.shape = (i.shape[0], 0, *i.shape[2:])
    return [
        Pair(
            "zero-size",
            "",
            {
                "common": (z, "static", ""),
                "symbolic": (z, "symbolic", "zero-size dim kept static, others symbolic"),
                "anonymous": (z, "anonymous", "zero-size dim kept static, others anonymous"),
            },
            "a zero-size dim in every data input, static vs symbolic vs anonymous other dims",
        )
    ]


def rank_low(node: Node, ctx: Ctx) -> list[Pair]:

    row = table_row(node.schema)
    if (
        "shape" in row
        or row.get("no_rank_low")
        or any(i.value is not None for i in node.inputs)
        or {"axis", "axes"} & set(node.schema.attributes)
    ):  # an axis has no valid value at rank 0
        return []
    data = [i for i in node.inputs if not i.empty]
    if not data:
        return []
    out = []
    for rank, shape in ((0, ()), (1, (5,))):
        n = node.copy()
        for i in n.inputs:
            if not i.empty:
                i.shape = shape
        out.append(
            Pair(
                "rank",
                str(rank),
                {
                    "common": (n, "static", ""),
                    "symbolic": (n, "symbolic", "symbolic dims"),
                    "anonymous": (n, "anonymous", "anonymous dims"),
                },
                f"rank-{rank} inputs, static vs symbolic vs anonymous",
            )
        )
    return out


#: Words with which a schema doc states that its inputs broadcast (docs/Broadcasting.md's two kinds, and
#: StringConcat-20's "NumPy-style broadcasting"). A doc that names broadcasting only to deny it (SwiGLU-28: "Inputs
#: `A` and `B` must have identical shapes; broadcasting is not applied") states none.
BROADCAST_WORDS = ("multidirectional", "unidirectional", "numpy-style broadcasting")


def states_broadcasting(doc: str) -> bool:
    """Whether an op's schema ``doc`` states that its inputs broadcast (:data:`BROADCAST_WORDS`)."""
    text = doc.lower()
    return any(w in text for w in BROADCAST_WORDS)


def broadcast(node: Node, ctx: Ctx) -> list[Pair]:
    """Binary ops whose schema states broadcasting (:func:`states_broadcasting`): implicit vs Expand vs
    Unsqueeze-spelled operand."""
    doc = node.schema.doc or ""
    data = [i for i in node.inputs if i.value is None and not i.empty]
    if (
        not states_broadcasting(doc)
        or len(data) != 2
        or len(node.inputs) != 2
        or node.opset < 13
        or len(data[1].shape) != 3
    ):
        return []
    small = node.copy()
    small.inputs[1].shape = (small.inputs[1].shape[-1],)
    return [
        Pair(
            "broadcast",
            "",
            {
                "common": (small, "static", ""),
                "explicit-expand": (small, "expand", "second operand Expand-ed to the full shape first"),
                "explicit-unsqueeze": (small, "unsqueeze", "second operand Unsqueeze-d to rank 3 first"),
            },
            "implicit broadcasting vs broadcast spelled with Expand / Unsqueeze",
        )
    ]


KINDS: dict[str, Callable[[Node, Ctx], list[Pair]]] = {
    "shape": shapes,
    "opset": opset_stamp,
    "attr-default": attr_defaults,
    "attr-no-value": attr_no_value,
    "optional-input": optional_inputs,
    "axes": axes,
    "attr-to-input": attr_to_input,
    "zero-size": zero_size,
    "rank": rank_low,
    "broadcast": broadcast,
    "constant-value": constant_value,
    "omitted": omitted,
}


def dtype_pair(node: Node, ctx: Ctx) -> list[Pair]:
    """For a non-main dtype: the same node static vs symbolic (and opset-last), tagged by the type the
    first input's constraint is bound to (an op whose inputs are all constants, Range, has no fed input
    to read it from)."""
    first = _param_of(node.schema.inputs[0].type_str) if node.schema.inputs else None
    name = type_name(node.dtypes[first] if first in node.dtypes else node.main_elem())
    forms = {"common": (node, "static", ""), "symbolic": (node, "symbolic", "graph input dims as dim_param")}
    if not node.domain and ctx.last_opset > node.opset:
        hi = node.copy()
        hi.opset = ctx.last_opset
        forms[f"opset{ctx.last_opset}"] = (hi, "static", f"stamped opset {ctx.last_opset}")
    return [Pair("dtype", name, forms, f"element type {name}")]
