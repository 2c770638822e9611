"""Constant(value=dense tensor) ↔ Constant(sparse_value=...) (Operators.md Constant-11+: the output
is the dense tensor the sparse value denotes; onnx.proto SparseTensorProto: values plus int64
indices, missing entries zero). A sparse initializer would be the other spelling, but the full
checker types it as a sparse tensor (see the catalogue's sparse-initializer row).

- ``sparse-constant``: a Constant(value=tensor) of a numeric element type, rank >= 1 (the checker
  refuses a rank-0 sparse tensor) and at least one element → sparse_value with the non-zero entries
  (flat indices, COO). Opset >= 11.
- ``dense-constant``: Constant(sparse_value) → Constant(value=dense tensor).

Every scope; sites: the Constant's output name.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite, chosen, is_default_domain
from passcheck.mutations._freedom import Freedom
from passcheck.mutations._scopes import opset_of, scopes

if TYPE_CHECKING:
    import onnx


def _constants(model: onnx.ModelProto, only, attr: str):
    for scope in scopes(model):
        if opset_of(model, scope) < 11:
            continue
        for n in scope.body.node:
            if (
                n.op_type == "Constant"
                and is_default_domain(n)
                and len(n.attribute) == 1
                and n.attribute[0].name == attr
                and chosen(only, n.output[0])
            ):
                yield n


def to_sparse(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Dense Constant values → sparse_value (non-zero entries)."""
    import numpy as np
    import onnx
    from onnx import numpy_helper

    sites = []
    for n in _constants(model, only, "value"):
        t = n.attribute[0].t
        T = onnx.TensorProto
        if t.data_type in (T.STRING, T.BOOL) or t.data_location == T.EXTERNAL:
            continue
        arr = numpy_helper.to_array(t)
        if arr.ndim == 0 or arr.size == 0 or arr.dtype.kind not in "fiu":  # a sparse tensor has rank >= 1
            continue
        flat = arr.reshape(-1)
        idx = np.flatnonzero(flat).astype(np.int64)
        values = numpy_helper.from_array(flat[idx], t.name)
        sparse = onnx.helper.make_sparse_tensor(values, numpy_helper.from_array(idx), list(arr.shape))
        del n.attribute[:]
        n.attribute.append(onnx.helper.make_attribute("sparse_value", sparse))
        sites.append(n.output[0])
    return sites


def to_dense(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Constant(sparse_value) → Constant(value=dense tensor)."""
    import numpy as np
    import onnx
    from onnx import numpy_helper

    sites = []
    for n in _constants(model, only, "sparse_value"):
        sp = n.attribute[0].sparse_tensor
        values = numpy_helper.to_array(sp.values)
        idx = numpy_helper.to_array(sp.indices)
        dense = np.zeros(int(np.prod(sp.dims, dtype=np.int64)), dtype=values.dtype)
        if idx.ndim == 2:  # [NNZ, rank] coordinates
            idx = np.ravel_multi_index(tuple(idx.T), tuple(sp.dims)) if idx.size else idx.reshape(-1)
        dense[idx.astype(np.int64)] = values
        t = numpy_helper.from_array(dense.reshape(tuple(sp.dims)), sp.values.name)
        del n.attribute[:]
        n.attribute.append(onnx.helper.make_attribute("value", t))
        sites.append(n.output[0])
    return sites


REWRITES = (
    Rewrite(
        "sparse-constant",
        "Constant(value=tensor) → Constant(sparse_value) holding the non-zero entries (opset >= 11)",
        to_sparse,
        inverse="dense-constant",
        detail="values",
    ),
    Rewrite(
        "dense-constant",
        "Constant(sparse_value) → Constant(value=dense tensor)",
        to_dense,
        inverse="sparse-constant",
        detail="values",
    ),
)

FREEDOMS = (
    Freedom(
        "sparse-or-dense-constant",
        "tensor storage",
        "Operators.md Constant-11+ (sparse_value); onnx.proto SparseTensorProto",
        "A constant tensor may be given dense or as a sparse tensor (non-zero values and their indices) that "
        "denotes it.",
        ("sparse-constant", "dense-constant"),
        "Constant nodes of every scope, numeric element types; initializers at depth 2 (initializer-to-constant, then "
        "sparse-constant).",
    ),
)
