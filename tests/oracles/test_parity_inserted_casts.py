"""Parity's op count of an onnxruntime output leaves out the Casts onnxruntime inserts around a kernel it
lacks for float16 (InsertCastTransformer), and only those: the model's own Cast still counts."""

from __future__ import annotations

from collections import Counter

from onnx import parser

from passcheck.oracles._context import FormRun
from passcheck.oracles.ort_own_ops import ORT_INSERTED_CAST
from passcheck.oracles.parity import _delta
from passcheck.passes import get_pass


def test_an_own_cast_beside_inserted_ones_is_neither_added_nor_removed(tmp_path):
    # Sin has no float16 CPU kernel: onnxruntime casts around it; the Cast to double is the model's own
    model = parser.parse_model("""<ir_version: 8, opset_import: ["" : 18]>
g (float[3] x, float16[3] h) => (double[3] z, float16[3] y) { z = Cast <to = 11> (x)  y = Sin (h) }""")
    out = get_pass("ort:basic").run(model, tmp_path)
    casts = [n.name for n in out.model.graph.node if n.op_type == "Cast"]
    assert len(casts) == 3 and sum(c.startswith(ORT_INSERTED_CAST) for c in casts) == 2, casts
    run = FormRun("c", "common", "ort:basic", model, out, [], [], [])
    assert _delta(run) == (Counter(), Counter())
