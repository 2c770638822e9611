"""``ort:<level>+<key>=<value>`` and ``ort:<level>-without-<Name>`` (:mod:`passcheck.passes.ort_config`) with real
onnxruntime sessions: each key changes the graph its transformer writes where the plain level leaves it, removing
the transformer by name gives the plain level's graph back, and a config whose declared bound is wrong (the
approximating GeluApproximation declared exact) is caught by the numeric oracle."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

import passcheck
from passcheck.errors import PasscheckError, PassUnavailableError
from passcheck.passes import get_pass, known_pass_ids
from passcheck.passes import ort_config as C
from tests.passes._helpers import cell_of


def _model(nodes, inits=()) -> onnx.ModelProto:
    graph = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 3])],
        list(inits),
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def _gelu() -> onnx.ModelProto:
    """y = 3 * Gelu(x), Gelu spelled with Erf (what GeluFusion fuses and GeluApproximation then approximates)."""
    f = lambda v, n: numpy_helper.from_array(np.array(v, np.float32), n)  # noqa: E731
    return _model(
        [
            helper.make_node("Div", ["x", "sqrt2"], ["d"]),
            helper.make_node("Erf", ["d"], ["e"]),
            helper.make_node("Add", ["e", "one"], ["a"]),
            helper.make_node("Mul", ["x", "a"], ["m"]),
            helper.make_node("Mul", ["m", "half"], ["g"]),
            helper.make_node("Mul", ["g", "three"], ["y"]),
        ],
        [f(np.sqrt(2.0), "sqrt2"), f(1.0, "one"), f(0.5, "half"), f(3.0, "three")],
    )


def _ops(model) -> list[str]:
    return [n.op_type for n in model.graph.node]


def _applied(pid: str, model, tmp_path) -> list[str]:
    tmp_path.mkdir(parents=True, exist_ok=True)
    out = get_pass(pid).run(model, tmp_path)
    assert out.ok, (pid, out.status, out.error)
    return _ops(out.model)


def test_every_config_pass_is_listed_and_names_its_key():
    listed = set(known_pass_ids())
    for key in C.KEYS:
        for level in key.levels():
            pid = C.pass_id(level, key)
            assert pid in listed and C.key_of(pid) is key
            assert get_pass(pid).config == key.config and get_pass(pid).steps == (f"ort:{level}",)


@pytest.mark.parametrize(
    ("plain", "keyed", "model", "gone"),
    [
        (  # CastChainElimination (a Level1 rule only the key registers) cuts a Cast chain back to its input's type
            "ort:basic",
            "ort:basic+optimization.enable_cast_chain_elimination=1",
            _model(
                [
                    helper.make_node("Cast", ["x"], ["h"], to=TensorProto.FLOAT16),
                    helper.make_node("Cast", ["h"], ["b"], to=TensorProto.FLOAT),
                    helper.make_node("Relu", ["b"], ["y"]),
                ]
            ),
            "Cast",
        ),
        (  # ConstantFolding folds a DequantizeLinear of constants once the QDQ handling is off
            "ort:basic",
            "ort:basic+session.disable_quant_qdq=1",
            _model(
                [
                    helper.make_node("DequantizeLinear", ["w", "s", "z"], ["wd"]),
                    helper.make_node("Add", ["x", "wd"], ["y"]),
                ],
                [
                    numpy_helper.from_array(np.array([1, 2, 3], np.uint8), "w"),
                    numpy_helper.from_array(np.array(0.5, np.float32), "s"),
                    numpy_helper.from_array(np.array(1, np.uint8), "z"),
                ],
            ),
            "DequantizeLinear",
        ),
        (  # QDQFinalCleanupTransformer removes a Q -> DQ pair only with the key set
            "ort:extended",
            "ort:extended+session.enable_quant_qdq_cleanup=1",
            _model(
                [
                    helper.make_node("QuantizeLinear", ["x", "s", "z"], ["q"]),
                    helper.make_node("DequantizeLinear", ["q", "s", "z"], ["d"]),
                    helper.make_node("Relu", ["d"], ["y"]),
                ],
                [
                    numpy_helper.from_array(np.array(0.5, np.float32), "s"),
                    numpy_helper.from_array(np.array(1, np.uint8), "z"),
                ],
            ),
            "QuantizeLinear",
        ),
    ],
)
def test_a_key_changes_the_graph_its_transformer_writes(plain, keyed, model, gone, tmp_path):
    assert gone in _applied(plain, model, tmp_path / "plain")
    assert gone not in _applied(keyed, model, tmp_path / "keyed")


def test_removing_the_keyed_rule_by_name_gives_the_plain_level_back(tmp_path):
    """``-without-`` reaches a config-gated rule too: the cast-chain key with CastChainElimination disabled."""
    model = _model(
        [
            helper.make_node("Cast", ["x"], ["h"], to=TensorProto.FLOAT16),
            helper.make_node("Cast", ["h"], ["b"], to=TensorProto.FLOAT),
            helper.make_node("Relu", ["b"], ["y"]),
        ]
    )
    both = C.OrtConfigAdapter(
        "basic", (("optimization.enable_cast_chain_elimination", "1"),), disabled=("CastChainElimination",)
    )
    assert both.id == "ort:basic+optimization.enable_cast_chain_elimination=1-without-CastChainElimination"
    assert _ops(both.run(model, tmp_path).model) == ["Cast", "Cast", "Relu"]


def test_without_a_fusion_the_level_keeps_what_it_fused(tmp_path):
    fused = _applied("ort:extended", _gelu(), tmp_path / "b")
    kept = _applied("ort:extended-without-GeluFusionL2", _gelu(), tmp_path / "c")
    assert "Erf" not in fused and "Erf" in kept, (fused, kept)


@pytest.mark.parametrize("pid", ["ort:all-without-Nope", "ort:fast-without-GeluFusion", "ort:all-without-"])
def test_a_name_onnxruntime_would_ignore_is_refused(pid):
    with pytest.raises(PasscheckError):
        get_pass(pid)


def test_the_gelu_approximation_key_writes_fastgelu_within_its_declared_bound(tmp_path):
    pid = "ort:extended+optimization.enable_gelu_approximation=1"
    assert "FastGelu" in _applied(pid, _gelu(), tmp_path)
    assert "FastGelu" not in _applied("ort:extended", _gelu(), tmp_path)
    report = passcheck.check_model(_gelu(), [pid], name="ortcfg/gelu")
    (cell,) = [c for c in report.cells if c.pass_id == pid]
    assert cell.status == "changed" and cell.findings == [], (cell.error, cell.findings)


def test_a_config_declared_exact_that_approximates_is_a_wrong_result():
    """The planted wrong config: GeluApproximation switched on under an adapter that declares no precision."""
    planted = C.OrtConfigAdapter("extended", (("optimization.enable_gelu_approximation", "1"),))
    planted.id = "ort:extended+gelu-approximation-declared-exact"
    model = _gelu()
    cell = cell_of(planted, model, "ortcfg/planted")
    kinds = {(f.oracle, f.kind) for f in cell.findings}
    assert ("numeric", "wrong-result") in kinds, (cell.status, cell.error, kinds)


@pytest.mark.parametrize(
    ("pid", "family"),
    [
        ("ort:all+session.disable_quant_qdq=1", "ort:level"),
        ("ort:extended-without-AttentionFusion", "ort:level"),
        ("ort:all", "ort:level"),
        ("ort:allx+k=1", "ort:allx+k=1"),
        ("ort:symbolic-shape-infer", "ort:symbolic-shape-infer"),
    ],
)
def test_a_configured_level_groups_with_the_levels(pid, family):
    """One defect shown under ``ort:all`` and ``ort:all+<key>`` is one root cause (the same optimizer)."""
    from passcheck.report.rootcause import pass_family

    assert pass_family(pid) == family


def test_every_key_is_read_by_the_installed_onnxruntime():
    assert C.unread_keys(tuple(k for a in C.ADAPTERS for k, _ in a.config)) == ()
    assert [a.id for a in C.ADAPTERS if a.unavailable_reason()] == []


def test_a_key_the_installed_onnxruntime_does_not_read_is_unavailable_not_ok(tmp_path):
    # as session.enable_dq_matmulnbits_fusion on onnxruntime 1.18.1 - 1.23.2: the session takes any entry and runs
    # the plain level; under the key's name that cell would read ok for a fusion never run
    unread = "session.passcheck_planted_unread_key"
    planted = C.OrtConfigAdapter("all", (("session.disable_quant_qdq", "1"), (unread, "1")))
    out = planted.run(_gelu(), tmp_path)
    assert out.status == "unavailable" and unread in out.error and "ort:all" in out.error, out.error
    assert "session.disable_quant_qdq," not in out.error  # a key it reads is not named
    with pytest.raises(PassUnavailableError, match=unread):  # asked for by name, the check refuses to run it
        cell_of(planted, _gelu(), "ortcfg/unread")
    assert C.OrtConfigAdapter("all", (("session.disable_quant_qdq", "1"),)).run(_gelu(), tmp_path).ok


def test_a_known_name_the_installed_onnxruntime_does_not_register_is_unavailable(tmp_path, monkeypatch):
    # onnxruntime 1.32.0 registers GeluFusion as GeluFusionL1 / GeluFusionL2 only, GeluFusionL2 at Level2 only, and
    # DQMatMulNBitsFusion only with its key: disabled_optimizers would ignore each name and run the plain level
    for pid, name, plain in (
        ("ort:all-without-GeluFusion", "GeluFusion", "ort:all"),
        ("ort:basic-without-GeluFusionL2", "GeluFusionL2", "ort:basic"),
        ("ort:all-without-DQMatMulNBitsFusion", "DQMatMulNBitsFusion", "ort:all"),
    ):
        out = get_pass(pid).run(_gelu(), tmp_path / name)
        assert out.status == "unavailable" and f"no {name} at" in out.error and f"run {plain}" in out.error, out
        with pytest.raises(PassUnavailableError, match=name):
            cell_of(get_pass(pid), _gelu(), "ortcfg/unregistered")
    keyed = C.OrtConfigAdapter("all", C.KEYS[-1].config, disabled=("DQMatMulNBitsFusion",))
    assert keyed.unavailable_reason() is None  # registered with its key set
    assert C.unregistered("basic", (), ("EliminateIdentity", "ConstantFolding", "GeluFusionL1")) == ()
    # planted: an adapter that asks nothing runs the plain level and reads ok
    monkeypatch.setattr(C, "unregistered", lambda *a: ())
    assert get_pass("ort:all-without-GeluFusion").run(_gelu(), tmp_path).ok
