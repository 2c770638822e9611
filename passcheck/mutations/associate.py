"""``op(op(a, b), c)`` → ``op(a, op(b, c))`` where the op is associative bit for bit (issue 27).

ONNX operator spec: And, Or, Xor (bool), BitwiseAnd/Or/Xor (integers), Max and Min (every type;
the maximum of three does not depend on the order it is taken in, ±0 aside, which compare equal),
and Add and Mul on integer types (two's complement wraps modulo 2^n, an associative ring) — with
multidirectional broadcasting (opset >= 7), whose result shape is the same whichever pair goes
first. Float Add and Mul are not rewritten: rounding makes ``(a + b) + c`` differ from
``a + (b + c)`` in the last bits (and in overflow), which is a tolerance, not an equivalence.

Main graph only; the inner node must be read by the outer one only. Sites are the outer nodes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations._base import (
    Rewrite,
    all_names,
    chosen,
    consumers,
    fresh_name,
    is_default_domain,
    node_label,
    opset,
)
from passcheck.mutations._graph_edit import protected, splice
from passcheck.mutations._schema_types import SIGNED_INTS, UNSIGNED_INTS
from passcheck.mutations._shapes import known
from passcheck.mutations.catalogue import Freedom

if TYPE_CHECKING:
    import onnx

ANY_TYPE = frozenset({"And", "Or", "Xor", "BitwiseAnd", "BitwiseOr", "BitwiseXor", "Max", "Min"})
INTEGER_ONLY = frozenset({"Add", "Mul"})
BROADCAST_OPSET = 8  # Max/Min broadcast from 8, the others from 7


def reassociate(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Rewrite each ``op(op(a, b), c)`` (either operand of the outer op) as ``op(a, op(b, c))``."""
    import onnx

    g, types = model.graph, known(model)
    if opset(model) < BROADCAST_OPSET:
        return []
    made = {o: j for j, n in enumerate(g.node) for o in n.output if o}
    readers, keep = consumers(g), protected(g)
    taken, replace, used, sites = all_names(model), {}, set(), []
    for i, outer in enumerate(g.node):
        op = outer.op_type
        if (
            op not in ANY_TYPE | INTEGER_ONLY
            or not is_default_domain(outer)
            or len(outer.input) != 2
            or not chosen(only, node_label(outer, i))
        ):
            continue
        k = types.get(outer.output[0])
        if k is None or (op in INTEGER_ONLY and k.elem_type not in SIGNED_INTS | UNSIGNED_INTS):
            continue
        for p in (0, 1):
            j = made.get(outer.input[p])
            inner = g.node[j] if j is not None else None
            if (
                inner is None
                or j in used
                or inner.op_type != op
                or not is_default_domain(inner)
                or len(inner.input) != 2
                or readers.get(inner.output[0]) != [i]
                or inner.output[0] in keep
            ):
                continue
            a, b, c = inner.input[0], inner.input[1], outer.input[1 - p]
            bc = fresh_name(taken, f"{outer.output[0]}_reassociated")
            new_inner = onnx.helper.make_node(op, [b, c], [bc], name=fresh_name(taken, f"{bc}_node"))
            outer.input[:] = [a, bc]
            replace[j], replace[i] = [], [new_inner, outer]
            used.update((i, j))
            sites.append(node_label(outer, i))
            break
    if sites:
        splice(g, replace=replace)
    return sites


REWRITES = (
    Rewrite(
        "reassociate",
        "op(op(a, b), c) → op(a, op(b, c)) for And/Or/Xor/Bitwise*/Max/Min, and integer Add/Mul "
        "(associative bit for bit)",
        reassociate,
    ),
)

FREEDOMS = (
    Freedom(
        "exact-associativity",
        "algebra",
        "Operators.md And, Or, Xor, Bitwise*, Max, Min, Add, Mul; Broadcasting.md",
        "op(op(a, b), c) is op(a, op(b, c)) for the logical, bitwise, Max and Min ops of every type and for "
        "integer Add and Mul (two's complement wraps modulo 2^n).",
        ("reassociate",),
        "main-graph pairs whose inner node is read only by the outer one; opset >= 8",
    ),
    Freedom(
        "float-associativity",
        "algebra",
        "Operators.md Add, Mul, Sum (IEEE 754 rounding)",
        "(a + b) + c and a + (b + c) are equal in exact arithmetic; Sum(a, b, c) is either nesting.",
        (),
        none_because="float rounding depends on the order: the two nestings differ in the last bits and can "
        "differ outright (1e8 + -1e8 + 1), so the gate would refuse the mutant; it is a tolerance, not an "
        "equivalence",
        evidence="tests/mutations/test_algebra_limits.py::test_float_add_is_not_associative",
    ),
    Freedom(
        "constants-combined",
        "algebra",
        "Operators.md Add, Mul (integer types)",
        "(x + c1) + c2 may be written x + (c1 + c2) with the constants combined into one.",
        (),
        none_because="combining the constants is constant folding, the pass under test; reassociate writes the "
        "unfolded x + (c1 + c2), which is what a folding pass then sees",
    ),
)
