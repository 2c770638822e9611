"""onnxruntime's Attention kernel departs from onnx's stated output in the backend node test
test_attention_4d_with_past_and_present_qk_matmul_bias_4d_mask_causal (output qk_matmul_output)."""

import warnings

import numpy as np
import onnxruntime as ort
from onnx.backend.test.case.node import collect_testcases

warnings.simplefilter("ignore")
name = "test_attention_4d_with_past_and_present_qk_matmul_bias_4d_mask_causal"
tc = next(t for t in collect_testcases(None) if t.name == name)
feeds = {vi.name: v for vi, v in zip(tc.model.graph.input, tc.data_sets[0][0])}
so = ort.SessionOptions()
so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
got = ort.InferenceSession(tc.model.SerializeToString(), so, providers=["CPUExecutionProvider"]).run(None, feeds)
for vi, g, e in zip(tc.model.graph.output, got, tc.data_sets[0][1]):
    if np.allclose(g, e, rtol=tc.rtol, atol=tc.atol, equal_nan=True):
        print(vi.name, g.shape, "matches")
        continue
    at = tuple(np.argwhere(np.isinf(g) != np.isinf(e))[0])
    print(
        vi.name,
        g.shape,
        f"DEPARTS: -inf at {int(np.isinf(g).sum())} vs stated {int(np.isinf(e).sum())}; at {at}: {g[at]} vs {e[at]}",
    )
