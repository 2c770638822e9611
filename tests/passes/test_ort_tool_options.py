"""onnxruntime's transformers optimizer options and quantizer ``extra_options`` as passes
(passcheck/passes/ort_transformers_options.py, ort_quant_options.py), with the real onnxruntime."""

from __future__ import annotations

import dataclasses
import inspect

import pytest
from onnx import parser

from passcheck.passes import get_pass, known_pass_ids
from passcheck.passes import ort_quant_options as Q
from passcheck.passes import ort_transformers_options as T
from tests.passes._helpers import cell_of

pytest.importorskip("onnxruntime.transformers.optimizer")

GELU = """<ir_version: 8, opset_import: ["" : 17]>
g (float[2,8] x) => (float[2,8] y) <float sqrt2 = {1.4142135}, float one = {1.0}, float half = {0.5}> {
  d = Div(x, sqrt2)
  e = Erf(d)
  a = Add(e, one)
  m = Mul(x, a)
  y = Mul(m, half)
}"""
TWO_MATMULS = """<ir_version: 8, opset_import: ["" : 17]>
g (float[2,4] x) => (float[2,3] y, float[2,3] z) <float[4,3] w = {1.,2.,3.,4.,5.,6.,7.,8.,9.,10.,11.,12.}> {
  y = MatMul(x, w)
  z = MatMul(x, w)
}"""


def _nodes(pass_id: str, text: str, tmp_path) -> list[tuple[str, str]]:
    tmp_path.mkdir()
    record = get_pass(pass_id).run(parser.parse_model(text), tmp_path)
    assert record.model is not None, (pass_id, record.status, record.error)
    return [(n.domain, n.op_type) for n in record.model.graph.node]


def test_every_transformers_option_is_listed_departs_from_its_default_and_steps_from_its_plain_pass():
    from onnxruntime.transformers.fusion_options import FusionOptions
    from onnxruntime.transformers.optimizer import optimize_model

    ids = set(known_pass_ids())
    keywords = inspect.signature(optimize_model).parameters
    for flag in T.FLAGS:
        adapter = get_pass(flag.pass_id)
        assert flag.pass_id in ids and T.flag_of(flag.pass_id) is flag
        plain = f"ort-transformers:{flag.model_type}"
        if flag.keyword:
            assert flag.name in keywords, flag
            assert "torch" in adapter.tools  # optimize_by_onnxruntime imports it first (row 1453)
            assert adapter.steps[0] == T.ORT_LEVEL[flag.level]
        else:
            defaults = vars(FusionOptions(flag.model_type))
            assert flag.name in defaults and defaults[flag.name] != flag.value, flag
            assert adapter.steps == (plain,)
            caps = get_pass("ort-transformers:bert").capabilities
            assert adapter.capabilities == dataclasses.replace(caps, precision=flag.precision)
    assert len({f.pass_id for f in T.FLAGS}) == len(T.FLAGS)
    assert T.flag_of("ort-transformers:bert") is None


def test_every_quantizer_option_is_a_documented_key_of_its_variant():
    import importlib

    quantize = importlib.import_module("onnxruntime.quantization.quantize")
    static = inspect.getsource(quantize)  # StaticQuantConfig's and quantize_static's docstrings
    dynamic = inspect.getdoc(quantize.DynamicQuantConfig.__init__)
    ids = set(known_pass_ids())
    for extra in Q.EXTRAS:
        adapter = get_pass(extra.pass_id)
        assert extra.pass_id in ids and Q.extra_of(extra.pass_id) is extra
        doc = dynamic if extra.variant == "quantize-dynamic" else static
        assert f"{extra.key} = " in doc, extra
        assert adapter.steps == (f"ort-quant:{extra.variant}", "onnx:infer-shapes")  # the plain pass, then its own
        assert adapter.options["extra_options"] == {extra.key: extra.value}
        assert adapter.capabilities == get_pass(f"ort-quant:{extra.variant}").capabilities
        assert adapter.by_type == get_pass(f"ort-quant:{extra.variant}").by_type
    assert len({e.pass_id for e in Q.EXTRAS}) == len(Q.EXTRAS)


@pytest.mark.parametrize(
    ("plain", "option", "text", "node", "plain_count", "option_count"),
    [
        ("ort-transformers:bert", "ort-transformers:bert+enable_gelu=False", GELU, ("", "Erf"), 0, 1),
        (
            "ort-transformers:bert",
            "ort-transformers:bert+enable_gelu_approximation",
            GELU,
            ("com.microsoft", "FastGelu"),
            0,
            1,
        ),
        (
            "ort-quant:quantize-static",
            "ort-quant:quantize-static+UseQDQContribOps",
            TWO_MATMULS,
            ("com.microsoft", "QuantizeLinear"),
            0,
            3,
        ),
        (
            "ort-quant:quantize-static",
            "ort-quant:quantize-static+DedicatedQDQPair",
            TWO_MATMULS,
            ("", "QuantizeLinear"),
            3,
            4,
        ),
    ],
)
def test_an_option_runs_a_stage_the_default_does_not(plain, option, text, node, plain_count, option_count, tmp_path):
    assert _nodes(plain, text, tmp_path / "plain").count(node) == plain_count
    assert _nodes(option, text, tmp_path / "option").count(node) == option_count


def test_the_gelu_approximation_is_judged_at_its_stated_precision_and_caught_when_declared_exact():
    """FastGelu's tanh form is the option's purpose (``float16``, as onnxruntime's own GeluApproximation): no numeric
    finding; the same adapter declared exact (planted) is a ``numeric wrong-result``."""
    model = parser.parse_model(GELU)
    flag = T.flag_of("ort-transformers:bert+enable_gelu_approximation")
    stated = T.OrtTransformersOptionAdapter(flag)
    stated.id = flag.pass_id + "-again"
    cell = cell_of(stated, model, "ort-tool-options/stated")
    assert not [f for f in cell.findings if f.oracle == "numeric"], cell.findings
    planted = T.OrtTransformersOptionAdapter(dataclasses.replace(flag, precision=None))
    planted.id = flag.pass_id + "-declared-exact"
    cell = cell_of(planted, model, "ort-tool-options/planted")
    kinds = {(f.oracle, f.kind) for f in cell.findings}
    assert ("numeric", "wrong-result") in kinds, (cell.status, cell.error, kinds)


@pytest.mark.parametrize(
    ("pid", "family"),
    [
        ("ort-transformers:bert+enable_gelu=False", "ort-transformers:*"),
        ("ort-quant:quantize-static+DedicatedQDQPair", "ort-quant:quantize-static"),
        ("ort-quant:quantize-dynamic+MatMulConstBOnly=False", "ort-quant:quantize-dynamic"),
        ("ort-quant:quantize-dynamic", "ort-quant:quantize-dynamic"),
    ],
)
def test_an_option_groups_with_its_plain_pass(pid, family):
    from passcheck.report.rootcause import pass_family

    assert pass_family(pid) == family


@pytest.mark.parametrize(
    ("plain", "keyed"),
    [
        ("ort-transformers:bert", "ort-transformers:bert+enable_gelu=False"),
        ("ort-quant:quantize-static", "ort-quant:quantize-static+DedicatedQDQPair"),
    ],
)
def test_the_plain_pass_represents_a_defect_an_option_shows_the_same_way(plain, keyed):
    from passcheck.records import Finding
    from passcheck.report.rootcause import _rank

    a = Finding("crashed", "validity", "c", "common", plain, "m")
    b = Finding("crashed", "validity", "c", "common", keyed, "m")
    order = {id(b): 0, id(a): 1}
    assert _rank(a, order) < _rank(b, order)
