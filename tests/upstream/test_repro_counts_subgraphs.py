"""The reproducers count op types as the parity oracle does (passcheck.oracles._context.op_counts): nodes inside
If branches and local-function bodies too. Counting the main graph alone, session 15's triage marked three
onnxscript parity findings "not reproduced" (a BatchNormalization left unfused inside an If that
onnxscript inlined: the script saw no BatchNormalization in the model's main graph before the pass)."""

from __future__ import annotations

import collections

import onnx
import pytest

from passcheck.oracles._context import op_counts
from passcheck.repro.generic import COUNTS

MODEL = """<ir_version: 8, opset_import: ["" : 17, "local" : 1]>
g (float[1,3,4,4] x, bool c) => (float[1,3,4,4] y) {
  y = If (c) <then_branch = t () => (float[1,3,4,4] a) { a = local.F (x) },
              else_branch = e () => (float[1,3,4,4] b) { k = Constant <value_float = 0.0> ()
                                                         b = Relu (x) }>
}
<domain: "local", opset_import: ["" : 17]>
F (z) => (w) { w = Abs (z) }"""


@pytest.mark.parametrize("script", ["generic", "ort"])
def test_script_counts_nodes_in_subgraphs_and_functions_as_the_oracle(script):
    from passcheck.repro import script as ort_script

    model = onnx.parser.parse_model(MODEL)
    scope = {"collections": collections}
    exec(COUNTS, scope)  # the text both kinds of repro.py embed
    if script == "ort":
        assert COUNTS in ort_script._TEMPLATE.format_map(collections.defaultdict(str, counts=COUNTS))
    want = op_counts(model)
    want.pop("Constant", None)
    assert scope["counts"](model) == want == {"If": 1, "Abs": 1, "Relu": 1}
