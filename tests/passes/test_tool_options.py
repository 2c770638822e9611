"""onnxsim's / onnxslim's documented options as passes (passcheck/passes/tool_options.py), with the real tools."""

from __future__ import annotations

import dataclasses

import pytest
from onnx import parser

from passcheck.passes import get_pass, known_pass_ids
from passcheck.passes import tool_options as T
from tests.passes._helpers import cell_of

pytest.importorskip("onnxsim")
pytest.importorskip("onnxslim")


def _model(text: str):
    return parser.parse_model('<ir_version: 8, opset_import: ["" : 17]>\n' + text)


NEG = "g (float[2,3] x) => (float[2,3] y) { y = Neg(x) }"
CONSTS = """g (float[2,3] x) => (float[2,3] y) <float[3] a = {1.0, 2.0, 3.0}, float[3] b = {1.0, 2.0, 3.0}> {
  c = Add(a, b)
  y = Add(x, c)
}"""


def _ops(pass_id: str, model, tmp_path) -> list[str]:
    record = get_pass(pass_id).run(model, tmp_path)
    assert record.model is not None, (pass_id, record.status, record.error)
    return [n.op_type for n in record.model.graph.node]


def test_every_option_pass_is_listed_and_steps_from_its_plain_pass():
    ids = set(known_pass_ids())
    for option in T.OPTIONS:
        adapter = get_pass(option.pass_id)
        assert option.pass_id in ids
        assert adapter.steps == (option.base,)
        plain = get_pass(option.base).capabilities
        assert adapter.capabilities == dataclasses.replace(plain, folds_constants=option.folds)
        assert T.option_of(option.pass_id) is option
    assert len({o.pass_id for o in T.OPTIONS}) == len(T.OPTIONS)
    assert T.option_of("onnxsim:simplify") is None


def test_the_options_are_the_tools_own_keywords():
    """Each keyword is one the installed tool reads (a typo would run the default under another name)."""
    import inspect

    import onnxsim
    import onnxslim
    from onnxslim.argparser import OnnxSlimKwargs
    from onnxslim.core import OptimizationSettings

    sim = inspect.signature(onnxsim.simplify).parameters
    for option in T.OPTIONS:
        known = sim if option.base == T.SIMPLIFY else OnnxSlimKwargs.__annotations__
        assert option.name in known, option
    assert set(T.SLIM_STAGES) == set(OptimizationSettings.keys())
    assert onnxslim  # imported for its version's keys


@pytest.mark.parametrize(
    ("plain", "option", "text", "op", "plain_count", "option_count"),
    [
        ("onnxsim:simplify", "onnxsim:simplify+extra_optimizers=neg_to_mul", NEG, "Neg", 1, 0),
        ("onnxsim:simplify", "onnxsim:simplify+skip_constant_folding", CONSTS, "Add", 1, 2),
        ("onnxsim:simplify", "onnxsim:simplify+initializers_as_constants=False", CONSTS, "Add", 1, 2),
        ("onnxslim:slim", "onnxslim:slim+skip_optimizations=constant_folding", CONSTS, "Add", 1, 2),
    ],
)
def test_an_option_runs_a_stage_the_default_does_not(plain, option, text, op, plain_count, option_count, tmp_path):
    model = _model(text)
    assert _ops(plain, model, tmp_path / "plain").count(op) == plain_count
    assert _ops(option, model, tmp_path / "option").count(op) == option_count


def test_an_option_that_changes_the_computation_declared_exact_is_a_wrong_result():
    """The planted option: onnxslim's ``dtype='fp16'`` (a float16 conversion, left out of OPTIONS for that reason)
    run as if it kept the computation must be caught by the oracles."""
    planted = T.ToolOptionAdapter(T.Option(T.SLIM, "dtype", "fp16", "planted: a float16 conversion declared exact"))
    model = _model("""g (float[2,3] x) => (float[2,3] y) <float[3] a = {1.0001, 2.0001, 3.0001}> { y = Mul(x, a) }""")
    cell = cell_of(planted, model, "tool-options/planted")
    kinds = {(f.oracle, f.kind) for f in cell.findings}
    assert ("numeric", "wrong-result") in kinds, (cell.status, cell.error, kinds)


@pytest.mark.parametrize(
    ("pid", "family"),
    [
        ("onnxsim:simplify+include_subgraph", "onnxsim:simplify"),
        ("onnxsim:simplify+extra_optimizers=neg_to_mul", "onnxsim:simplify"),
        ("onnxslim:slim+no_shape_infer", "onnxslim:slim"),
        ("onnxslim:slim", "onnxslim:slim"),
        ("onnxsimx:simplify+a", "onnxsimx:simplify+a"),
    ],
)
def test_an_option_groups_with_its_plain_pass(pid, family):
    from passcheck.report.rootcause import pass_family

    assert pass_family(pid) == family


def test_the_plain_pass_represents_a_defect_an_option_shows_the_same_way():
    from passcheck.records import Finding
    from passcheck.report.rootcause import _rank

    plain = Finding("crashed", "validity", "c", "common", "onnxslim:slim", "m")
    keyed = Finding("crashed", "validity", "c", "common", "onnxslim:slim+no_shape_infer", "m")
    order = {id(keyed): 0, id(plain): 1}
    assert _rank(plain, order) < _rank(keyed, order)


def test_an_option_that_switches_folding_off_is_not_judged_a_missed_fold():
    """A constant-only Add kept by ``skip_constant_folding`` is what the option asks for: no folding finding; the
    plain pass folding nothing would be one (the planted adapter declares it folds)."""
    model = _model(CONSTS)
    kept = get_pass("onnxsim:simplify+skip_constant_folding")
    assert not kept.capabilities.folds_constants
    same = T.ToolOptionAdapter(T.option_of(kept.id))
    same.id = "onnxsim:simplify+skip_constant_folding-again"
    cell = cell_of(same, model, "tool-options/no-fold")
    assert not [f for f in cell.findings if f.oracle == "folding"], cell.findings
    planted = T.ToolOptionAdapter(T.option_of(kept.id))
    planted.folds_constants = True
    planted.id = "onnxsim:simplify+skip_constant_folding-declared-folding"
    cell = cell_of(planted, model, "tool-options/no-fold-planted")
    assert [f for f in cell.findings if (f.oracle, f.kind) == ("folding", "missed-optimization")], cell.findings
