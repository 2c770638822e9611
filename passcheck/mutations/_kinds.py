"""Whether the installed onnxruntime's CPU provider runs the sequence and optional ops a rewrite inserts,
for a tensor element type (see :mod:`passcheck.runtime.kernels`: the node's schema ``since_version`` at the
model's opset, its type variables bound to ``tensor(t)``, ``seq(tensor(t))`` or ``optional(tensor(t))``)."""

from __future__ import annotations

from passcheck.typestr import schema_type

#: Per op, its type variables (ONNX operator spec, each op's type constraints) → the kind of value they bind.
#: ``I`` is the int64 index / split input.
BINDINGS = {
    "SequenceConstruct": {"T": "tensor", "S": "seq"},
    "SequenceAt": {"S": "seq", "T": "tensor", "I": "int64"},
    "ConcatFromSequence": {"S": "seq", "T": "tensor"},
    "SplitToSequence": {"T": "tensor", "S": "seq", "I": "int64"},
    "Optional": {"V": "tensor", "O": "optional"},
    "OptionalGetElement": {"O": "optional", "V": "tensor"},
    "Identity": {"V": "optional"},
}


def type_strings(elem_type: int) -> dict[str, str] | None:
    """Kind → type string for tensors of ``elem_type`` (``onnx.TensorProto`` code); None when unnamed."""
    try:
        t = schema_type(elem_type)
    except ValueError:
        return None
    return {"tensor": t, "seq": f"seq({t})", "optional": f"optional({t})", "int64": "tensor(int64)"}


def runs(ops: tuple[str, ...], version: int, elem_type: int) -> bool:
    """Whether each of ``ops`` (keys of :data:`BINDINGS`) exists at opset ``version`` and the installed onnxruntime's
    CPU provider runs it for element type ``elem_type``: a kernel, or for a float16 input the float kernel its cast
    insertion falls back to (:func:`passcheck.runtime.kernels.runs_on_cpu`; False when onnxruntime is not
    installed)."""
    import onnx.defs

    from passcheck.runtime.kernels import runs_on_cpu

    kinds = type_strings(elem_type)
    if kinds is None or not elem_type:
        return False
    for op in ops:
        try:
            schema = onnx.defs.get_schema(op, version, "")
        except onnx.defs.SchemaError:
            return False
        allowed = {c.type_param_str: set(c.allowed_type_strs) for c in schema.type_constraints}
        bound = {name: kinds[kind] for name, kind in BINDINGS[op].items()}
        if any(name in allowed and t not in allowed[name] for name, t in bound.items()):
            return False  # the schema at this opset does not take the type (Identity before 16: no optionals)
        if runs_on_cpu("", op, schema.since_version, bound) is not True:
            return False
    return True
