"""A cast round trip split across an op that only moves elements (``cast-across-movement``): ``y = M(x, …)`` →
``y = Cast(M(Cast(x, to=W), …), to=T)``, T the element type of x and W a type that represents every value of T.

The rule: Cast is elementwise (Operators.md Cast-6/13/19/21: each element converted on its own, exactly when
the target type represents it), and each op of :data:`MOVEMENT` builds its output from elements of its data
input 0 without computing on them (Operators.md Transpose, Reshape, Flatten, Squeeze, Unsqueeze, Identity,
Expand, Tile, Slice, Gather, GatherElements, GatherND, DepthToSpace, SpaceToDepth: a reordering, selection or
repetition of elements). So ``Cast(M(x))`` is ``M(Cast(x))``, and with W representing T
(:func:`passcheck.mutations.cast_round_trip.represents`) ``Cast(M(Cast(x, W)), T)`` is ``M(x)`` bit for bit.
The Casts of :mod:`passcheck.mutations.cast_round_trip` sit next to each other; here the op moves between
them, so every reader of y reads a Cast whose input is M's output — the spelling a mixed-precision export
writes (a layout op run in one float type, its result cast for the reader) and the pattern a fusion that
looks through a Cast to reach M meets (onnxruntime's MatmulTransposeFusion reorders ``Transpose → Cast →
MatMul``, ``core/optimizer/matmul_transpose_fusion.cc``).

Sites are main-graph default-domain nodes of :data:`MOVEMENT` with one output, whose data input has a known
element type T; one site per (node, W) as ``NODE:via-W`` for each W of
:func:`passcheck.mutations.cast_round_trip.wider` that M's schema takes on input 0 at the model's opset and
for which onnxruntime's CPU provider runs M at W and Cast both ways (:func:`passcheck.runtime.kernels.
node_runs_on_cpu`). All at once: the first fitting W on every node. The node's output keeps its name (the
outer Cast writes it); new values are named fresh and left unannotated.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations import _base as B
from passcheck.mutations._freedom import Freedom
from passcheck.mutations._graph_edit import splice
from passcheck.mutations._schema_types import accepts
from passcheck.mutations._shapes import known
from passcheck.mutations.cast_round_trip import NAMES, cast_runs, wider

if TYPE_CHECKING:
    import onnx

#: Ops whose output is made of elements of input 0, moved, selected or repeated (module docs).
MOVEMENT = frozenset(
    {
        "Transpose",
        "Reshape",
        "Flatten",
        "Squeeze",
        "Unsqueeze",
        "Identity",
        "Expand",
        "Tile",
        "Slice",
        "Gather",
        "GatherElements",
        "GatherND",
        "DepthToSpace",
        "SpaceToDepth",
    }
)


def _runs_at(n: onnx.NodeProto, version: int, wide: int, types: dict) -> bool:
    """Whether onnxruntime's CPU provider runs ``n`` with its data input (and so its output) of type ``wide``."""
    import onnx

    from passcheck.runtime.kernels import node_runs_on_cpu

    schema = onnx.defs.get_schema(n.op_type, version, "")
    data, out = n.input[0], n.output[0]

    def elem_of(v: str) -> int:
        if v in (data, out):
            return wide
        k = types.get(v)
        return k.elem_type if k is not None else 0

    return bool(node_runs_on_cpu(n, schema, elem_of))


def widths(n: onnx.NodeProto, version: int, types: dict) -> tuple[int, ...]:
    """The types W of the module docs for node ``n`` (empty when it is no site)."""
    if n.op_type not in MOVEMENT or B.is_default_domain(n) is False or len(n.output) != 1 or not n.input:
        return ()
    k = types.get(n.input[0])
    if k is None or not k.elem_type:
        return ()
    t = k.elem_type
    return tuple(
        w
        for w in wider(t)
        if accepts(n.op_type, version, w)
        and cast_runs(t, w, version)
        and cast_runs(w, t, version)
        and _runs_at(n, version, w, types)
    )


def across(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Each site ``NODE:via-W`` → the node run on its input cast to W and its output cast back (module docs);
    with ``only`` None, the first W on every node. The labels changed, in model order."""
    import onnx

    g = model.graph
    types = known(model)
    version = B.opset(model)
    taken = B.all_names(model)
    replace: dict[int, list] = {}
    labels = []
    for i, n in enumerate(g.node):
        label = B.node_label(n, i)
        ws = widths(n, version, types) if B.is_default_domain(n) else ()
        picked = [w for w in ws if B.chosen(only, f"{label}:via-{NAMES[w]}")]
        if not picked:
            continue
        w = picked[0]
        t = types[n.input[0]].elem_type
        x, y = n.input[0], n.output[0]
        wide_in = B.fresh_name(taken, f"{x}_to_{NAMES[w]}")
        wide_out = B.fresh_name(taken, f"{y}_{NAMES[w]}")
        cast_in = onnx.helper.make_node("Cast", [x], [wide_in], name=B.fresh_name(taken, f"{label}_cast_in"), to=w)
        n.input[0] = wide_in
        n.output[0] = wide_out
        cast_out = onnx.helper.make_node("Cast", [wide_out], [y], name=B.fresh_name(taken, f"{label}_cast_out"), to=t)
        replace[i] = [cast_in, n, cast_out]
        labels.append(f"{label}:via-{NAMES[w]}")
    if labels:
        splice(g, None, replace)
    return labels


REWRITES = (
    B.Rewrite(
        "cast-across-movement",
        "y = M(x) for an op M that only moves elements (Transpose, Reshape, Squeeze, Unsqueeze, Flatten, Slice, "
        "Gather, Expand, Tile, …) → Cast(M(Cast(x, to=W)), to=T), W representing every value of x's type T "
        "(float→double, float16→float, int32→int64, …; site NODE:via-W); all at once: every such node",
        across,
    ),
)

FREEDOMS = (
    Freedom(
        "cast-across-movement",
        "data types",
        "Operators.md Cast (elementwise; a value the target type represents converts exactly) and the ops that "
        "only move elements (Transpose, Reshape, Flatten, Squeeze, Unsqueeze, Identity, Expand, Tile, Slice, "
        "Gather*, DepthToSpace, SpaceToDepth)",
        "A cast commutes with an op that only moves elements, so a round trip through a type that represents "
        "every value may enclose that op: the op runs in the wider type and its result is cast back.",
        ("cast-across-movement",),
        "main-graph default-domain nodes of those ops with one output and a known input type; one site per node "
        "and type W the op's schema takes and onnxruntime's CPU provider runs (Cast both ways too); all at once, "
        "the first W on every node",
    ),
)
