"""Small reads of a model's main graph the trigger checks share."""

from __future__ import annotations


def opsets(model) -> dict[str, int]:
    """Domain (``""`` for ai.onnx) → the opset version the model imports."""
    return {("" if o.domain == "ai.onnx" else o.domain): o.version for o in model.opset_import}


def since(op: str, domain: str, opset: int | None) -> int | None:
    """The ``since_version`` of the schema ``op`` resolves to at ``opset`` of ``domain``, or None."""
    import onnx

    if opset is None:
        return None
    try:
        return onnx.defs.get_schema(op, opset, domain).since_version
    except onnx.defs.SchemaError:
        return None


def typed(value_type) -> bool:
    """Whether a TypeProto says something: a tensor with an elem_type, or a non-tensor kind set."""
    kind = value_type.WhichOneof("value")
    if kind == "tensor_type":
        return value_type.tensor_type.elem_type != 0
    return kind is not None


def stripped(model):
    """A copy of ``model`` with every value_info and the graph outputs' types removed, so that
    what shape inference writes back is its own."""
    import onnx

    m = onnx.ModelProto()
    m.CopyFrom(model)
    del m.graph.value_info[:]
    for o in m.graph.output:
        o.ClearField("type")
    return m


def types(model) -> dict[str, object]:
    """Value name → TypeProto, from the main graph's value_info and outputs (inferred models)."""
    return {v.name: v.type for v in [*model.graph.value_info, *model.graph.output] if v.HasField("type")}


#: The hunt's spelling writing a node as a call of a model-local function (:mod:`passcheck.mutations.local_functions`).
AS_FUNCTION = "node-as-local-function"


def as_function(model):
    """``model`` with its nodes written as calls of model-local functions by the hunt's own
    :data:`AS_FUNCTION` spelling (what a pass acting on local-function calls is given in a hunt),
    or None when the spelling applies nowhere in it."""
    from passcheck.mutations.registry import get_rewrite

    got = get_rewrite(AS_FUNCTION).apply(model)
    return got[0] if got is not None else None
