"""Smaller-shaped initializers and inputs: every static axis of one size, across graph inputs and
initializers, cut to 1 at once (initializers keep their first slice), the graph retyped by onnx
shape inference. Axes of one size usually belong together (a Conv's output channels, its bias
and the BatchNormalization parameters after it), so they shrink together; a size that cannot
shrink (it also sits in an attribute, a shape tensor, an axis index …) yields a model the
predicate refuses (invalid, unequal or without the finding), and is left.
"""

from __future__ import annotations


def sizes(model) -> list[int]:
    """The static dims above 1 of ``model``'s graph inputs and initializers, largest first."""
    found = {d.dim_value for v in model.graph.input for d in v.type.tensor_type.shape.dim if d.HasField("dim_value")}
    found.update(int(x) for t in model.graph.initializer for x in t.dims)
    return sorted((s for s in found if s > 1), reverse=True)


def shrunk(model, size: int):
    """A copy of ``model`` with every graph-input dim and initializer axis of ``size`` cut to 1,
    value_info dropped and graph outputs retyped by shape inference (left shapeless where it
    cannot tell). Runs onnx shape inference: call it through the isolated worker.

    Raises:
        ValueError: a non-tensor initializer or one numpy cannot hold (the size is not shrunk).
    """
    import onnx
    from onnx import numpy_helper

    out = onnx.ModelProto()
    out.CopyFrom(model)
    g = out.graph
    inits = {t.name for t in g.initializer}
    for v in g.input:
        for d in v.type.tensor_type.shape.dim:
            if d.HasField("dim_value") and d.dim_value == size:
                d.dim_value = 1
    for t in g.initializer:
        if size in t.dims:
            arr = numpy_helper.to_array(t)
            t.CopyFrom(
                numpy_helper.from_array(
                    arr[tuple(slice(0, 1) if n == size else slice(None) for n in arr.shape)].copy(), t.name
                )
            )
    for v in g.input:  # IR < 4 lists initializers as inputs too: keep their types in step
        if v.name in inits:
            t = next(t for t in g.initializer if t.name == v.name)
            v.type.tensor_type.ClearField("shape")
            v.type.tensor_type.shape.dim.extend(onnx.TensorShapeProto.Dimension(dim_value=int(n)) for n in t.dims)
    del g.value_info[:]
    for o in g.output:
        o.type.tensor_type.ClearField("shape")
    try:
        inferred = onnx.shape_inference.infer_shapes(out).graph
        typed = {v.name: v.type for v in [*inferred.value_info, *inferred.output]}
    except Exception:  # noqa: BLE001 - inference refuses the shrunk model: outputs stay shapeless, the predicate decides
        typed = {}
    for o in g.output:
        if o.name in typed and typed[o.name].tensor_type.HasField("shape"):
            o.type.CopyFrom(typed[o.name])
    return out
