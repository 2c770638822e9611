"""onnxslim.slim writes a model onnxruntime refuses ('Node input ... is not a graph input, initializer, or
output of a previous node') from onnx's backend node test test_affine_grid_2d_expanded (valid; runs)."""

import warnings

import onnx
import onnxruntime as ort
import onnxslim
from onnx.backend.test.case.node import collect_testcases

warnings.simplefilter("ignore")
tc = next(t for t in collect_testcases(None) if t.name == "test_affine_grid_2d_expanded")
feeds = {vi.name: v for vi, v in zip(tc.model.graph.input, tc.data_sets[0][0])}
onnx.checker.check_model(tc.model, full_check=True)
ort.InferenceSession(tc.model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)
print("the test model: checker ok, onnxruntime runs it")
out = onnxslim.slim(tc.model)
try:
    ort.InferenceSession(out.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)
    print("onnxslim output runs")
except Exception as e:
    print("onnxslim output FAILS:", str(e)[:260])
