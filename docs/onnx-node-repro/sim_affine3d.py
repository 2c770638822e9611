"""onnxsim.simplify raises on a valid model: onnx's backend node test test_affine_grid_3d_expanded."""

import warnings

import onnx
import onnxsim
from onnx.backend.test.case.node import collect_testcases

warnings.simplefilter("ignore")
tc = next(t for t in collect_testcases(None) if t.name == "test_affine_grid_3d_align_corners_expanded")
onnx.checker.check_model(tc.model, full_check=True)
print("checker ok")
try:
    onnxsim.simplify(tc.model)
    print("onnxsim ok")
except Exception as e:
    print("onnxsim FAILS:", type(e).__name__, str(e)[:300])
