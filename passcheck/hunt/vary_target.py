"""A neighbour whose shape vector states one more leading 1: the value it shapes gains a leading dim.

Three ops take the shape of their output from a 1-D int64 input, and each allows the vector to be longer than the
rank of what it shapes, or longer than it was:

- ``Expand`` (Operators.md Expand-8/13): "Dimensions are right alignment; two corresponding dimensions must have
  the same value, or one of them is equal to 1"; the output rank is ``max(rank(input), len(shape))`` (the shape
  may be shorter or longer than the input's). A leading 1 in ``shape`` adds a leading dim of size 1 and changes
  no element.
- ``Reshape`` (Operators.md Reshape-5/13/14/19/21): the output shape is the vector (``-1`` inferred, ``0`` copying
  the input dim at the same index unless ``allowzero``); a leading 1 adds a leading dim, the elements kept, as
  long as no entry is ``0`` (a ``0`` copies by index, and the added entry shifts every index).
- ``ConstantOfShape`` (Operators.md ConstantOfShape-9): the output shape is the vector.

Readers of such an output then compute on a value of rank ``r + 1``; a broadcasting reader (Broadcasting.md) gives
a result of rank ``r + 1`` too, with the same elements. A pass that compares the ranks of a pattern's values, or
drops the op and lets broadcasting stand in for it, must count that dim (onnxscript's opt-in
``expand_before_binary_op`` rule, ``_remove_expand_before_binary_op.py``, checks each dim of the target shape
against the inputs but not the rank the Expand adds). The bases write each shape vector at the rank of the value
it shapes (an exporter's ``x.expand(*y.shape)``), so no pass met the longer vector.

A second kind regroups a Reshape's elements. Reshape keeps the elements in row-major order whatever the vector
(Operators.md Reshape: "the output shape is the vector"; any vector of the same element count), so the last entry
``n`` moved to a new leading dim, ``[n, *value[:-1], 1]``, is another valid vector of the same count whose elements
are grouped otherwise: a reader that contracts or broadcasts over the shaped value then combines other elements.
A pass that drops a Reshape because the shapes around it agree (onnxscript's ``_broadcast_to_matmul.py`` compares
the final Reshape's vector with MatMul's broadcast shape and never reads the inner Reshapes' vectors) must still
read how the vector groups the data; the bases write each inner vector as the shape of the value it reshapes.

Form id ``vary:shape-target-outrank@<constant>`` (:mod:`.variation`; family ``shape``): the constant (an
initializer no graph input overrides, or a Constant's output), int64, 1-D, at most :data:`.graph_values.SMALL`
entries, read only as ``Expand``'s input 1, ``Reshape``'s input 1 (no ``0`` entry) or ``ConstantOfShape``'s input
0, becomes ``[1, *value]``. Not equivalent: the values downstream gain the leading dim, and the annotations are
refreshed by the caller (:func:`.variation.build`) as for ``shape-outrank``. Form id
``vary:shape-target-regroup@<constant>``: such a constant read only as Reshape's input 1, every entry >= 1 and
the last > 1, becomes ``[value[-1], *value[:-1], 1]``; the variation gate drops a neighbour a reader cannot take.
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

KIND = "shape-target-outrank"
REGROUP = "shape-target-regroup"
KINDS = (KIND, REGROUP)
#: (op type, input index) of the readers whose output shape is the vector: Expand's and Reshape's ``shape``,
#: ConstantOfShape's ``input`` (default domain).
SHAPE_SLOTS = frozenset({("Expand", 1), ("Reshape", 1), ("ConstantOfShape", 0)})
INT64 = 7


def is_kind(k: str) -> bool:
    """Whether ``k`` (no ``vary:`` prefix) is one of this module's kinds."""
    return k in KINDS


def _shapes_only(arr: np.ndarray, reads) -> bool:
    """Whether every reader reads ``arr`` as its output's shape, and a Reshape's vector holds no 0."""
    if not reads:
        return False
    for node, index in reads:
        if node.domain not in ("", "ai.onnx") or (node.op_type, index) not in SHAPE_SLOTS:
            return False
        if node.op_type == "Reshape" and (arr == 0).any():
            return False
    return True


def candidates(model: onnx.ModelProto) -> Iterator[tuple[str, str]]:
    """(kind, constant name) for every shape vector this kind may lengthen (see module docs)."""
    readers = _readers(model)
    for name, arr in _constants(model).items():
        if arr.dtype.kind != "i" or arr.dtype.itemsize != 8 or arr.ndim != 1 or not 0 < arr.size <= SMALL:
            continue
        reads = readers.get(name, [])
        if _shapes_only(arr, reads):
            yield KIND, name
            if all(n.op_type == "Reshape" for n, _ in reads) and (arr >= 1).all() and arr[-1] > 1:
                yield REGROUP, name


def build(model: onnx.ModelProto, name: str, kind: str = KIND) -> bool:
    """``model``'s constant ``name`` changed in place to ``[1, *value]`` (``kind`` :data:`KIND`) or
    ``[value[-1], *value[:-1], 1]`` (:data:`REGROUP`); False when it is no site of ``kind``."""
    import numpy as np

    if (kind, name) not in set(candidates(model)):
        return False
    value = np.asarray(_constants(model)[name], np.int64)
    if kind == REGROUP:
        _replace(model, name, np.concatenate([value[-1:], value[:-1], np.ones(1, np.int64)]))
    else:
        _replace(model, name, np.concatenate([np.ones(1, np.int64), value]))
    return True
