"""One-line notation for ONNX types (seed 001): ``x: FLOAT [1, "N"]``.

Grammar, one form per TypeProto kind (seed 001, "TypeProto"):

- tensor: ``ELEM [d0, d1, ...]``; a dim is its ``dim_value``, its ``dim_param`` in double quotes, or
  ``?`` when neither is set; no ``shape`` field (rank unknown) prints ``ELEM`` alone; a scalar
  (shape with no dims) prints ``ELEM []``;
- sequence: ``seq(T)``; map: ``map(KEY, T)``; optional: ``optional(T)``;
- sparse tensor: ``sparse(ELEM [dense shape])``; opaque: ``opaque(domain.name)``;
- a TypeProto with no kind set prints ``?``; ``denotation`` is appended as `` :DENOTATION``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import onnx


def elem_name(elem_type: int) -> str:
    """TensorProto.DataType name (``FLOAT``) of an elem_type; ``UNDEFINED`` for 0, ``TYPE<n>`` if unknown."""
    import onnx

    try:
        return onnx.TensorProto.DataType.Name(elem_type)
    except ValueError:
        return f"TYPE{elem_type}"


def schema_type(elem_type: int) -> str:
    """The operator schemas' spelling of a tensor elem_type (Operators.md "Type Constraints"): 1 → ``tensor(float)``,
    10 → ``tensor(float16)``.

    Raises:
        ValueError: ``elem_type`` is no TensorProto.DataType value.
    """
    import onnx

    return f"tensor({onnx.TensorProto.DataType.Name(elem_type).lower()})"


def dim_str(dim: onnx.TensorShapeProto.Dimension) -> str:
    """``4``, ``"N"`` or ``?`` for one TensorShapeProto.Dimension."""
    which = dim.WhichOneof("value")
    if which == "dim_value":
        return str(dim.dim_value)
    if which == "dim_param":
        return f'"{dim.dim_param}"'
    return "?"


def shape_str(shape: onnx.TensorShapeProto) -> str:
    """``[1, "N", ?]`` for a TensorShapeProto."""
    return "[" + ", ".join(dim_str(d) for d in shape.dim) + "]"


def _tensor_like(t) -> str:
    head = elem_name(t.elem_type)
    return f"{head} {shape_str(t.shape)}" if t.HasField("shape") else head


def type_str(tp: onnx.TypeProto) -> str:
    """The notation of a TypeProto of any kind (see the module docstring)."""
    kind = tp.WhichOneof("value")
    if kind == "tensor_type":
        s = _tensor_like(tp.tensor_type)
    elif kind == "sequence_type":
        s = f"seq({type_str(tp.sequence_type.elem_type)})"
    elif kind == "map_type":
        s = f"map({elem_name(tp.map_type.key_type)}, {type_str(tp.map_type.value_type)})"
    elif kind == "optional_type":
        s = f"optional({type_str(tp.optional_type.elem_type)})"
    elif kind == "sparse_tensor_type":
        s = f"sparse({_tensor_like(tp.sparse_tensor_type)})"
    elif kind == "opaque_type":
        o = tp.opaque_type
        s = f"opaque({o.domain + '.' if o.domain else ''}{o.name})"
    else:
        s = "?"
    return f"{s} :{tp.denotation}" if tp.denotation else s


def value_info_str(vi: onnx.ValueInfoProto) -> str:
    """``name: TYPE`` for a ValueInfoProto."""
    return f"{vi.name}: {type_str(vi.type)}"
