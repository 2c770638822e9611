"""onnxruntime's transformers optimizer needs torch for its own default call (found.md row 1453).

``onnxruntime.transformers.optimizer.optimize_model(model, "bert")`` with its defaults runs onnxruntime's graph
optimizer first (``opt_level=None`` takes ``MODEL_TYPES["bert"]``'s default 1; the docstring: "When the level > 0,
onnxruntime will be used to optimize model first"). ``optimize_by_onnxruntime`` begins with ``from torch import
version``, read only to choose a GPU provider (``torch_version.hip``), before it looks at ``use_gpu``. onnxruntime's
wheel does not require torch, so on a CPU-only install without it every call with ``opt_level`` 1, 2 or 99 raises
``ModuleNotFoundError: No module named 'torch'``, ``use_gpu=False`` included.

The script makes torch unimportable (as on an install without it), calls ``optimize_model`` on a one-node model with
the defaults and with ``opt_level=1, use_gpu=False``, and exits 1 when either raises for torch, 0 when both return.
Needs onnx and onnxruntime.
"""

import sys

import onnx
from onnx import TensorProto, helper

sys.modules["torch"] = None  # as on a CPU-only install without torch: `import torch` raises ImportError

from onnxruntime.transformers.optimizer import optimize_model  # noqa: E402

x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])
y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])
graph = helper.make_graph([helper.make_node("Relu", ["x"], ["y"])], "g", [x], [y])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
onnx.checker.check_model(model)

failed = False
for kwargs in ({}, {"opt_level": 1, "use_gpu": False}):
    try:
        optimize_model(model, "bert", **kwargs)
    except ImportError as e:
        print(f"optimize_model(model, 'bert', {kwargs}) raised {type(e).__name__}: {e}")
        failed = True
    else:
        print(f"optimize_model(model, 'bert', {kwargs}) returned")
sys.exit(1 if failed else 0)
