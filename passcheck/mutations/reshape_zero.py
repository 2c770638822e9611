"""A Reshape's ``allowzero`` and its literal zeros (Operators.md Reshape-14/19/21).

A 0 entry of the shape copies the input's dim at the same index when ``allowzero`` is 0 (its
default) and is a zero-size dim when it is 1; with ``allowzero`` 1 the shape may not hold both a 0
and a -1. So, for the same output:

- ``allowzero`` 0 and 1 are one computation wherever every 0 entry sits at an index where the input's
  dim is statically 0 (the copy is that 0), in particular where the shape has no 0 at all;
- an output of static dims with a zero-size dim is the shape of those dims with ``allowzero`` 1,
  however the node wrote it (a -1 the remaining size, a 0 a copy).

Main-graph default-domain Reshape nodes with a static shape (initializer or Constant) in a model of
opset >= 14; a shape constant shared by several nodes is not edited, the node gets its own. Sites are
the rewritten nodes. The inferred dims are onnx shape inference's (:func:`passcheck.mutations._shapes.known`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite
from passcheck.mutations.catalogue import Freedom
from passcheck.mutations.reshape_dims import respell

if TYPE_CHECKING:
    import onnx

#: Reshape has ``allowzero`` from opset 14.
MIN_OPSET = 14


def _copies_only_zeros(shape: list[int], in_dims) -> bool:
    """Whether every 0 entry of ``shape`` sits where the input's dim is statically 0 (none: vacuously)."""
    zeros = [j for j, v in enumerate(shape) if v == 0]
    return all(in_dims is not None and j < len(in_dims) and in_dims[j] == 0 for j in zeros)


def _set(shape, in_dims, out_dims, allowzero):
    """``allowzero`` 0 → 1 where no 0 entry copies a non-zero dim (and no -1 sits beside a 0)."""
    if allowzero or (0 in shape and -1 in shape) or not _copies_only_zeros(shape, in_dims):
        return None
    return shape, 1


def _clear(shape, in_dims, out_dims, allowzero):
    """``allowzero`` 1 → absent where every 0 entry sits on a static 0 of the input."""
    return (shape, 0) if allowzero and _copies_only_zeros(shape, in_dims) else None


def _literal_zero(shape, in_dims, out_dims, allowzero):
    """The output's static dims, one of them 0, with ``allowzero`` 1."""
    if out_dims is None or not all(isinstance(d, int) and d >= 0 for d in out_dims) or 0 not in out_dims:
        return None
    new = list(out_dims)
    return None if new == shape and allowzero else (new, 1)


def allowzero_set(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Reshape(x, s) → Reshape(x, s, allowzero=1) where no 0 of s copies a non-zero dim of x."""
    return respell(model, only, _set, MIN_OPSET)


def allowzero_clear(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Reshape(x, s, allowzero=1) → Reshape(x, s) where every 0 of s sits on a static 0 of x."""
    return respell(model, only, _clear, MIN_OPSET)


def literal_zero(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Reshape(x, s) with a static zero-size output → Reshape(x, its output dims, allowzero=1)."""
    return respell(model, only, _literal_zero, MIN_OPSET)


REWRITES = (
    Rewrite(
        "reshape-allowzero-set",
        "Reshape(x, s) → allowzero=1 where no 0 of s copies a non-zero dim of x (Reshape-14+)",
        allowzero_set,
        inverse="reshape-allowzero-clear",
    ),
    Rewrite(
        "reshape-allowzero-clear",
        "Reshape(x, s, allowzero=1) → no allowzero where every 0 of s sits on a static 0 of x (Reshape-14+)",
        allowzero_clear,
        inverse="reshape-allowzero-set",
    ),
    Rewrite(
        "reshape-dims-literal-zero",
        "Reshape with a static zero-size output → its output dims, 0 literal with allowzero=1 (Reshape-14+)",
        literal_zero,
    ),
)

FREEDOMS = (
    Freedom(
        "reshape-allowzero",
        "operator schemas",
        "Operators.md Reshape-14/19/21 (allowzero: a 0 entry copies the input dim when 0, is a zero-size dim when "
        "1; not both 0 and -1 with allowzero 1)",
        "A Reshape whose 0 entries copy only dims that are statically 0 (or that has none) computes the same with "
        "allowzero 0 or 1, and a static zero-size output may be written as its dims with allowzero 1.",
        ("reshape-allowzero-set", "reshape-allowzero-clear", "reshape-dims-literal-zero"),
        "main-graph Reshape nodes with a static shape, opset >= 14; the input's and output's dims from onnx shape "
        "inference (a stated empty dim, e.g. a graph input's dim_value 0, makes them static)",
    ),
)
