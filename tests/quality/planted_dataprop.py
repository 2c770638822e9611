"""A planted data-propagation bug: shape inference whose propagation through Cast loses symbols.

Caught by the data-prop/* cases (the forms that Cast a shape: ``int32``, ``cast-same`` and the
int32 cases' ``common``) through the annotations oracle at run time; the library before them has
no form where a symbol reaches a consumer's shape input through a Cast, so it cannot see it."""

from __future__ import annotations

import onnx
import onnx.shape_inference


def _infer(model: onnx.ModelProto, data_prop: bool) -> onnx.ModelProto:
    return onnx.shape_inference.infer_shapes(model, strict_mode=False, data_prop=data_prop)


def _symbols(model: onnx.ModelProto) -> set[str]:
    return {d.dim_param for v in model.graph.input for d in v.type.tensor_type.shape.dim if d.dim_param}


def _casts_shape_data(n: onnx.NodeProto) -> bool:
    """A Cast to an integer type: what data propagation carries shape values through."""
    to = next((a.i for a in n.attribute if a.name == "to"), None)
    return n.op_type == "Cast" and to in (onnx.TensorProto.INT32, onnx.TensorProto.INT64)


def cast_data_prop_pins_symbols(model: onnx.ModelProto) -> onnx.ModelProto:
    """``infer_shapes(data_prop=True)``, except that a graph-input symbol (``N``) that data
    propagation carried through an integer Cast comes out as ``1`` (as a Cast propagator that copies only
    dim_values would write it): every value downstream of a Cast to int32/int64 whose dim holds a symbol there
    that inference without data propagation did not give it gets ``dim_value: 1`` instead."""
    plain = {v.name: v.type for v in [*_infer(model, False).graph.value_info, *model.graph.output]}
    out = _infer(model, True)
    symbols, reached = _symbols(model), set()
    for n in out.graph.node:  # topologically sorted (checker rule)
        if _casts_shape_data(n) or any(i in reached for i in n.input):
            reached.update(o for o in n.output if o)
    for v in [*out.graph.value_info, *out.graph.output]:
        if v.name not in reached or not v.type.HasField("tensor_type"):
            continue
        before = plain.get(v.name)
        old = list(before.tensor_type.shape.dim) if before is not None else []
        for i, d in enumerate(v.type.tensor_type.shape.dim):
            if d.dim_param in symbols and not (i < len(old) and old[i].dim_param == d.dim_param):
                d.Clear()
                d.dim_value = 1  # the bug
    return out
