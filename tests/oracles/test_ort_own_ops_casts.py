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


def test_each_model_is_read_once_inside_a_shared_block(tmp_path):
    """Inside :func:`passcheck.runtime.graph_index.shared` (the engine judges a subject in one, where parity
    asks for every pair of forms and folding for every output) the output's Casts and the input's node names
    are read once per model object: a change made meanwhile (which the block's caller promises not to make)
    is not seen until the block ends, when each call reads afresh."""
    from passcheck.runtime import graph_index

    model = _div16()
    out = get_pass("ort:basic").run(model, tmp_path)
    assert out.ok, out.error
    with graph_index.shared():
        assert inserted_casts(model, out.model) == INSERTED
        out.model.graph.node[[n.name for n in out.model.graph.node].index(INSERTED[0])].name = "renamed"
        model.graph.node.append(helper.make_node("Cast", ["x"], ["c"], name=INSERTED[1], to=TensorProto.FLOAT))
        assert inserted_casts(model, out.model) == INSERTED
    assert inserted_casts(model, out.model) == INSERTED[2:]
