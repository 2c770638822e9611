import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto as T
from onnx import helper
from onnx import numpy_helper as nh

mq = np.array([-78,-3,-27,-70,-93,40,97,48,98,-1,67,-59,-15,-37,87,-40,94,-30,-80,79,44,83,-14,84,-29,40,-25,-75,-24,70,-47,-51], np.int8).reshape(8,4)
inits = [nh.from_array(np.array(0.02,np.float32),"sx"), nh.from_array(np.array(0,np.int8),"zx8"), nh.from_array(mq,"mq"),
         nh.from_array(np.array(0.01,np.float32),"sw"), nh.from_array(np.array(0,np.int8),"zw")]
def model(neutral):
    n = [helper.make_node("DequantizeLinear", ["xq","sx","zx8"], ["xd0"])]
    x = "xd0"
    if neutral:
        n.append(helper.make_node("Mean", [x], ["xd1"])); x = "xd1"
    n += [helper.make_node("DequantizeLinear", ["mq","sw","zw"], ["wd"]), helper.make_node("MatMul", [x,"wd"], ["m"])]
    g = helper.make_graph(n, "g", [helper.make_tensor_value_info("xq", T.INT8, ["N",8])], [helper.make_tensor_value_info("m", T.FLOAT, ["N",4])], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("",17)]); onnx.checker.check_model(m, full_check=True); return m
rng = np.random.default_rng(0); xq = rng.integers(-128,127,(2,8)).astype(np.int8)
for neutral in (False, True):
    m = model(neutral); outs = {}
    for lvl in ("ORT_DISABLE_ALL","ORT_ENABLE_ALL"):
        so = ort.SessionOptions(); so.graph_optimization_level = getattr(ort.GraphOptimizationLevel, lvl); so.optimized_model_filepath = f"o_{neutral}_{lvl}.onnx"
        outs[lvl] = ort.InferenceSession(m.SerializeToString(), so, providers=["CPUExecutionProvider"]).run(None, {"xq": xq})[0]
    ops = [n.op_type for n in onnx.load(f"o_{neutral}_ORT_ENABLE_ALL.onnx").graph.node]
    exact = (xq.astype(np.float64)*0.02) @ (mq.astype(np.float64)*0.01)
    print("neutral" if neutral else "plain", ops, "max|all-disabled|", float(np.abs(outs["ORT_ENABLE_ALL"]-outs["ORT_DISABLE_ALL"]).max()), "max|all-exact|", float(np.abs(outs["ORT_ENABLE_ALL"]-exact).max()), "max|disabled-exact|", float(np.abs(outs["ORT_DISABLE_ALL"]-exact).max()))
m = model(True)
for acc in ("0", "1", "4"):
    so = ort.SessionOptions(); so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    so.add_session_config_entry("session.qdq_matmulnbits_accuracy_level", acc)
    got = ort.InferenceSession(m.SerializeToString(), so, providers=["CPUExecutionProvider"]).run(None, {"xq": xq})[0]
    exact = (xq.astype(np.float64)*0.02) @ (mq.astype(np.float64)*0.01)
    print("accuracy_level", acc, "max abs err", float(np.abs(got-exact).max()), "max |exact|", float(np.abs(exact).max()))
