"""The coverage catalogue knows the transformers and rules onnxruntime's session config keys register
(:mod:`passcheck.coverage.ort`, :data:`passcheck.passes.ort_config.KEYS`), and a model triggers them only through the
key's passes: with real onnxruntime sessions."""

from __future__ import annotations

from tests.passes.test_ort_config import _gelu, _model


def test_every_key_and_the_transformers_only_a_key_registers_are_entries():
    from passcheck.coverage import ort
    from passcheck.passes.ort_config import KEYS, pass_id

    entries = {e.key: e for e in ort.catalogue({"GeluFusionL1": "basic"})}
    for k in KEYS:
        e = entries[f"onnxruntime:config:{k.name}={k.value}"]
        assert e.passes == tuple(pass_id(lv, k) for lv in k.levels()) and k.name in e.source
    assert entries["onnxruntime:transformer:GeluApproximation"].passes == (
        "ort:extended+optimization.enable_gelu_approximation=1",
        "ort:all+optimization.enable_gelu_approximation=1",
    )
    assert entries["onnxruntime:rule:CastChainElimination"].scope == "basic"


def test_a_key_is_triggered_only_where_it_changes_the_graph():
    from onnx import TensorProto, helper

    from passcheck.coverage import ort

    gelu = ort.triggers(_gelu())
    assert "onnxruntime:transformer:GeluApproximation" in gelu
    assert "onnxruntime:config:optimization.enable_gelu_approximation=1" in gelu
    assert "onnxruntime:config:optimization.enable_cast_chain_elimination=1" not in gelu
    chain = ort.triggers(
        _model(
            [
                helper.make_node("Cast", ["x"], ["h"], to=TensorProto.FLOAT16),
                helper.make_node("Cast", ["h"], ["b"], to=TensorProto.FLOAT),
                helper.make_node("Relu", ["b"], ["y"]),
            ]
        )
    )
    assert "onnxruntime:rule:CastChainElimination" in chain
    assert "onnxruntime:transformer:GeluApproximation" not in chain
