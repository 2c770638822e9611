"""Axis signs inside model-local function bodies. ONNX spec: Operators.md (since opset 11 the ops of
:data:`passcheck.mutations.axes.AXIS_ATTRS` take an axis in [-r, r-1], negative counting from the
back) and IR.md §Functions (a function body is a list of nodes of the operators it imports; a call
means its body), so a body node may count its axis either way, as a main-graph node may.

A body has no types of its own (a function may be polymorphic), so the rank ``r`` comes from the
call sites: only a function whose calls are all main-graph nodes agreeing on the types onnx shape
inference gives the body (:func:`passcheck.mutations.function_types.monomorphic_types`) is
rewritten. An axis given by reference (``ref_attr_name``, IR.md §Attributes) is flipped where its value is
written: at every call, or in the function's default where a call leaves it out (IR >= 9), when the body
refers to that name once.

- ``function-negative-axes``: every literal axis a >= 0 in such a body → a - r.
- ``function-positive-axes``: every literal axis a < 0 → a + r.

Sites: ``FUNCTION/`` + the node's first output (:mod:`passcheck.mutations._scopes`). A model without
functions has no site; the hunt reaches the main graph's axes at depth 2 after
``region-as-local-function``, ``nested-local-function`` or ``node-as-local-function`` (``Rewrite.after``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite, chosen, is_default_domain
from passcheck.mutations._freedom import Freedom
from passcheck.mutations._scopes import Scope, opset_of
from passcheck.mutations.axes import AXIS_ATTRS, flip_axes
from passcheck.mutations.function_types import monomorphic_types

if TYPE_CHECKING:
    import onnx


def _ranks(infos: list) -> dict[str, int]:
    return {
        v.name: len(v.type.tensor_type.shape.dim)
        for v in infos
        if v.type.HasField("tensor_type") and v.type.tensor_type.HasField("shape")
    }


def _rewrite(model: onnx.ModelProto, negative: bool, only: frozenset[str] | None) -> list[str]:
    sites: list[str] = []
    for f in model.functions:
        scope = Scope(f, "function", f"{f.name}/")
        version = opset_of(model, scope)
        todo = [
            (n, scope.label(n, i))
            for i, n in enumerate(f.node)
            if is_default_domain(n)
            and n.op_type in AXIS_ATTRS
            and AXIS_ATTRS[n.op_type][1] <= version <= AXIS_ATTRS[n.op_type][2]
            and chosen(only, scope.label(n, i))
        ]
        if not todo:
            continue
        infos = monomorphic_types(model, f)
        if infos is None:
            continue
        ranks = _ranks(infos)
        for n, label in todo:
            r = ranks.get(n.input[0] if AXIS_ATTRS[n.op_type][3] == "in" else n.output[0])
            if r is not None and (flip_axes(n, r, negative) or _flip_referenced(model, f, n, r, negative)):
                sites.append(label)
    return sites


def _flip_referenced(model: onnx.ModelProto, f: onnx.FunctionProto, n: onnx.NodeProto, r: int, negative: bool) -> bool:
    """Flip the value an axis given by reference comes from: the attribute of that name at every call, or the
    function's default (``attribute_proto``) where a call leaves it out. Only when the body refers to the name
    once (no other reader sees the new sign) and every call's value has a sign to flip; else nothing changes."""
    import onnx

    name = AXIS_ATTRS[n.op_type][0]
    ref = next((a.ref_attr_name for a in n.attribute if a.name == name and a.ref_attr_name), "")
    uses = [a for m in f.node for a in m.attribute if a.ref_attr_name == ref or a.type == onnx.AttributeProto.GRAPH]
    if not ref or len(uses) != 1:
        return False
    calls = [c for c in model.graph.node if (c.domain, c.op_type) == (f.domain, f.name)]
    default = next((a for a in f.attribute_proto if a.name == ref), None)
    carriers = [next((a for a in c.attribute if a.name == ref), default) for c in calls]
    if any(c is None for c in carriers):
        return False  # a call leaves the op at its schema default: no literal to flip
    flipped = []
    for carrier in dict((id(c), c) for c in carriers).values():
        probe = onnx.NodeProto(op_type=n.op_type)
        probe.attribute.add().CopyFrom(carrier)
        probe.attribute[0].name = name
        if not flip_axes(probe, r, negative):
            return False
        flipped.append((carrier, probe.attribute[0]))
    for carrier, new in flipped:
        carrier.i = new.i
        del carrier.ints[:]
        carrier.ints.extend(new.ints)
    return bool(flipped)


def negative(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Every non-negative literal axis in a monomorphically called function body → counted from the back."""
    return _rewrite(model, negative=True, only=only)


def positive(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Every negative literal axis in a monomorphically called function body → counted from the front."""
    return _rewrite(model, negative=False, only=only)


#: The rewrites that move main-graph nodes with axes into a function body (literal, or by reference from the call).
_OPENED_BY = ("region-as-local-function", "nested-local-function", "node-as-local-function")

REWRITES = (
    Rewrite(
        "function-negative-axes",
        "axis/axes attributes a >= 0 in model-local function bodies → a - rank (rank from the call sites)",
        negative,
        inverse="function-positive-axes",
        after=_OPENED_BY,
    ),
    Rewrite(
        "function-positive-axes",
        "axis/axes attributes a < 0 in model-local function bodies → a + rank (rank from the call sites)",
        positive,
        inverse="function-negative-axes",
        after=_OPENED_BY,
    ),
)

FREEDOMS = (
    Freedom(
        "axis-sign-in-function-bodies",
        "functions",
        "IR.md §Functions (a call means its body); Operators.md (axis attributes since opset 11: range [-r, r-1])",
        "A node in a model-local function body may count its axis from the front (a) or from the back (a - r), "
        "as a main-graph node may (axis-sign).",
        ("function-negative-axes", "function-positive-axes"),
        "axis/axes attributes of function-body nodes (the ops of axis-sign, at the function's own opset "
        "import) of functions called only from the main graph with one set of input types, so the rank is known; "
        "an axis given by ref_attr_name (read once in the body) flips at every call or in the function's default; "
        "in the hunt at depth 2 after region-as-local-function / "
        "nested-local-function / node-as-local-function (Rewrite.after)",
    ),
)
