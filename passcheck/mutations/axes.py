"""Non-negative ↔ negative axis attributes (ONNX operator spec: since opset 11 these ops accept an
axis in [-r, r-1], counted from the back, where r is the rank named below). Only where shape
inference knows that rank: in the main graph and in every If/Loop/Scan body (nested ones too; a body
node's site is its first output's name); function bodies: :mod:`passcheck.mutations.function_axes`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite, chosen, is_default_domain, opset
from passcheck.mutations._scopes import scopes
from passcheck.runtime import isolated_tools

if TYPE_CHECKING:
    import onnx

_REDUCE = (
    "ReduceL1",
    "ReduceL2",
    "ReduceLogSum",
    "ReduceLogSumExp",
    "ReduceMax",
    "ReduceMean",
    "ReduceMin",
    "ReduceProd",
    "ReduceSumSquare",
)
#: op → (attribute, lowest opset with negative axes, highest opset with the attribute,
#: rank of: "in" input 0 / "out" output 0).
AXIS_ATTRS: dict[str, tuple[str, int, int, str]] = {
    **{
        op: ("axis", 11, 10**6, "in")
        for op in (
            "Concat",
            "Gather",
            "GatherElements",
            "ScatterElements",
            "Split",
            "ArgMax",
            "ArgMin",
            "Compress",
            "TopK",
            "Softmax",
            "LogSoftmax",
            "Hardmax",
            "Flatten",
        )
    },
    # found by the schema walk of passcheck.mutations.gaps (axis attributes that accept negative values)
    **{op: ("axis", 13, 10**6, "in") for op in ("QuantizeLinear", "DequantizeLinear")},
    "LayerNormalization": ("axis", 17, 10**6, "in"),
    "RMSNormalization": ("axis", 23, 10**6, "in"),
    "SplitToSequence": ("axis", 11, 10**6, "in"),
    "Unique": ("axis", 11, 10**6, "in"),
    "OneHot": ("axis", 11, 10**6, "out"),  # [-r-1, r] over the indices' rank r: the output's rank
    "DFT": ("axis", 17, 19, "in"),  # [-r, -2] or [0, r-2]: r counts the trailing real/imaginary dim
    "Resize": ("axes", 18, 10**6, "in"),
    "CenterCropPad": ("axes", 18, 10**6, "in"),
    **{op: ("axes", 11, 17, "in") for op in _REDUCE},
    "ReduceSum": ("axes", 11, 12, "in"),
    "Squeeze": ("axes", 11, 12, "in"),
    "Unsqueeze": ("axes", 11, 12, "out"),
}


def _ranks(model: onnx.ModelProto) -> dict[str, int]:
    """Tensor value → rank, after onnx shape inference, in the main graph and every subgraph (value names
    are unique model-wide, IR.md §Nodes); values of unknown rank are left out."""

    try:
        inferred = isolated_tools.infer_shapes(model)
    except Exception:  # noqa: BLE001 - nothing known: the rewrite then applies nowhere
        return {}
    out: dict[str, int] = {}
    for scope in scopes(inferred, functions=False):
        g = scope.body
        out.update((t.name, len(t.dims)) for t in g.initializer)
        for v in [*g.input, *g.value_info, *g.output]:
            tt = v.type.tensor_type
            if v.type.HasField("tensor_type") and tt.HasField("shape"):
                out.setdefault(v.name, len(tt.shape.dim))
    return out


def _rewrite(model: onnx.ModelProto, negative: bool, only: frozenset[str] | None) -> list[str]:
    version = opset(model)
    candidates = [
        (n, scope.label(n, i))
        for scope in scopes(model, functions=False)
        for i, n in enumerate(scope.body.node)
        if is_default_domain(n)
        and n.op_type in AXIS_ATTRS
        and AXIS_ATTRS[n.op_type][1] <= version <= AXIS_ATTRS[n.op_type][2]
        and chosen(only, scope.label(n, i))
    ]
    if not candidates:
        return []
    ranks = _ranks(model)
    sites = []
    for n, label in candidates:
        _attr, _, _, of = AXIS_ATTRS[n.op_type]
        r = ranks.get(n.input[0] if of == "in" else n.output[0])
        if r is not None and flip_axes(n, r, negative):
            sites.append(label)
    return sites


def flip_axes(n: onnx.NodeProto, r: int, negative: bool) -> bool:
    """Rewrite ``n``'s axis attribute (:data:`AXIS_ATTRS`, rank ``r`` of the value it counts) to the
    other sign; True when it changed. A referenced attribute (``ref_attr_name``) or an axis outside
    [-r, r-1] is left alone."""
    attr = AXIS_ATTRS[n.op_type][0]
    a = next((a for a in n.attribute if a.name == attr), None)
    if a is None or a.ref_attr_name:
        return False
    vals = [a.i] if attr == "axis" else list(a.ints)
    if not all(-r <= v < r for v in vals):
        return False  # e.g. Flatten's axis == r has no negative spelling
    new = [v - r if negative and v >= 0 else v + r if not negative and v < 0 else v for v in vals]
    if new == vals:
        return False
    if attr == "axis":
        a.i = new[0]
    else:
        del a.ints[:]
        a.ints.extend(new)
    return True


def negative(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Every non-negative axis attribute → the same axis counted from the back."""
    return _rewrite(model, negative=True, only=only)


def positive(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Every negative axis attribute → the same axis counted from the front."""
    return _rewrite(model, negative=False, only=only)


REWRITES = (
    Rewrite(
        "negative-axes",
        "axis/axes attributes a >= 0 → a - rank (opset >= 11, rank known)",
        negative,
        inverse="positive-axes",
    ),
    Rewrite(
        "positive-axes",
        "axis/axes attributes a < 0 → a + rank (opset >= 11, rank known)",
        positive,
        inverse="negative-axes",
    ),
)
