"""An op computed in a permuted layout (``transpose-conjugate``): ``op(x)`` → ``Transpose(op'(Transpose(x,
p)), q)``, ``op'`` the op with its axes moved through the permutation (see
:mod:`passcheck.mutations._conjugate_ops` for the ops and the remapping each schema calls for).

Transpose is exact (Operators.md Transpose: a reordering of elements), elementwise ops see the same
elements and give the same bits; a reduction may add its elements in another order, so float results
may differ in the last bits, which the equivalence gate's per-dtype tolerance allows
(:func:`passcheck.oracles.numeric.compare`; integer sums wrap the same in any order and are compared
exactly). This is the form layout-converting exporters write (tf2onnx puts Transpose pairs around
layout-sensitive ops) and the input domain of onnxruntime's transpose optimizer.

Sites are main-graph default-domain nodes whose input rank is known and >= 2 (the output rank, for the
broadcasting ops) and whose transposed values have an element type Transpose takes at the model's opset;
one site per node. The permutation is :func:`passcheck.mutations._conjugate_ops.layout` (NCHW → NHWC
for rank 4, reversed axes otherwise). New values are named fresh and left unannotated (their shapes
are shape inference's to find); the node's outputs keep their names.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from passcheck.mutations import _base as B
from passcheck.mutations._conjugate_ops import PLANS, Layout, Plan, Site, layout, plan_for
from passcheck.mutations._graph_edit import drop_attribute, splice
from passcheck.mutations._schema_types import accepts
from passcheck.mutations._shapes import known
from passcheck.mutations.catalogue import Freedom
from passcheck.mutations.index_sign import _constant, fresh_static

if TYPE_CHECKING:
    import onnx

#: Ops whose rank is the output's (an operand may be a lower-rank one-element tensor).
_BY_OUTPUT = frozenset(op for op, (_since, make) in PLANS.items() if make.__name__ == "_broadcast")


def _rank(n: onnx.NodeProto, site: Site) -> int | None:
    return site.rank(n.output[0] if n.op_type in _BY_OUTPUT else n.input[0])


def _typed(names, site: Site) -> bool:
    """Every value Transpose reads has a known element type Transpose takes at the opset."""
    return all(
        (k := site.types.get(x)) is not None and k.elem_type and accepts("Transpose", site.version, k.elem_type)
        for x in names
    )


def conjugate(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Each handled node → the same op in a permuted layout (module docs); the labels changed, in model order."""

    def fixed(label: str, r: int):
        return [(label, layout(r))] if B.chosen(only, label) else []

    return conjugate_in(model, fixed, listing=False)


def conjugate_in(
    model: onnx.ModelProto, layouts: Callable[[str, int], list[tuple[str, Layout]]], listing: bool
) -> list[str]:
    """Each handled node conjugated by the first layout ``layouts(node label, rank)`` offers that the op takes (its
    plan exists and every transposed value has a type Transpose takes), in place; the site labels of those layouts,
    in model order. With ``listing`` (:data:`._base.LISTING` of a rewrite declared ``lists``), the label of
    *every* offered layout the op takes and the model untouched."""
    g = model.graph
    site = Site(known(model), B.static_tensors(g), B.opset(model))
    taken = B.all_names(model)
    before: dict[int, list] = {}
    replace: dict[int, list] = {}
    freed: set[str] = set()
    labels = []
    for i, n in enumerate(g.node):
        if not B.is_default_domain(n) or not n.input:
            continue
        r = _rank(n, site)
        if r is None or r < 2:
            continue
        label = B.node_label(n, i)
        for name, lay in layouts(label, r):
            plan = plan_for(n, site, lay)
            if plan is None or not _typed([n.input[s] for s in plan.inputs], site):
                continue
            if not _typed([o for o, q in zip(n.output, plan.outputs) if q is not None and o], site):
                continue
            labels.append(name)
            if listing:
                continue
            before[i], after = _rewrite(g, n, plan, lay, taken, freed, label)
            replace[i] = [n, *after]
            break
    if replace:
        splice(g, before, replace)
        B.drop_unused(g, freed)
    return labels


def _rewrite(g, n, plan: Plan, lay: Layout, taken: set[str], freed: set[str], label: str):
    """Edit ``n`` in place; the nodes to put before it and after it."""
    import onnx

    front, back = [], []
    for s in plan.inputs:
        x = n.input[s]
        t = B.fresh_name(taken, f"{x}_perm")
        front.append(
            onnx.helper.make_node("Transpose", [x], [t], name=B.fresh_name(taken, f"{label}_perm_in{s}"), perm=lay.p)
        )
        n.input[s] = t
    for name, value in plan.attrs.items():
        drop_attribute(n, name)
        n.attribute.append(onnx.helper.make_attribute(name, value))
    for s, values in plan.statics.items():
        old = n.input[s] if s < len(n.input) else ""
        base = f"{old or n.output[0]}_perm"
        if old:
            made = fresh_static(g, taken, base, values, old)
            freed.add(old)
        else:
            made = [_constant(taken, base, values)]
        front.extend(made)
        new = made[0].output[0] if made else g.initializer[-1].name
        while len(n.input) <= s:
            n.input.append("")
        n.input[s] = new
    for j, q in enumerate(plan.outputs):
        o = n.output[j]
        if q is None or not o:
            continue
        mid = B.fresh_name(taken, f"{o}_perm")
        n.output[j] = mid
        back.append(
            onnx.helper.make_node("Transpose", [mid], [o], name=B.fresh_name(taken, f"{label}_perm_out{j}"), perm=q)
        )
    return front, back


REWRITES = (
    B.Rewrite(
        "transpose-conjugate",
        "op(x) → Transpose(op'(Transpose(x, p)), inverse p), op' with its axes moved through p (elementwise, "
        "broadcasting, Softmax-13+, Reduce*, ArgMax/ArgMin, Concat, Split, Slice, Pad, Tile, CumSum, Q/DQ; rank >= 2)",
        conjugate,
    ),
)

FREEDOMS = (
    Freedom(
        "permuted-layout",
        "algebra",
        "Operators.md Transpose (perm: output dim i is input dim perm[i]) and the schemas of the ops "
        "conjugated (axis/axes attributes and inputs, Pad pads, Tile repeats, keepdims); IR.md §Graphs "
        "(any node order and intermediate names)",
        "An op may be computed on a transposed copy of its input with its axes renumbered through the "
        "permutation, and the result transposed back: the same values, in the layout the writer chose.",
        ("transpose-conjugate",),
        "main-graph default-domain nodes of the handled ops (unary elementwise from the schemas, broadcasting "
        "ops with operands of the output rank, Clip, CastLike, Softmax/LogSoftmax/Hardmax-13+, Reduce*, ArgMax/"
        "ArgMin, Concat, Split, Slice, Pad, Tile, CumSum, per-tensor and per-axis Q/DQ) whose rank is known and "
        ">= 2 and whose axis inputs are static; one site per node; composes with every rewrite (depth 2)",
    ),
)
