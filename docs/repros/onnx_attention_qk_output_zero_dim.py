"""onnx 1.23.2's shape inference for Attention (opset 23 to 25) types the optional output `qk_matmul_output` as
[batch, q_heads, q_seq, 0] when K's sequence length is symbolic: the last dim gets `dim_value` 0 (the unknown
kv_sequence_length written as a value) where it is K's sequence length (Operators.md Attention: qk_matmul_output
has shape (batch_size, q_num_heads, q_sequence_length, total_sequence_length)). onnxruntime runs the model and
returns [2, 2, 2, 2] (and warns "Expected shape from model of {-1,-1,-1,0} does not match actual shape"). With
static input shapes the dim is right. Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnx.shape_inference
import onnxruntime as ort
from onnx import helper

wrong = []
for opset in (23, 24, 25):
    q, kv = ["b", "h", "s", "d"], ["b", "h", "t", "d"]
    graph = helper.make_graph(
        [helper.make_node("Attention", ["Q", "K", "V"], ["Y", "present_key", "present_value", "qk"])],
        "g",
        [
            helper.make_tensor_value_info("Q", onnx.TensorProto.FLOAT, q),
            helper.make_tensor_value_info("K", onnx.TensorProto.FLOAT, kv),
            helper.make_tensor_value_info("V", onnx.TensorProto.FLOAT, kv),
        ],
        [
            helper.make_tensor_value_info(n, onnx.TensorProto.FLOAT, None)
            for n in ("Y", "present_key", "present_value", "qk")
        ],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    inferred = onnx.shape_inference.infer_shapes(model)
    qk = next(v for v in list(inferred.graph.value_info) + list(inferred.graph.output) if v.name == "qk")
    dims = [d.dim_param or (d.dim_value if d.HasField("dim_value") else "?") for d in qk.type.tensor_type.shape.dim]
    x = np.random.default_rng(0).random((2, 2, 2, 2), dtype=np.float32)
    ran = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(
        ["qk"], {"Q": x, "K": x, "V": x}
    )[0]
    print(f"Attention-{opset}: inferred qk_matmul_output {dims}, onnxruntime gives {list(ran.shape)}")
    if dims[-1] == 0 and ran.shape[-1] != 0:
        wrong.append(opset)
sys.exit(1 if wrong else 0)
