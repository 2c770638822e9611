"""``xformers-bert/*`` (cases/xformers_bert.py): the post-LN BERT attention layer onnxruntime's transformers optimizer
documents it fuses (``fusion_attention.py``), and its valid respellings.

Every form passes the full checker and runs equal to the common form unoptimized; the common form is fused by the
real ``optimize_model(…, "bert")`` into ``com.microsoft`` Attention (MultiHeadAttention with
``use_multi_head_attention``). A planted fusion — the real one, then the Attention's ``scale`` set to 0.4 where the
layer scales by 1/sqrt(4) — is caught by the numeric oracle on every fused form; the same fusion with the right
scale 0.5 stated gives no numeric finding.
"""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import helper

from passcheck.cases import registry
from tests.quality.test_planted_xformers import _findings

CASES = ("xformers-bert/attention", "xformers-bert/attention-scaled")


def _run(model: onnx.ModelProto, feeds) -> np.ndarray:
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    return ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"]).run(None, feeds)[0]


def _bert(model: onnx.ModelProto, **flags) -> onnx.ModelProto:
    import tempfile

    from onnxruntime.transformers.fusion_options import FusionOptions
    from onnxruntime.transformers.optimizer import optimize_model

    options = FusionOptions("bert")
    for k, v in flags.items():
        setattr(options, k, v)
    out = optimize_model(model, "bert", num_heads=0, hidden_size=0, opt_level=0, optimization_options=options)
    with tempfile.TemporaryDirectory() as d:
        out.save_model_to_file(f"{d}/o.onnx")  # adds the com.microsoft import
    return out.model


@pytest.mark.parametrize("case_id", CASES)
def test_every_form_is_valid_and_computes_the_common_values(case_id):
    case = registry().get(case_id)
    feeds = case.feeds({"N": 3}, 0)
    outs = {}
    for form in case.forms:
        model = case.build(form)
        onnx.checker.check_model(model, full_check=True)
        outs[form] = _run(model, feeds)
    for form, out in outs.items():
        np.testing.assert_allclose(out, outs["common"], rtol=1e-5, atol=1e-5, err_msg=form)


@pytest.mark.parametrize(
    ("flags", "fused"), [({}, "Attention"), ({"use_multi_head_attention": True}, "MultiHeadAttention")]
)
def test_the_common_form_is_the_subgraph_the_fusion_fuses(flags, fused):
    model = _bert(registry().get(CASES[0]).build("common"), **flags)
    ops = [n.op_type for n in model.graph.node]
    assert fused in ops and "Softmax" not in ops, ops


def _with_scale(scale: float):
    def fuse(model: onnx.ModelProto) -> onnx.ModelProto:
        out = _bert(model)
        for node in out.graph.node:
            if node.op_type == "Attention":
                node.attribute.append(helper.make_attribute("scale", scale))
        return out

    fuse.__name__ = f"attention_scale_{str(scale).replace('.', '_')}"
    return fuse


def test_a_fusion_with_the_wrong_scale_is_caught_and_the_right_one_is_not():
    wrong = {f.form for f in _findings(CASES[0], _with_scale(0.4)) if f.oracle == "numeric"}
    fused = {f for f in registry().get(CASES[0]).forms if f != "scale-mul"}  # row 1494: scale-mul is not fused
    assert wrong == fused
    assert not [f for f in _findings(CASES[0], _with_scale(0.5)) if f.oracle == "numeric"]
