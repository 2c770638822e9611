"""Deliberately broken passes. Each must be caught by the oracle named in its docstring."""

from __future__ import annotations

import numpy as np
import onnx
import onnx.numpy_helper
import onnx.shape_inference


def _has_empty_input(model: onnx.ModelProto) -> bool:
    return any(i == "" for n in model.graph.node for i in n.input)


def fuse_conv_bn_counting_inputs(model: onnx.ModelProto) -> onnx.ModelProto:
    """Folds BatchNormalization into the preceding Conv, but decides "no bias" by counting
    inputs (len == 2), so ``Conv(x, w, "")`` is skipped. Caught by: parity (missed-optimization)."""
    g = model.graph
    inits = {t.name: t for t in g.initializer}
    for bn in [n for n in g.node if n.op_type == "BatchNormalization"]:
        conv = next((n for n in g.node if n.op_type == "Conv" and n.output[0] == bn.input[0]), None)
        if conv is None or len(conv.input) != 2 or conv.input[1] not in inits:
            continue
        w = onnx.numpy_helper.to_array(inits[conv.input[1]])
        scale, shift, mean, var = (onnx.numpy_helper.to_array(inits[i]) for i in bn.input[1:5])
        eps = next((a.f for a in bn.attribute if a.name == "epsilon"), 1e-5)
        k = scale / np.sqrt(var + eps)
        inits[conv.input[1]].CopyFrom(
            onnx.numpy_helper.from_array((w * k[:, None, None, None]).astype(w.dtype), conv.input[1])
        )
        bias = onnx.numpy_helper.from_array((shift - mean * k).astype(w.dtype), conv.output[0] + "_fused_bias")
        g.initializer.append(bias)
        conv.input.append(bias.name)
        conv.output[0] = bn.output[0]
        g.node.remove(bn)
    return model


def wrong_value_info_dim(model: onnx.ModelProto) -> onnx.ModelProto:
    """Runs shape inference, then writes every static graph-output dim one too large.
    Caught by: annotations (annotation-violated)."""
    out = onnx.shape_inference.infer_shapes(model)
    for vi in out.graph.output:
        for d in vi.type.tensor_type.shape.dim:
            if d.HasField("dim_value"):
                d.dim_value += 1
                return out
    return out


def perturb_constant(model: onnx.ModelProto) -> onnx.ModelProto:
    """Adds 1e-3 to the first float initializer. Caught by: numeric (wrong-result)."""
    for t in model.graph.initializer:
        if t.data_type == onnx.TensorProto.FLOAT:
            a = onnx.numpy_helper.to_array(t) + np.float32(1e-3)
            t.CopyFrom(onnx.numpy_helper.from_array(a.astype(np.float32), t.name))
            break
    return model


def crash_on_empty_input(model: onnx.ModelProto) -> onnx.ModelProto:
    """Indexes a missing optional input's producer and crashes on ``""``. Caught by: acceptance (rejected)."""
    producers = {o: n for n in model.graph.node for o in n.output}
    producers.update({i.name: None for i in model.graph.input})
    producers.update({t.name: None for t in model.graph.initializer})
    for n in model.graph.node:
        for i in n.input:
            producers[i]  # KeyError on ""
    return model


def identity(model: onnx.ModelProto) -> onnx.ModelProto:
    """Returns the model unchanged; declared as folding constants, it leaves foldable values.
    Caught by: folding (missed-optimization) on cases with static shape facts."""
    return model


def invalid_output(model: onnx.ModelProto) -> onnx.ModelProto:
    """Drops the default-domain opset import. Caught by: validity (invalid-model)."""
    del model.opset_import[:]
    model.opset_import.add(domain="com.example", version=1)
    return model


def negate_everything(model: onnx.ModelProto) -> onnx.ModelProto:
    """Replaces the first node by Neg: every output wrong, and the output runs where the input
    may not. Caught by: numeric (wrong-result), or reported unchecked when the input does not run."""
    out = onnx.ModelProto()
    out.CopyFrom(model)
    out.graph.node[0].op_type, out.graph.node[0].domain = "Neg", ""
    return out


#: The Resize attributes :func:`spell_out_resize_defaults` writes, with the defaults the operator
#: docs give (Operators.md Resize, opset 18). ``nearest_mode``'s default is documented as
#: "round_prefer_floor" (default, as known as round half down).
RESIZE_DEFAULTS = {
    "coordinate_transformation_mode": "half_pixel",
    "nearest_mode": "round_prefer_floor",
    "keep_aspect_ratio_policy": "stretch",
}


def spell_out_resize_defaults(model: onnx.ModelProto, nearest_mode: str = "round_half_down") -> onnx.ModelProto:
    """Writes every unset string attribute of each Resize explicitly with its default, but spells
    ``nearest_mode``'s default by the doc's gloss, "round_half_down", not one of its four modes.
    Found by experiment (onnx 1.23.2, onnxruntime 1.32.0): on a ``mode="linear"`` Resize the
    checker (full_check) accepts the output and onnxruntime runs it with the same numbers (it reads
    nearest_mode only for nearest); with ``mode="nearest"`` onnxruntime would refuse it. Caught by:
    conformance (spec-violation). ``nearest_mode="round_prefer_floor"``: the correct pass."""
    from onnx import helper

    spelled = {**RESIZE_DEFAULTS, "nearest_mode": nearest_mode}
    for n in model.graph.node:
        if n.op_type == "Resize":
            have = {a.name for a in n.attribute}
            n.attribute.extend(helper.make_attribute(k, v) for k, v in spelled.items() if k not in have)
    return model
