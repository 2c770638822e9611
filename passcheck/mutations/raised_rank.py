"""A unary elementwise op computed on a rank-raised view of its input (Operators.md Unsqueeze-1/11/13,
Squeeze-1/11/13 and the unary elementwise operators).

A unary elementwise op maps each element on its own, whatever the rank; Unsqueeze inserts a size-1 axis and
Squeeze removes it again, neither moving an element. So ``f(x)`` is ``Squeeze(f(Unsqueeze(x, [0])), [0])``: the
same elements in the same order and the same shape. The rank-raised value carries each dim of ``x`` one index
further, so a shape chain ending in the Unsqueeze (a Reshape before it, the op after it) has its dims at other
positions than ``x`` (a zero-size dim too).

Main-graph default-domain nodes of :data:`OPS` with one input and one output, where onnx shape inference
knows the input's rank; opset >= 13 writes the axes as an int64 Constant input, opset 1-12 as the ``axes``
attribute. The op keeps its name and attributes; the Squeeze writes the op's old output. Sites are the ops.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite, all_names, chosen, fresh_name, is_default_domain, node_label, opset
from passcheck.mutations._graph_edit import int64_constant, splice
from passcheck.mutations._shapes import known
from passcheck.mutations.catalogue import Freedom

if TYPE_CHECKING:
    import onnx

#: Unary elementwise operators (one input, one output, each element mapped on its own; Operators.md).
OPS = frozenset(
    {
        "Abs", "Acos", "Acosh", "Asin", "Asinh", "Atan", "Atanh", "Ceil", "Celu", "Cos", "Cosh", "Elu", "Erf",
        "Exp", "Floor", "HardSigmoid", "HardSwish", "IsInf", "IsNaN", "LeakyRelu", "Log", "Mish", "Neg", "Not",
        "Reciprocal", "Relu", "Round", "Selu", "Sigmoid", "Sign", "Sin", "Sinh", "Softplus", "Softsign", "Sqrt",
        "Tan", "Tanh", "ThresholdedRelu",
    }
)  # fmt: skip
#: Squeeze and Unsqueeze take their axes as an input from opset 13.
AXES_INPUT = 13


def raise_rank(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Each chosen ``y = f(x)`` → ``u = Unsqueeze(x, [0])``, ``v = f(u)``, ``y = Squeeze(v, [0])``."""
    import onnx

    g, version = model.graph, opset(model)
    if version < 1:
        return []
    types, taken = known(model), all_names(model)
    replace, sites = {}, []
    for i, n in enumerate(g.node):
        label = node_label(n, i)
        x = types.get(n.input[0]) if len(n.input) == 1 else None
        if n.op_type not in OPS or not is_default_domain(n) or len(n.output) != 1 or x is None or x.dims is None:
            continue
        if not chosen(only, label):
            continue
        base, y = n.name or n.output[0], n.output[0]
        up, mid = fresh_name(taken, f"{base}_raised_in"), fresh_name(taken, f"{base}_raised_out")
        extra, axes_in, attrs = [], [], {"axes": [0]}  # before opset 13: the axes attribute
        if version >= AXES_INPUT:
            extra, attrs = [int64_constant(taken, f"{base}_raised_axes", [0])], {}
            axes_in = [extra[0].output[0]]
        unsq = onnx.helper.make_node(
            "Unsqueeze", [n.input[0], *axes_in], [up], name=fresh_name(taken, f"{base}_raise"), **attrs
        )
        sq = onnx.helper.make_node("Squeeze", [mid, *axes_in], [y], name=fresh_name(taken, f"{base}_lower"), **attrs)
        n.input[0], n.output[0] = up, mid
        replace[i] = [*extra, unsq, n, sq]
        sites.append(label)
    if sites:
        splice(g, replace=replace)
    return sites


REWRITES = (
    Rewrite(
        "unary-raised-rank",
        "f(x) → Squeeze(f(Unsqueeze(x, [0])), [0]) for a unary elementwise f (Unsqueeze/Squeeze-1+)",
        raise_rank,
    ),
)

FREEDOMS = (
    Freedom(
        "unary-at-raised-rank",
        "operator schemas",
        "Operators.md Unsqueeze-1/11/13, Squeeze-1/11/13 and the unary elementwise operators (each element mapped "
        "on its own)",
        "A unary elementwise op gives the same tensor computed on its input with a leading size-1 axis inserted, "
        "that axis then squeezed away.",
        ("unary-raised-rank",),
        "main-graph unary elementwise nodes whose input rank onnx shape inference knows; axes as an input from "
        "opset 13, as an attribute before",
    ),
)
