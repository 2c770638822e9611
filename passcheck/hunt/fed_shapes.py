"""Shape inference at the shapes a model runs at: the operator schemas' shape constraints checked on the feeds.

A neighbour can be invalid only for the shapes it is run at: ``Concat(Slice(x, [0], [0], axes=[0]), x, axis=1)`` on
``x: [N, 3]`` concatenates ``[0, 3]`` with ``[N, 3]``, which Operators.md Concat allows only where ``N == 0`` ("All
input tensors must have the same shape, except for the dimension size of the axis to concatenate on"). The checker
sees ``0`` against the symbol ``N`` and accepts it; onnxruntime runs it (its Concat skips an empty input) and fills
the output with memory it never wrote. The schemas' inference functions state such constraints; run at the feeds'
own shapes (each graph input's dims set to its feed's, strict mode, data propagation) they raise where the model
breaks one, or compute a negative dim where an input is outside the operator's domain.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from passcheck.runtime import isolated_tools

if TYPE_CHECKING:
    import onnx


def error(model: onnx.ModelProto, feeds: Mapping[str, Any]) -> str | None:
    """The first line of the error onnx shape inference (``strict_mode``, ``data_prop``) raises on ``model`` with
    each tensor graph input's shape set to that of its feed in ``feeds`` (name → numpy array), its value_info and
    graph output shapes dropped (the annotations are another oracle's); None when it raises none. ``model`` is
    never modified."""
    done = inferred(model, feeds)
    return done if isinstance(done, str) else _negative_dim(done.graph)


def text_break(model: onnx.ModelProto, feeds: Mapping[str, Any] | None) -> str | None:
    """The first shape rule the operator docs state in prose and no tool enforces
    (:mod:`passcheck.oracles.text_shapes`) that ``model`` breaks at the shapes inference gives it at ``feeds``
    (:func:`inferred`; None: at its graph inputs' declared shapes), or None (also when inference raises:
    :func:`error` says so)."""
    from passcheck.oracles.text_shapes import breaks

    done = inferred(model, feeds or {})
    return None if isinstance(done, str) else next(iter(breaks(done)), None)


def inferred(model: onnx.ModelProto, feeds: Mapping[str, Any]) -> onnx.ModelProto | str:
    """``model`` inferred as :func:`error` describes (a copy), or the first line of the error inference raises."""
    fed = unannotated(model)
    for v in fed.graph.input:
        shape = getattr(feeds.get(v.name), "shape", None)
        if shape is None or not v.type.HasField("tensor_type"):
            continue
        dims = v.type.tensor_type.shape
        dims.ClearField("dim")
        for d in shape:
            dims.dim.add().dim_value = int(d)
    try:
        done = isolated_tools.infer_shapes(fed, strict_mode=True, data_prop=True)
    except Exception as exc:  # noqa: BLE001 - any inference error is the answer (InferenceError, ValidationError, …)
        return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return done


def _negative_dim(graph) -> str | None:
    """Why inference's result names a negative dim (a value inferred of shape ``[-2, …]``), or None. A dim is a
    tensor's size along an axis, never below 0 (IR.md "Tensor shapes"); an inference that computes one was given an
    input outside its operator's domain (a crop window or a shape of negative sizes), which onnxruntime then runs as
    it happens to (CenterCropPad-18 with ``shape`` ``[-2, -2, -5]`` gives ``[0, 0, 0]``)."""
    for v in [*graph.value_info, *graph.output]:
        if v.type.HasField("tensor_type") and v.type.tensor_type.HasField("shape"):
            dims = [d.dim_value for d in v.type.tensor_type.shape.dim if d.HasField("dim_value")]
            if any(d < 0 for d in dims):
                return f"inference gives {v.name} a negative dim ({dims})"
    return None


def unannotated(model: onnx.ModelProto) -> onnx.ModelProto:
    """A copy of ``model`` without its value_info and without its tensor graph outputs' shapes (their element
    types kept): what inference is to fill in, the annotations left out."""
    import onnx

    bare = onnx.ModelProto()
    bare.CopyFrom(model)
    del bare.graph.value_info[:]
    for o in bare.graph.output:
        if o.type.HasField("tensor_type"):
            o.type.tensor_type.ClearField("shape")
    return bare
