"""Whether an operator schema, at a model's opset, takes a given element type on a given input,
for the rewrites that insert new nodes (ONNX operator spec: each input's type constraint lists the
tensor types it allows; a node follows the schema with the highest since_version <= the opset)."""

from __future__ import annotations

import functools

from passcheck.typestr import schema_type


@functools.lru_cache(maxsize=4096)
def accepts(op: str, version: int, elem_type: int, index: int = 0) -> bool:
    """Whether ``op`` (default domain) at opset ``version`` exists and takes ``tensor(elem_type)``
    on input ``index`` (an op without inputs, e.g. Constant: on its first output)."""
    import onnx
    import onnx.defs

    try:
        schema = onnx.defs.get_schema(op, version, "")
    except onnx.defs.SchemaError:
        return False
    try:
        wanted = schema_type(elem_type)
    except ValueError:
        return False
    params = schema.inputs if schema.inputs else schema.outputs
    if index >= len(params):
        variadic = params and params[-1].option == onnx.defs.OpSchema.FormalParameterOption.Variadic
        param = params[-1] if variadic else None
    else:
        param = params[index]
    if param is None:
        return False
    allowed = {c.type_param_str: set(c.allowed_type_strs) for c in schema.type_constraints}
    types = allowed.get(param.type_str, {param.type_str})
    return wanted in types


FLOATS = frozenset({1, 10, 11, 16})  # FLOAT, FLOAT16, DOUBLE, BFLOAT16
SIGNED_INTS = frozenset({3, 5, 6, 7})  # INT8, INT16, INT32, INT64
UNSIGNED_INTS = frozenset({2, 4, 12, 13})  # UINT8, UINT16, UINT32, UINT64
BOOL, BFLOAT16 = 9, 16
