"""onnxruntime's weight-only quantizer (`quantization/matmul_nbits_quantizer.py`, `MatMulNBitsQuantizer(...)
.process()` with its default algorithm) turns a MatMul of any element type whose B is an initializer into
`com.microsoft::MatMulNBits` — also a double, int32 or int64 MatMul. MatMulNBits' schema (ContribOperators.md:
`T1` in float, float16, bfloat16) takes none of them, and onnxruntime refuses the model the quantizer wrote
("Type 'tensor(double)' of input parameter (x) of operator (MatMulNBits) ... is invalid"). The given models run.

Model (opset 17): y = MatMul(x, W), x: T[2, 32], W an initializer T[32, 8], for T in float (quantized and run:
the control), double, int32, int64 (Operators.md MatMul-13: T in float16, float, double, uint32, uint64, int32,
int64, bfloat16). Exits 1 while the quantized model of a type the given model runs in is refused, 0 when fixed
(the MatMul left alone, or quantized into something that runs)."""

import logging

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper
from onnxruntime.quantization.matmul_nbits_quantizer import MatMulNBitsQuantizer

TYPES = {
    "float": TensorProto.FLOAT,
    "double": TensorProto.DOUBLE,
    "int32": TensorProto.INT32,
    "int64": TensorProto.INT64,
}


def model(name: str) -> onnx.ModelProto:
    dtype = onnx.helper.tensor_dtype_to_np_dtype(TYPES[name])
    w = np.random.default_rng(0).uniform(-4, 4, (32, 8)).astype(dtype)
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["x", "W"], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", TYPES[name], [2, 32])],
        [helper.make_tensor_value_info("y", TYPES[name], [2, 8])],
        [numpy_helper.from_array(w, "W")],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def run(m, x):
    try:
        session = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
        return session.run(None, {"x": x})[0]
    except Exception as e:  # noqa: BLE001 - the refusal is the finding
        return str(e).splitlines()[0][-150:]


if __name__ == "__main__":
    logging.disable(logging.INFO)  # the quantizer logs each node
    print("onnx", onnx.__version__, "onnxruntime", ort.__version__)
    bad = False
    for name in TYPES:
        m = model(name)
        onnx.checker.check_model(m, full_check=True)
        x = np.random.default_rng(1).uniform(-2, 2, (2, 32)).astype(helper.tensor_dtype_to_np_dtype(TYPES[name]))
        given = run(m, x)
        q = MatMulNBitsQuantizer(onnx.ModelProto.FromString(m.SerializeToString()), block_size=16)
        q.process()
        out = q.model.model
        got = run(out, x)
        ops = [n.op_type for n in out.graph.node]
        refused = isinstance(got, str) and not isinstance(given, str)
        print(f"{name}: quantized to {ops}; {'refused: ' + got if refused else 'runs'}")
        bad |= refused
    raise SystemExit(1 if bad else 0)
