"""onnx's StringNormalizer inference refuses a `[N, C]` input whose `N` is symbolic or unknown; onnxruntime then refuses the model.

Operators.md StringNormalizer (opset 10): the operator "only accepts [C]- and [1, C]-tensor". A model whose input is
annotated `x: string[N, 4]` is valid for the binding N = 1 (IR.md: a `dim_param` is bound per run; the input annotation
is the caller's precondition), and onnx's reference evaluator runs it. onnx's inference function
(`onnx/defs/text/defs.cc`, StringNormalizer-10) fails unless the first of two dims has `dim_value` 1, so
`infer_shapes(strict_mode=True)` raises "Input shape must have either [C] or [1,C] dimensions" and every onnxruntime
session refuses the model at load, for `N` and for a dim with neither field alike. The same function copies the first
dim to the output after the check: the check only needs to refuse a `dim_value` other than 1 (as TfIdfVectorizer's
inference copies its unknown batch dim). Expected: the three annotations accepted and the run gives the [1, 4] result.
Exits 1 while the defect is present.
"""

import numpy as np
import onnx
import onnx.helper as h
import onnxruntime as ort
from onnx import TensorProto as T
from onnx.reference import ReferenceEvaluator


def model(first) -> onnx.ModelProto:
    node = h.make_node("StringNormalizer", ["x"], ["y"], case_change_action="UPPER", stopwords=["a"], locale="C")
    g = h.make_graph(
        [node],
        "g",
        [h.make_tensor_value_info("x", T.STRING, [first, 4])],
        [h.make_tensor_value_info("y", T.STRING, [first, None])],
    )
    return h.make_model(g, opset_imports=[h.make_opsetid("", 10)], ir_version=7)


x = np.array([["a", "b", "c", "b"]], dtype=object)
FEEDS, PROVIDERS = {"x": x}, ["CPUExecutionProvider"]
want = ReferenceEvaluator(model(1)).run(None, {"x": x})[0]
bad = 0
for first in (1, "N", None):
    m = model(first)
    verdicts = []
    for what, run in (
        ("infer_shapes(strict)", lambda m: onnx.shape_inference.infer_shapes(m, strict_mode=True) and want),
        ("onnxruntime", lambda m: ort.InferenceSession(m.SerializeToString(), providers=PROVIDERS).run(None, FEEDS)[0]),
    ):
        try:
            got = run(m)
            verdicts.append(f"{what} ok" if got.tolist() == want.tolist() else f"{what} differs: {got.tolist()}")
        except Exception as exc:  # noqa: BLE001
            verdicts.append(f"{what} {type(exc).__name__}: ...{str(exc).splitlines()[0][-75:]}")
    ref = ReferenceEvaluator(m).run(None, {"x": x})[0].tolist()
    print(f"x: string[{first if first is not None else '?'}, 4] (reference evaluator: {ref})")
    for v in verdicts:
        print("   ", v)
    bad += any(not v.endswith(" ok") for v in verdicts)
raise SystemExit(1 if bad else 0)
