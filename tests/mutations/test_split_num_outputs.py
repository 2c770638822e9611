"""``split-as-slices`` on Split-18's ``num_outputs`` (round 18g, M372): n chunks of ceil(dim / n), only the last one
smaller (Operators.md Split-18), written as one Slice per chunk. Before, the rewrite skipped every Split naming
``num_outputs``, so no form spelled an uneven split as Slices for a pass that merges sibling Slices into a Split
(onnxscript's ``SlicesSplit``, docs/found.md row 1102)."""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
import pytest

from passcheck.mutations import REWRITES
from passcheck.mutations.select_ops import _equal_parts


def _split(dim: int, n: int) -> onnx.ModelProto:
    outs = ", ".join(f"y{i}" for i in range(n))
    return onnx.parser.parse_model(f"""<ir_version: 8, opset_import: ["" : 18]>
g (float[2, {dim}] x) => ({", ".join(f"float[2, ?] y{i}" for i in range(n))}) {{
  {outs} = Split <axis = -1, num_outputs = {n}> (x)
}}""")


def _run(model: onnx.ModelProto, x: np.ndarray) -> list[np.ndarray]:
    return ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})


@pytest.mark.parametrize(("dim", "n", "sizes"), [(5, 2, [3, 2]), (7, 3, [3, 3, 1]), (6, 3, [2, 2, 2])])
def test_num_outputs_becomes_slices_of_the_ceil_chunks(dim, n, sizes):
    base = _split(dim, n)
    mutant, applied = REWRITES["split-as-slices"].apply(base)
    assert [nd.op_type for nd in mutant.graph.node if nd.op_type != "Constant"] == ["Slice"] * n
    onnx.checker.check_model(mutant, full_check=True)
    x = np.arange(2 * dim, dtype=np.float32).reshape(2, dim)
    want, got = _run(base, x), _run(mutant, x)
    assert [w.shape[1] for w in want] == sizes  # onnxruntime's Split-18 agrees with the spec's sizes
    for w, g in zip(want, got, strict=True):
        np.testing.assert_array_equal(g, w)


def test_no_form_for_a_split_with_no_such_chunks():
    assert _equal_parts(5, 4, 4) is None  # ceil(5/4) = 2: 2 + 2 + 2 leaves -1 for the last
    assert _equal_parts(5, 2, None) is None  # Split-13's equal parts of an odd dim do not exist
    assert _equal_parts("N", 2, 2) is None  # a dim not static
    assert REWRITES["split-as-slices"].apply(_split(5, 4)) is None
