"""A user-written onnx_ir rewrite: fold ``Mul(Conv(x, W[, B]), k)`` into the Conv.

``k`` must be a constant that scales per output channel (shape ``[C]``, ``[C, 1, 1]`` or a scalar),
so ``Conv(x, W * k, B * k)`` computes the same thing (Operators.md, Conv and Mul with broadcasting).

:class:`FoldMulIntoConvPass` is the first version, written the way the ORT fusions were (seed 003, §1):
it decides "has bias" by counting the Conv's inputs. ``Conv(x, w, "")`` has three inputs, so it takes
the bias path, finds no constant bias and leaves the Mul in place — on that form only.
:class:`FixedFoldMulIntoConvPass` treats a slot as present only when it exists and is non-empty.
"""

from __future__ import annotations

import numpy as np
import onnx_ir as ir


class FoldMulIntoConvPass(ir.passes.InPlacePass):
    """Fold a per-channel constant Mul into the preceding Conv's weights and bias."""

    def _bias(self, conv: ir.Node) -> tuple[bool, ir.Value | None]:
        # Bug under test: three input slots taken to mean "has a bias".
        has_bias = len(conv.inputs) == 3
        return has_bias, conv.inputs[2] if has_bias else None

    def call(self, model: ir.Model) -> ir.passes.PassResult:
        modified = False
        graph = model.graph
        for mul in list(graph):
            if mul.op_type != "Mul" or mul.domain not in ("", "ai.onnx"):
                continue
            conv = mul.inputs[0].producer() if mul.inputs[0] is not None else None
            k = _const(mul.inputs[1])
            if conv is None or conv.op_type != "Conv" or k is None or len(mul.inputs[0].uses()) != 1:
                continue
            w = _const(conv.inputs[1])
            per_channel = None if w is None else (w.shape[0],) + (1,) * (w.ndim - 2)
            if w is None or not (k.size == 1 or k.shape in (per_channel, (1, *per_channel))):
                continue
            has_bias, bias_value = self._bias(conv)
            b = _const(bias_value) if has_bias else None
            if has_bias and b is None:
                continue  # a bias that is not a constant: cannot fold
            scale = np.broadcast_to(k.reshape(-1), (w.shape[0],)).astype(w.dtype)
            new_inputs = [conv.inputs[0], _initializer(graph, f"{conv.name}_w_scaled", w * scale.reshape(-1, 1, 1, 1))]
            if has_bias:
                new_inputs.append(_initializer(graph, f"{conv.name}_b_scaled", b * scale))
            fused = ir.Node(
                "", "Conv", new_inputs, attributes=list(conv.attributes.values()), name=f"{conv.name}_mul_folded"
            )
            ir.convenience.replace_nodes_and_values(
                graph, mul, [conv, mul], [fused], [mul.outputs[0]], [fused.outputs[0]]
            )
            modified = True
        return ir.passes.PassResult(model, modified)


class FixedFoldMulIntoConvPass(FoldMulIntoConvPass):
    """The same fold; an optional input is present only if its slot exists and is non-empty."""

    def _bias(self, conv: ir.Node) -> tuple[bool, ir.Value | None]:
        value = conv.inputs[2] if len(conv.inputs) > 2 else None  # onnx_ir reads "" as None
        return value is not None, value


def _const(value: ir.Value | None) -> np.ndarray | None:
    if value is None or value.const_value is None:
        return None
    return value.const_value.numpy()


def _initializer(graph: ir.Graph, name: str, array: np.ndarray) -> ir.Value:
    value = ir.Value(
        name=name,
        shape=ir.Shape(array.shape),
        type=ir.TensorType(ir.DataType.from_numpy(array.dtype)),
        const_value=ir.tensor(array, name=name),
    )
    graph.register_initializer(value)
    return value
