"""onnxsim.simplify(initializers_as_constants=False) kills the process on an If whose condition is an initializer.

y = If(t){Neg(x)}{Identity(x)}, t a bool initializer (true): a valid model (IR.md: an initializer is a constant
value of the graph's scope; If-16 takes any bool tensor of one element as its condition). With the default
(``initializers_as_constants=True``) onnxsim folds the If to its then branch; with ``False`` (its docstring: the
initializers are treated as non-constant and the optimizer's value-baking passes are told to leave them alone) the
simplification dies with SIGSEGV. ``perform_optimization=False`` or ``skipped_optimizers=["eliminate_if_with_const_cond"]``
avoid it: the crash is in that optimizer pass under the option. Run in a child process, so a crash is reported here.

Exits 1 while the child dies (or the simplified model computes another y than the input), 0 once it keeps or folds the
If and the output matches.
"""

import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

then = helper.make_graph(
    [helper.make_node("Neg", ["x"], ["a"])], "then", [], [helper.make_tensor_value_info("a", TensorProto.FLOAT, [2])]
)
other = helper.make_graph(
    [helper.make_node("Identity", ["x"], ["b"])],
    "else",
    [],
    [helper.make_tensor_value_info("b", TensorProto.FLOAT, [2])],
)
graph = helper.make_graph(
    [helper.make_node("If", ["t"], ["y"], then_branch=then, else_branch=other)],
    "g",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])],
    [numpy_helper.from_array(np.array(True), "t")],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
onnx.checker.check_model(model, full_check=True)

child = textwrap.dedent(
    """
    import sys, numpy as np, onnx, onnxruntime as ort, onnxsim
    m = onnx.load(sys.argv[1])
    out, _ = onnxsim.simplify(m, initializers_as_constants=False)
    x = np.array([1.0, -2.0], np.float32)
    run = lambda g: ort.InferenceSession(g.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
    print("nodes after:", [n.op_type for n in out.graph.node], "y:", run(out), "input's y:", run(m))
    sys.exit(0 if np.array_equal(run(out), run(m)) else 1)
    """
)
with tempfile.TemporaryDirectory() as tmp:
    path = Path(tmp) / "m.onnx"
    onnx.save(model, path)
    proc = subprocess.run([sys.executable, "-c", child, str(path)], capture_output=True, text=True)
print(proc.stdout.strip() or "(no output)")
if proc.returncode < 0:
    print(f"onnxsim.simplify(m, initializers_as_constants=False): the process died with signal {-proc.returncode}")
sys.exit(0 if proc.returncode == 0 else 1)
