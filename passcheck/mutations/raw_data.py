"""TensorProto ``raw_data`` ↔ the typed data fields (ONNX IR spec, "Tensors": a tensor's content is
stored either in ``raw_data`` (little-endian bytes) or in the field for its element type).
onnx.proto ``int32_data`` also holds the bit patterns of bfloat16, float8, float6 and float8e8m0
values, one element a slot, and the 4-bit (int4, uint4, float4e2m1) and 2-bit (int2, uint2) types
packed two and four to a slot, low bits first; ``raw_data`` packs them into bytes alike.
Applies to initializers and Constant(value=tensor) nodes of every scope: the main graph (sites:
initializer names and node labels), subgraphs and function bodies (sites as in
:mod:`passcheck.mutations._scopes`)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite, RewriteError, chosen, is_default_domain
from passcheck.mutations._freedom import Freedom

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
    if raw:  # from_array packs the sub-byte types (arr.tobytes() would not)
        new = numpy_helper.from_array(arr, t.name)
        if new.data_type != t.data_type:
            raise RewriteError(f"tensor {t.name!r}: element type {t.data_type} read back as {new.data_type}")
    else:
        new = onnx.helper.make_tensor(t.name, t.data_type, list(t.dims), arr.reshape(-1).tolist())
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
    plain = {
        T.FLOAT,
        T.DOUBLE,
        T.FLOAT16,
        T.INT8,
        T.INT16,
        T.INT32,
        T.INT64,
        T.UINT8,
        T.UINT16,
        T.UINT32,
        T.UINT64,
        T.BOOL,
    }
    return frozenset(plain) | {getattr(T, n) for n in (*BIT_PATTERN_TYPES, *PACKED_TYPES) if hasattr(T, n)}


#: Element types whose typed spelling is one bit pattern per ``int32_data`` slot (onnx.proto int32_data).
BIT_PATTERN_TYPES = (
    "BFLOAT16",
    "FLOAT8E4M3FN",
    "FLOAT8E4M3FNUZ",
    "FLOAT8E5M2",
    "FLOAT8E5M2FNUZ",
    "FLOAT8E8M0",
    "FLOAT6E2M3",
    "FLOAT6E3M2",
)
#: Element types packed several to an ``int32_data`` slot and to a ``raw_data`` byte (4-bit: two, 2-bit: four).
PACKED_TYPES = ("INT4", "UINT4", "FLOAT4E2M1", "INT2", "UINT2")

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

FREEDOMS = (
    Freedom(
        "low-precision-bits-in-int32-data",
        "tensor storage",
        "onnx.proto TensorProto.int32_data (bfloat16, float8 and float6 values converted bit-wise to unsigned "
        "integers, one element a slot)",
        "A bfloat16, float8 (e4m3fn, e4m3fnuz, e5m2, e5m2fnuz, e8m0) or float6 tensor may be raw bytes or its bit "
        "patterns widened into int32_data.",
        ("typed-data", "raw-data"),
        "as raw-or-typed-storage: every initializer and Constant(value=tensor) of these element types, in every scope.",
    ),
    Freedom(
        "sub-byte-packing-in-int32-data",
        "tensor storage",
        "onnx.proto TensorProto.int32_data (uint4, int4, float4 packed two to a byte, uint2/int2 four, first "
        "element in the least significant bits; raw_data packs them alike)",
        "An int4, uint4, float4e2m1, int2 or uint2 tensor may be packed bytes in raw_data or packed slots of "
        "int32_data (two 4-bit or four 2-bit elements a slot).",
        ("typed-data", "raw-data"),
        "as raw-or-typed-storage (e.g. the blockwise uint4 weight and zero point of a DequantizeLinear-21).",
    ),
)
