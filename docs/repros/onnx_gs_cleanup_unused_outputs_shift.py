"""onnx-graphsurgeon's `Graph.cleanup(remove_unused_node_outputs=True)` deletes every unused output of a node from
its output list, also one that is not the last: the outputs after it move into its slot. ONNX node outputs are
positional (IR.md: an optional output is omitted only by an empty name, or by leaving it off the *end*), so the
node now computes other things under the kept names: `values, indices = TopK(x, k)` with only `indices` read
becomes `indices = TopK(x, k)` — `indices` now names the float values (declared int64: refused); a `Split` into two with the first part unused
keeps one output beside a `split` of two entries, which the checker and onnxruntime refuse. The docstring promises
only that "empty-tensor (optional, but omitted)" outputs are never removed.

Models (opset 13): TopK(x: float[4], k=[2]) → (values, indices), y = Identity(indices); Split(x: float[1, 8],
split=[4, 4], axis=1) → (a, b), y = Identity(b). Control: cleanup() with its default (outputs kept).
Exits 1 while the cleaned model's output differs from the given model's or does not run, 0 when fixed."""

import numpy as np
import onnx
import onnx_graphsurgeon as gs
import onnxruntime as ort
from onnx import parser

MODELS = {
    "TopK, values unused": (
        """<ir_version: 8, opset_import: ["" : 13]>
g (float[4] x) => (int64[2] y) <int64[1] k = {2}> {
  values, indices = TopK (x, k)
  y = Identity (indices)
}""",
        np.array([1, 4, 2, 3], np.float32),
    ),
    "Split, first part unused": (
        """<ir_version: 8, opset_import: ["" : 13]>
g (float[1, 8] x) => (float[1, 4] y) <int64[2] s = {4, 4}> {
  a, b = Split <axis = 1> (x, s)
  y = Identity (b)
}""",
        np.arange(8, dtype=np.float32).reshape(1, 8),
    ),
}


def run(m, x):
    return ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]


if __name__ == "__main__":
    print("onnx", onnx.__version__, "onnxruntime", ort.__version__, "onnx_graphsurgeon", gs.__version__)
    bad = False
    for name, (text, x) in MODELS.items():
        m = parser.parse_model(text)
        onnx.checker.check_model(m, full_check=True)
        want = run(m, x)
        for remove in (False, True):
            out = gs.export_onnx(gs.import_onnx(m).cleanup(remove_unused_node_outputs=remove))
            outputs = list(out.graph.node[0].output)
            try:
                got = run(out, x)
                same, said = (
                    got.dtype == want.dtype and np.array_equal(got, want),
                    f"y {got.tolist()} vs {want.tolist()}",
                )
            except Exception as exc:  # noqa: BLE001 - the cleaned model's refusal is the finding
                same, said = False, f"does not run: {str(exc).splitlines()[0][:100]}"
            print(f"{name}, remove_unused_node_outputs={remove}: node outputs {outputs}, {said}, same={same}")
            bad |= not same
    raise SystemExit(1 if bad else 0)
