"""A neighbour whose index constant holds no element: the gather reading it selects nothing (M253).

Operators.md Gather: ``indices`` is a tensor "of any rank q" and the output's shape is ``data.shape[:axis] +
indices.shape + data.shape[axis+1:]``; GatherElements: the output has ``indices``'s shape; GatherND (``batch_dims``
0): ``indices.shape[:-1] + data.shape[indices.shape[-1]:]``. IR.md allows a zero-size dim, so an index tensor with a
0 in its first dim is valid, and the output then holds no element, with its rank unchanged. No other kind reaches
it: ``shape-empty`` empties only what broadcasts, and the value kinds keep an index's shape. A pass, an inference
function or an evaluator that takes an empty index for "no shape" (a flat ``[0]``), or reads its first element,
meets it here.

Form id ``vary:shape-index-empty@<constant>`` (:mod:`.variation`; family ``shape``): the constant (an int32/int64
initializer no graph input overrides, or a Constant's output, of rank >= 1, 1 to :data:`.graph_values.SMALL`
elements) read only as the ``indices`` of Gather, GatherElements or GatherND (``batch_dims`` 0, rank >= 2, its last
dim kept) becomes zero-filled with dim 0 set to 0. Not equivalent (the readers' outputs lose their elements); the
annotations are refreshed by the caller (:func:`.variation.build`); whether the values downstream still compute
(a reader needing an element) is for the variation gate.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.hunt.graph_values import SMALL
from passcheck.hunt.graph_values import constants as _constants
from passcheck.hunt.graph_values import readers as _readers
from passcheck.hunt.graph_values import replace as _replace

if TYPE_CHECKING:
    from collections.abc import Iterator

    import numpy as np
    import onnx

KIND = "shape-index-empty"
KINDS = (KIND,)

#: Op types whose input 1 is an index tensor the output's shape is made of (Operators.md), in the default domain.
GATHERS = frozenset({"Gather", "GatherElements", "GatherND"})


def is_kind(k: str) -> bool:
    """Whether ``k`` (no ``vary:`` prefix) is this module's kind."""
    return k == KIND


def _batch_dims(node: onnx.NodeProto) -> int:
    return next((a.i for a in node.attribute if a.name == "batch_dims"), 0)


def site(model: onnx.ModelProto, name: str) -> bool:
    """Whether constant ``name`` may be emptied (see module docs)."""
    arr = _constants(model).get(name)
    if arr is None or arr.dtype.kind != "i" or arr.ndim < 1 or not 0 < arr.size <= SMALL:
        return False
    reads = _readers(model).get(name, [])
    for node, index in reads:
        if node.domain not in ("", "ai.onnx") or node.op_type not in GATHERS or index != 1:
            return False
        if node.op_type == "GatherND" and (_batch_dims(node) != 0 or arr.ndim < 2):
            return False
    return bool(reads)


def candidates(model: onnx.ModelProto) -> Iterator[tuple[str, str]]:
    """(kind, constant name) for every constant this kind may empty."""
    for name in _constants(model):
        if site(model, name):
            yield KIND, name


def emptied(arr: np.ndarray) -> np.ndarray:
    """A tensor of ``arr``'s dtype and rank whose dim 0 is 0 (the other dims kept)."""
    import numpy as np

    return np.zeros((0, *arr.shape[1:]), dtype=arr.dtype)


def build(model: onnx.ModelProto, name: str) -> bool:
    """``model``'s constant ``name`` emptied in place (:func:`emptied`); False when it is no site."""
    if not site(model, name):
        return False
    _replace(model, name, emptied(_constants(model)[name]))
    return True
