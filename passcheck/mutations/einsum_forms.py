"""MatMul, Transpose, ReduceSum and Mul spelled as one Einsum (Operators.md Einsum-12). An Einsum
equation names each input axis by a letter; letters in the output (after ``->``) are kept in that
order, the others summed over; ``...`` stands for the leading axes, broadcast as in numpy. Without
``->`` (implicit mode) the output is ``...`` then the letters that appear once, in alphabetical order.

- MatMul(a, b), both of rank >= 2 (MatMul-13: numpy matmul, batch axes broadcast):
  ``...ij,...jk->...ik``, no ``...`` on a 2-D operand; implicit ``...ij,...jk`` (i, k appear once, in
  that order). Left out when both have batch axes of different counts: Einsum-12 has every '...' of
  an equation stand for the same number of axes (onnx inference and onnxruntime refuse it otherwise).
- Transpose(x, perm) (perm absent: reversed axes): ``abc->cab`` for perm [2, 0, 1]; implicit by naming
  input axis ``perm[k]`` with the k-th letter, so that alphabetical order is ``perm``.
- ReduceSum(x, static non-empty axes, keepdims=0): ``abc->b`` for axes [0, 2]; no implicit form
  (one input: every letter appears once, so implicit mode sums nothing).
- Mul(a, b) of equal static shapes: ``abc,abc->abc``; an operand of lower rank broadcast over the
  other (Mul-14, numpy broadcasting): the trailing letters for a vector of the other's static trailing
  dims (``abc,c->abc``), an empty term for a scalar (``abc,->abc``: Einsum-12 gives a rank-0 operand
  no subscripts). No implicit form (each letter appears twice).

Opset >= 12 and an element type Einsum-12 takes (its schema's type constraint); main-graph nodes of
the default domain whose input ranks onnx shape inference knows; ranks <= 26. Sites are the
rewritten nodes; the Einsum keeps the node's name and output."""

from __future__ import annotations

import string
from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite, is_default_domain, node_label, opset, static_axes, static_tensors
from passcheck.mutations._graph_edit import attr_value
from passcheck.mutations._only import wanted
from passcheck.mutations._schema_types import accepts
from passcheck.mutations._shapes import Known, known
from passcheck.mutations.catalogue import Freedom

if TYPE_CHECKING:
    import onnx

MIN_OPSET = 12
LETTERS = string.ascii_lowercase


def _matmul(n, types: dict[str, Known], implicit: bool, static) -> str | None:
    a, b = types.get(n.input[0]), types.get(n.input[1])
    if a is None or b is None or a.rank is None or b.rank is None or a.rank < 2 or b.rank < 2:
        return None
    if a.rank > 2 and b.rank > 2 and a.rank != b.rank:
        return None  # Einsum-12: every '...' stands for the same number of axes
    lhs = ("..." if a.rank > 2 else "") + "ij"
    rhs = ("..." if b.rank > 2 else "") + "jk"
    out = ("..." if max(a.rank, b.rank) > 2 else "") + "ik"
    return f"{lhs},{rhs}" if implicit else f"{lhs},{rhs}->{out}"


def _transpose(n, types: dict[str, Known], implicit: bool, static) -> str | None:
    x = types.get(n.input[0])
    perm = attr_value(n, "perm")
    rank = len(perm) if perm else (x.rank if x is not None else None)
    if rank is None or rank > len(LETTERS) or (x is not None and x.rank is not None and x.rank != rank):
        return None
    perm = list(perm) if perm else list(reversed(range(rank)))
    if implicit:
        letters = [""] * rank
        for k, axis in enumerate(perm):
            letters[axis] = LETTERS[k]
        return "".join(letters)
    return f"{LETTERS[:rank]}->{''.join(LETTERS[p] for p in perm)}"


def _reduce_sum(n, types: dict[str, Known], implicit: bool, static) -> str | None:
    x = types.get(n.input[0])
    if implicit or x is None or x.rank is None or x.rank > len(LETTERS) or attr_value(n, "keepdims", 1) != 0:
        return None
    axes = static_axes(n, static)
    if not axes or not all(-x.rank <= a < x.rank for a in axes):
        return None
    gone = {a % x.rank for a in axes}
    letters = LETTERS[: x.rank]
    return f"{letters}->{''.join(c for j, c in enumerate(letters) if j not in gone)}"


def _mul(n, types: dict[str, Known], implicit: bool, static) -> str | None:
    """Mul-14 broadcasts numpy-style: the longer operand's axes get the letters, the shorter operand
    names the trailing ones (none for a rank-0 operand: Einsum-12 gives a scalar an empty term). The
    trailing dims must be equal static dims (Einsum repeats a letter only over equal sizes; a size-1
    dim that broadcasts has no letter spelling), or the shorter operand a scalar (no dims to match)."""
    a, b = types.get(n.input[0]), types.get(n.input[1])
    if implicit or a is None or b is None or a.dims is None or b.dims is None:
        return None
    long, short = (a.dims, b.dims) if len(a.dims) >= len(b.dims) else (b.dims, a.dims)
    rank = len(long)
    tail = long[rank - len(short) :]
    if rank > len(LETTERS) or rank == 0 or tuple(short) != tuple(tail):
        return None
    if short and not all(isinstance(d, int) for d in short):
        return None
    letters = LETTERS[:rank]
    terms = [letters[rank - len(x.dims) :] for x in (a, b)]
    return f"{terms[0]},{terms[1]}->{letters}"


#: op → (equation maker, how many data inputs the Einsum takes).
EQUATIONS = {"MatMul": (_matmul, 2), "Transpose": (_transpose, 1), "ReduceSum": (_reduce_sum, 1), "Mul": (_mul, 2)}


def _to_einsum(model: onnx.ModelProto, only: frozenset[str] | None, implicit: bool) -> list[str]:
    import onnx

    version = opset(model)
    if version < MIN_OPSET:
        return []
    g = model.graph
    types: dict[str, Known] | None = None
    static = None
    sites = []
    for i, n in enumerate(g.node):
        label = node_label(n, i)
        if n.op_type not in EQUATIONS or not is_default_domain(n) or not wanted(only, label):
            continue
        types = known(model) if types is None else types
        static = static_tensors(g) if static is None else static
        x = types.get(n.input[0])
        if x is None or not accepts("Einsum", version, x.elem_type):
            continue
        make, arity = EQUATIONS[n.op_type]
        equation = make(n, types, implicit, static)
        if equation is None:
            continue
        e = onnx.helper.make_node("Einsum", list(n.input[:arity]), [n.output[0]], name=n.name, equation=equation)
        n.CopyFrom(e)
        sites.append(label)
    return sites


def to_einsum(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Each MatMul / Transpose / ReduceSum(keepdims=0) / Mul (equal shapes, a scalar or trailing-dims
    operand) → Einsum with an explicit output."""
    return _to_einsum(model, only, implicit=False)


def to_einsum_implicit(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Each MatMul / Transpose → Einsum in implicit-output mode (no ``->``), lettered so the layout is the same."""
    return _to_einsum(model, only, implicit=True)


REWRITES = (
    Rewrite(
        "einsum-spelling",
        "MatMul / Transpose / ReduceSum(keepdims=0, static axes) / Mul (equal shapes, or a scalar or "
        "trailing-dims operand broadcast) → Einsum with '->' (Einsum-12)",
        to_einsum,
    ),
    Rewrite(
        "einsum-implicit",
        "MatMul / Transpose → Einsum in implicit-output mode, no '->' (Einsum-12)",
        to_einsum_implicit,
    ),
)

FREEDOMS = (
    Freedom(
        "einsum-or-named-op",
        "algebra",
        "Operators.md Einsum-12 (subscripts per input axis, output subscripts after '->', '...' for broadcast "
        "leading axes), MatMul-13, Transpose-13, ReduceSum-13, Mul-14",
        "A matrix product, an axis permutation, a sum over axes and an elementwise product may each be "
        "written as its own op or as one Einsum whose equation names the same contraction.",
        ("einsum-spelling",),
        "main-graph MatMul (both ranks >= 2, batch axes as '...'), Transpose, ReduceSum (keepdims=0, static "
        "non-empty axes) and Mul of equal static shapes, or with a scalar operand (empty term) or one of the "
        "other's static trailing dims (Mul-14 broadcasting), whose element type Einsum-12 takes; opset >= 12; "
        "one way",
    ),
    Freedom(
        "einsum-output-implicit",
        "operator schemas",
        "Operators.md Einsum-12 (without '->' the output is '...' then the subscripts that appear once, in "
        "alphabetical order)",
        "An Einsum's output may be written after '->' or left implicit when the letters are chosen so that "
        "their alphabetical order is the wanted layout.",
        ("einsum-implicit",),
        "main-graph MatMul (both ranks >= 2) and Transpose, as for einsum-or-named-op; ReduceSum and Mul have "
        "no implicit spelling (a lone letter is kept, a repeated one summed)",
    ),
)
