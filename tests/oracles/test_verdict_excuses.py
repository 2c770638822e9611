"""Two verdict rules once caught only by accident (issue 29), tested directly with the real tools.

- validity: an output the onnx checker rejects for the very reason it rejects the pass's input is
  not the pass's doing (no ``invalid-model``); rejected for another reason, it is.
- acceptance: a pass that ``declined`` a form (a command exiting non-zero) rejected it, as a crash does.

``bench/plant_verdicts.py validity declined`` re-plants both bugs and shows these tests fail.
"""

from __future__ import annotations

import shlex
import sys

import onnx
from onnx import helper, parser

from passcheck.oracles import acceptance, validity
from passcheck.oracles._context import FormRun
from passcheck.passes import PassOutcome
from passcheck.passes.command import CommandAdapter
from passcheck.passes.isolation import IsolatedExecutor

_RELU = """<ir_version: 8, opset_import: ["" : 18]>
g (float[2] x) => (float[2] y) { y = Relu (x) }"""


def _with_unknown_attribute(model: onnx.ModelProto, name: str) -> onnx.ModelProto:
    """``model`` with attribute ``name`` on its first node: the checker rejects it, naming ``name``."""
    bad = onnx.ModelProto()
    bad.CopyFrom(model)
    bad.graph.node[0].attribute.append(helper.make_attribute(name, 1))
    return bad


def _run(model: onnx.ModelProto, output: onnx.ModelProto) -> FormRun:
    return FormRun("c", "u", "p", model, PassOutcome("p", "changed", output), [], [], [])


def test_an_output_invalid_for_the_reason_its_input_is_is_not_the_pass_s_doing():
    given = _with_unknown_attribute(parser.parse_model(_RELU), "spare")
    assert validity.checker_error(given) is not None  # the real checker rejects the input
    assert validity.check(_run(given, given)) == []


def test_an_output_invalid_for_another_reason_than_its_input_is_a_finding():
    given = _with_unknown_attribute(parser.parse_model(_RELU), "spare")
    worse = _with_unknown_attribute(parser.parse_model(_RELU), "extra")  # the pass traded one defect for another
    (f,) = validity.check(_run(given, worse))
    assert (f.kind, f.oracle) == ("invalid-model", "validity") and "extra" in f.details["error"]
    (g,) = validity.check(_run(parser.parse_model(_RELU), given))  # a valid input: the pass broke it
    assert g.kind == "invalid-model" and "spare" in g.details["error"]


def test_a_pass_that_declines_one_form_rejected_it(tmp_path):
    # A real command pass: copies the model, but exits 3 (declines) on a model holding a Neg node.
    script = (
        "import sys, onnx, shutil; m = onnx.load(sys.argv[1]); "
        "sys.exit(3) if any(n.op_type == 'Neg' for n in m.graph.node) else shutil.copy(sys.argv[1], sys.argv[2])"
    )
    adapter = CommandAdapter(f"{shlex.quote(sys.executable)} -c {shlex.quote(script)} {{in}} {{out}}", timeout=120)
    common = parser.parse_model(_RELU)
    negated = parser.parse_model("""<ir_version: 8, opset_import: ["" : 18]>
g (float[2] x) => (float[2] y) { n = Neg (x)  m = Neg (n)  y = Relu (m) }""")
    runs = []
    with IsolatedExecutor() as executor:  # as the engine runs it: in the pass worker
        for form, model in (("common", common), ("double-negation", negated)):
            work = tmp_path / form
            work.mkdir()
            runs.append(FormRun("c", form, adapter.id, model, executor(adapter, model, work), [], [], []))
    assert [r.outcome.status for r in runs] == ["unchanged", "declined"]
    assert runs[0].outcome.error is None and "allocation failed" not in runs[1].outcome.error  # no out-of-memory words
    (f,) = acceptance.check(runs)
    assert (f.kind, f.oracle, f.form, f.details["status"]) == ("rejected", "acceptance", "double-negation", "declined")
    assert f.details["accepted_forms"] == ["common"] and "on this form only" in f.message
