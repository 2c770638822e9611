"""ort ORT_ENABLE_BASIC refuses a model it runs unoptimized: onnx's backend node test
test_affine_grid_2d_expanded with its inputs held as initializers (the same computation, constant)."""

import warnings

import onnx
import onnxruntime as ort
from onnx import numpy_helper
from onnx.backend.test.case.node import collect_testcases

warnings.simplefilter("ignore")
tc = next(t for t in collect_testcases(None) if t.name == "test_affine_grid_2d_expanded")
m = tc.model
for vi, v in zip(m.graph.input, tc.data_sets[0][0]):
    m.graph.initializer.append(numpy_helper.from_array(v, vi.name))
del m.graph.input[:]
print("ir", m.ir_version, "opset", [(o.domain, o.version) for o in m.opset_import])
onnx.checker.check_model(m, full_check=True)
for level in ("ORT_DISABLE_ALL", "ORT_ENABLE_BASIC"):
    so = ort.SessionOptions()
    so.graph_optimization_level = getattr(ort.GraphOptimizationLevel, level)
    try:
        out = ort.InferenceSession(m.SerializeToString(), so, providers=["CPUExecutionProvider"]).run(None, {})
        print(level, "runs; output", out[0].shape)
    except Exception as e:
        print(level, "FAILS:", str(e)[:300])
