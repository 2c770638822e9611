"""Operands of a commutative op swapped (ONNX operator spec: Add, Mul, Sum, Max, Min, Equal, And,
Or and Xor are commutative, multidirectional broadcasting is symmetric, so ``op(a, b) = op(b, a)``).
Before opset 7, Add/Mul/And/Or/Xor/Equal broadcast only ``B`` onto ``A`` (the ``broadcast`` /
``axis`` attributes): such nodes are left alone."""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite, chosen, is_default_domain, node_label

if TYPE_CHECKING:
    import onnx

COMMUTATIVE = frozenset({"Add", "Mul", "Sum", "Max", "Min", "Equal", "And", "Or", "Xor"})


def swap(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Swap the first two inputs of every commutative main-graph node whose two differ.

    Only the first two of a variadic Sum/Max/Min move, so the order in which the rest are combined
    (and a float sum's rounding) is unchanged.
    """
    sites = []
    for i, n in enumerate(model.graph.node):
        if (
            n.op_type in COMMUTATIVE
            and is_default_domain(n)
            and len(n.input) >= 2
            and n.input[0] != n.input[1]
            and all(x for x in n.input[:2])
            and not any(a.name in ("broadcast", "axis") for a in n.attribute)
            and chosen(only, node_label(n, i))
        ):
            n.input[0], n.input[1] = n.input[1], n.input[0]
            sites.append(node_label(n, i))
    return sites


REWRITES = (
    Rewrite(
        "commute-operands",
        "op(a, b) → op(b, a) for Add, Mul, Sum, Max, Min, Equal, And, Or, Xor (commutative; opset >= 7 broadcasting is symmetric)",
        swap,
    ),
)
