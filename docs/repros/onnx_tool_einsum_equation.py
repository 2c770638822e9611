"""onnx-tool's Einsum shape inference reads only a two-operand equation with an explicit output and no ellipsis: an
implicit output or one operand raises IndexError, an ellipsis or a third operand gives a wrong output shape.

Operators.md, Einsum-12: the equation has one comma-separated term per input (Inputs: variadic, 1 to 2147483647),
"The output term '->' may be omitted" (implicit mode: the letters used once, in alphabetical order) and a term may
hold an ellipsis '...' standing for the broadcast dims. onnx-tool 1.0.1 `EinsumNode.__init__` splits the equation
at the first ',' and '->' (`strs[1]`), and `shape_infer` maps each character of the two first terms, '.' included,
to a dim. Model: `y = Einsum(inputs)` for each equation below, fed float zeros, opset 17; operation:
`Graph.shape_infer(feeds)` then `save_model` (what `onnx_tool.model_profile` does). `ij,jk->ik` (control) is right.
Exits 1 while any equation raises or is annotated with another shape than onnxruntime computes.
"""

import sys
import tempfile
import warnings
from pathlib import Path

import numpy as np
import onnx
import onnx_tool
import onnxruntime as ort
from onnx import TensorProto, helper

warnings.simplefilter("ignore")
equations = {  # equation: input shapes
    "ij,jk->ik (control)": [(2, 3), (3, 4)],
    "ij,jk": [(2, 3), (3, 4)],
    "ij->ji": [(2, 3)],
    "...j,jk->...k": [(2, 3), (3, 4)],
    "ij,jk,kl->il": [(2, 3), (3, 4), (4, 5)],
}
bad = []
for label, shapes in equations.items():
    eq = label.split(" ")[0]
    names = [f"x{i}" for i in range(len(shapes))]
    feeds = {n: np.zeros(s, np.float32) for n, s in zip(names, shapes, strict=True)}
    declared = list(np.einsum(eq, *feeds.values()).shape)
    g = helper.make_graph(
        [helper.make_node("Einsum", names, ["y"], equation=eq)],
        "g",
        [helper.make_tensor_value_info(n, TensorProto.FLOAT, list(s)) for n, s in zip(names, shapes, strict=True)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, declared)],
    )
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
    onnx.checker.check_model(m, full_check=True)
    want = list(
        ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)[0].shape
    )
    try:
        graph = onnx_tool.Model(m).graph
        graph.shape_infer(feeds)
        with tempfile.TemporaryDirectory() as d:
            graph.save_model(str(Path(d) / "s.onnx"), rawmodel=m)
            out = onnx.load(str(Path(d) / "s.onnx")).graph.output[0]
        got = [dim.dim_value for dim in out.type.tensor_type.shape.dim]
        result = "same" if got == want else f"annotated {got}"
    except Exception as exc:  # noqa: BLE001 - the tool's failure is the finding
        result = f"raises {type(exc).__name__}: {exc}"
    print(f"{label}: onnxruntime {want}; onnx-tool {result}")
    if result != "same":
        bad.append(eq)
print(f"{len(bad)} of {len(equations)} equations inferred wrong")
sys.exit(1 if bad else 0)
