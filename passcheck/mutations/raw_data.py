"""TensorProto ``raw_data`` ↔ the typed data fields (ONNX IR spec, "Tensors": a tensor's content is
stored either in ``raw_data`` (little-endian bytes) or in the field for its element type).
Applies to initializers and Constant(value=tensor) nodes of every scope: the main graph (sites:
initializer names and node labels), subgraphs and function bodies (sites as in
:mod:`passcheck.mutations._scopes`)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite, chosen, is_default_domain

if TYPE_CHECKING:
    import onnx


def _tensors(model: onnx.ModelProto) -> Iterator[tuple[str, onnx.TensorProto]]:
    from passcheck.mutations._scopes import scopes

    for scope in scopes(model):
        if scope.is_graph:
            for t in scope.body.initializer:
                yield t.name, t
        for i, n in enumerate(scope.body.node):
            if n.op_type == "Constant" and is_default_domain(n):
                for a in n.attribute:
                    if a.name == "value":
                        yield scope.label(n, i), a.t


def _eligible(t: onnx.TensorProto) -> bool:
    import onnx

    return t.data_type in _TYPED and t.data_location != onnx.TensorProto.EXTERNAL


def _to(t: onnx.TensorProto, raw: bool) -> None:
    import onnx
    from onnx import numpy_helper

    arr = numpy_helper.to_array(t)
    content = arr.tobytes() if raw else arr.reshape(-1).tolist()
    new = onnx.helper.make_tensor(t.name, t.data_type, list(t.dims), content, raw=raw)
    if t.HasField("doc_string"):
        new.doc_string = t.doc_string
    new.metadata_props.extend(t.metadata_props)
    t.CopyFrom(new)


def to_typed(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Tensors stored in ``raw_data`` → the typed field (float_data, int64_data, int32_data, …)."""
    sites = []
    for label, t in _tensors(model):
        if t.HasField("raw_data") and _eligible(t) and chosen(only, label):
            _to(t, raw=False)
            sites.append(label)
    return sites


def to_raw(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Tensors stored in a typed field → ``raw_data``."""
    sites = []
    for label, t in _tensors(model):
        if not t.HasField("raw_data") and _eligible(t) and chosen(only, label):
            _to(t, raw=True)
            sites.append(label)
    return sites


def _typed_types() -> frozenset[int]:
    import onnx

    T = onnx.TensorProto
    return frozenset(
        {T.FLOAT, T.DOUBLE, T.FLOAT16, T.INT8, T.INT16, T.INT32, T.INT64, T.UINT8, T.UINT16, T.UINT32, T.UINT64, T.BOOL}
    )


_TYPED = _typed_types()

REWRITES = (
    Rewrite(
        "typed-data",
        "tensor content in raw_data → the typed data field",
        to_typed,
        inverse="raw-data",
        detail="tensors",
    ),
    Rewrite(
        "raw-data", "tensor content in a typed data field → raw_data", to_raw, inverse="typed-data", detail="tensors"
    ),
)
