"""Which Casts of an onnxruntime output are the ones it inserted (``inserted_casts``, read by the folding
and parity oracles): behaviours survivors of ``bench/mutation_score.py`` showed unguarded, on a real
``ort:basic`` output (float16 Div, which onnxruntime's CPU provider computes in float between Casts)."""

from __future__ import annotations

from onnx import TensorProto, helper

from passcheck.oracles.ort_own_ops import inserted_casts
from passcheck.passes import get_pass
from tests.oracles.test_folding_inserted_casts import _div16

INSERTED = ["InsertedPrecisionFreeCast_sqrt2", "InsertedPrecisionFreeCast_x", "InsertedPrecisionFreeCast_y"]


def test_only_casts_onnxruntime_inserted_are_named_not_other_new_nodes_or_casts_of_the_input(tmp_path):
    """Mutants killed: each ``and`` of ``inserted_casts``' condition → ``or``, and ``n.op_type == "Cast"`` →
    ``!=``: a Cast of another name, a Cast of onnxruntime's name that the input already had, or a new node that
    is no Cast (a rewrite's, named afresh) was taken for one onnxruntime inserted."""
    model = _div16()
    out = get_pass("ort:basic").run(model, tmp_path)
    assert out.ok, out.error
    assert inserted_casts(model, out.model) == INSERTED

    old = "InsertedPrecisionFreeCast_mine"  # the input's own node of that name, kept by the pass
    model.graph.node.append(helper.make_node("Cast", ["x"], ["mine"], name=old, to=TensorProto.FLOAT))
    for node in (
        helper.make_node("Cast", ["x"], ["mine"], name=old, to=TensorProto.FLOAT),
        helper.make_node("Cast", ["x"], ["plain"], name="user_cast", to=TensorProto.FLOAT),
        helper.make_node("Relu", ["x"], ["fresh"], name="InsertedPrecisionFreeCast_relu"),
        helper.make_node("Neg", ["x"], ["fresh2"], name="fused_new"),
    ):
        out.model.graph.node.append(node)
    assert inserted_casts(model, out.model) == INSERTED
