"""onnxruntime 1.32.0 (CPU) graph optimizations that act on one spelling of a computation and not on another the
operator schema gives the same meaning (docs/found.md rows 170-173). Each case builds the two models, checks that
onnxruntime computes the same output for both, and compares what the optimized model onnxruntime saves holds.

- ``space-to-depth`` (row 170, SliceConcatToSpaceToDepthFusion, ORT_ENABLE_EXTENDED): YOLOv5's Focus -- four Slices
  of x [N, 3, 8, 8], steps [2, 2] on axes [2, 3], starts [0, 0], [1, 0], [0, 1], [1, 1], ends INT64_MAX, concatenated
  on axis 1 -- becomes SpaceToDepth (+ Gather), but not when the first starts [0, 0] are written [INT64_MIN,
  INT64_MIN] or [-8, -8]: a negative start has the dim added, then starts are clamped to [0, dim] (Operators.md
  Slice), so all three start at 0.
- ``layernorm-bias`` (row 171, LayerNormFusion, ORT_ENABLE_BASIC): the decomposed LayerNorm over the last axis of
  x [N, 4, 8] becomes LayerNormalization when its bias b is [8], but all nine nodes stay when b is [1, 8]; Add
  broadcasts multidirectionally (Broadcasting.md), so [1, 8] against [N, 4, 8] is the 1 the broadcast prepends to
  [8] anyway.
- ``matmulnbits-bias`` (row 172, ORT_ENABLE_ALL): ``Add(MatMul(x, DequantizeLinear(w, s, axis=0, block_size=16)),
  bias)`` with w uint4 [32, 8] becomes one MatMulNBits taking the bias when bias is [8], but the Add stays after
  MatMulNBits when bias is [1, 8] (the same broadcast).
- ``reshape-gather-index`` (row 173, ReshapeFusion, ORT_ENABLE_BASIC): ``Reshape(x, Concat([-1], Unsqueeze(Gather(
  Shape(x), i), [0]), [3, 2]))``, x [N, T, 6], becomes one Reshape when i is 1 and stays five nodes when i is -2;
  with ``Gather(Shape(x), 0)`` in front of ``Gather(Shape(x), 1)`` the fused shape is [0, 0, 3, 2], but
  [-1, 0, 3, 2] (the dim N lost in the saved model's output) when the first index is spelled -3. Gather's
  indices are in [-s, s-1] (Operators.md Gather): on the rank-3 shape vector -2 is 1 and -3 is 0.

Usage: ``python ort_fusions_one_spelling.py [CASE ...]`` (default: every case). Exit 1 while a bug is present.
"""

import os
import sys
import tempfile

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

L = ort.GraphOptimizationLevel
BIG, SMALL = np.iinfo(np.int64).max, np.iinfo(np.int64).min
n = helper.make_node


def make(nodes, inits, x_shape, y_shape, opset, extra=()):
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, x_shape)
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, y_shape)
    tensors = [numpy_helper.from_array(np.asarray(v), k) for k, v in inits.items()]
    graph = helper.make_graph(nodes, "g", [x], [y], [*tensors, *extra])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def optimized(m, level, x_shape):
    """(op types, initializer values by name) of the optimized model onnxruntime saves, and its output on x."""
    path = os.path.join(tempfile.mkdtemp(), "opt.onnx")
    so = ort.SessionOptions()
    so.graph_optimization_level = level
    so.optimized_model_filepath = path
    so.log_severity_level = 3
    sess = ort.InferenceSession(m.SerializeToString(), so, providers=["CPUExecutionProvider"])
    y = sess.run(None, {"x": np.random.default_rng(0).standard_normal(x_shape).astype(np.float32)})[0]
    g = onnx.load(path).graph
    inits = {t.name: numpy_helper.to_array(t).tolist() for t in g.initializer}
    return [node.op_type for node in g.node], inits, y


def focus(start):
    i64 = lambda v: np.array(v, np.int64)  # noqa: E731
    inits = {"st00": i64([start] * 2), "st10": i64([1, 0]), "st01": i64([0, 1]), "st11": i64([1, 1])}
    inits.update(en=i64([BIG, BIG]), hw=i64([2, 3]), two2=i64([2, 2]))
    starts = ["st00", "st10", "st01", "st11"]
    nodes = [n("Slice", ["x", s, "en", "hw", "two2"], [f"p{i}"]) for i, s in enumerate(starts)]
    nodes.append(n("Concat", ["p0", "p1", "p2", "p3"], ["y"], axis=1))
    return make(nodes, inits, ["N", 3, 8, 8], ["N", 12, 4, 4], 13)


def layernorm(b_shape):
    f32 = lambda v: np.array(v, np.float32)  # noqa: E731
    inits = {"g": f32(np.linspace(0.5, 1.5, 8)), "b": f32(np.linspace(-0.5, 0.5, 8)).reshape(b_shape)}
    inits.update(two=f32(2.0), eps=f32(1e-5))
    nodes = [
        n("ReduceMean", ["x"], ["m"], axes=[-1]),
        n("Sub", ["x", "m"], ["d"]),
        n("Pow", ["d", "two"], ["p"]),
        n("ReduceMean", ["p"], ["v"], axes=[-1]),
        n("Add", ["v", "eps"], ["ve"]),
        n("Sqrt", ["ve"], ["s"]),
        n("Div", ["d", "s"], ["q"]),
        n("Mul", ["g", "q"], ["t"]),
        n("Add", ["b", "t"], ["y"]),
    ]
    return make(nodes, inits, ["N", 4, 8], ["N", 4, 8], 17)


def matmulnbits(bias_shape):
    rng = np.random.default_rng(0)
    w = helper.make_tensor("w", TensorProto.UINT4, [32, 8], rng.integers(0, 16, 32 * 8).tolist())
    inits = {
        "s": rng.uniform(0.01, 0.05, (2, 8)).astype(np.float32),
        "bias": rng.standard_normal(8).astype(np.float32).reshape(bias_shape),
    }
    nodes = [
        n("DequantizeLinear", ["w", "s"], ["wd"], axis=0, block_size=16),
        n("MatMul", ["x", "wd"], ["m"]),
        n("Add", ["m", "bias"], ["y"]),
    ]
    return make(nodes, inits, ["N", 4, 32], ["N", 4, 8], 21, extra=[w])


def reshape_heads(first, index):
    """Reshape(x, Concat(first, Unsqueeze(Gather(Shape(x), index)), [3, 2])); first: [-1] or a Gather index."""
    inits = {"ki": np.array(index, np.int64), "axes": np.array([0], np.int64), "k": np.array([3, 2], np.int64)}
    nodes = [n("Shape", ["x"], ["sh"]), n("Gather", ["sh", "ki"], ["d1"]), n("Unsqueeze", ["d1", "axes"], ["u1"])]
    if first == "minus-one":
        inits["u0"] = np.array([-1], np.int64)
    else:
        inits["k0"] = np.array(first, np.int64)
        nodes += [n("Gather", ["sh", "k0"], ["d0"]), n("Unsqueeze", ["d0", "axes"], ["u0"])]
    nodes += [n("Concat", ["u0", "u1", "k"], ["c"], axis=0), n("Reshape", ["x", "c"], ["y"])]
    return make(nodes, inits, ["N", "T", 6], ["N", "T", 3, 2], 13)


def space_to_depth():
    ops0, _, y0 = optimized(focus(0), L.ORT_ENABLE_EXTENDED, (2, 3, 8, 8))
    print("starts [0, 0]:", ops0)
    bug = False
    for start in (SMALL, -8):
        ops, _, y = optimized(focus(start), L.ORT_ENABLE_EXTENDED, (2, 3, 8, 8))
        np.testing.assert_array_equal(y, y0)  # the same computation
        print(f"starts [{start}, {start}]:", ops)
        bug |= "SpaceToDepth" in ops0 and "SpaceToDepth" not in ops
    return bug


def layernorm_bias():
    ops0, _, y0 = optimized(layernorm([8]), L.ORT_ENABLE_BASIC, (2, 4, 8))
    ops1, _, y1 = optimized(layernorm([1, 8]), L.ORT_ENABLE_BASIC, (2, 4, 8))
    np.testing.assert_allclose(y1, y0, rtol=1e-5, atol=1e-5)
    print("b [8]:", ops0, "\nb [1, 8]:", ops1)
    return ops0 == ["LayerNormalization"] and ops1 != ops0


def matmulnbits_bias():
    ops0, _, y0 = optimized(matmulnbits([8]), L.ORT_ENABLE_ALL, (2, 4, 32))
    ops1, _, y1 = optimized(matmulnbits([1, 8]), L.ORT_ENABLE_ALL, (2, 4, 32))
    np.testing.assert_allclose(y1, y0, rtol=1e-5, atol=1e-5)
    print("bias [8]:", ops0, "\nbias [1, 8]:", ops1)
    return "MatMulNBits" in ops0 and "Add" not in ops0 and "Add" in ops1


def reshape_gather_index():
    ops0, _, y0 = optimized(reshape_heads("minus-one", 1), L.ORT_ENABLE_BASIC, (2, 5, 6))
    ops1, _, y1 = optimized(reshape_heads("minus-one", -2), L.ORT_ENABLE_BASIC, (2, 5, 6))
    np.testing.assert_array_equal(y0, y1)
    print("index 1:", ops0, "\nindex -2:", ops1)
    _, i0, _ = optimized(reshape_heads(0, 1), L.ORT_ENABLE_BASIC, (2, 5, 6))
    _, i3, _ = optimized(reshape_heads(-3, 1), L.ORT_ENABLE_BASIC, (2, 5, 6))
    print("first index 0: fused shape", i0.get("c"), "; -3:", i3.get("c"))
    return len(ops1) > len(ops0) or i0.get("c") != i3.get("c")


CASES = {
    "space-to-depth": space_to_depth,
    "layernorm-bias": layernorm_bias,
    "matmulnbits-bias": matmulnbits_bias,
    "reshape-gather-index": reshape_gather_index,
}

found = []
for name in sys.argv[1:] or list(CASES):
    print(f"-- {name}")
    if CASES[name]():
        found.append(name)
if found:
    print("BUG: one spelling optimized, the other left:", ", ".join(found))
    sys.exit(1)
print("ok")
