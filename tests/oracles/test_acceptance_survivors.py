"""Acceptance-oracle behaviours survivors of ``bench/mutation_score.py`` showed unguarded, with the real
onnx version converter (its documented "No Adapter From Version" limit) and onnxruntime."""

from __future__ import annotations

from onnx import parser

from passcheck.api import check_model
from passcheck.oracles._context import FormRun
from passcheck.oracles.acceptance import check
from passcheck.passes import get_pass

#: IsInf converts to opset 10; an Identity (since opset 16) in front or behind has no adapter down.
ISINF = """<ir_version: 8, opset_import: ["" : 18]>
g (float[2] x) => (bool[2] y) {{ {body} }}"""


def test_a_limit_stated_on_several_forms_while_another_converts_counts_them():
    """Mutants killed: ``len(limited) == 1`` → ``>= 1`` / ``<= 1`` (and ``== 2``, ``!= 1``) in ``check``: two
    forms citing the converter's documented limit while the common form converts were each said to be
    "this form only"."""
    forms = {
        "before": parser.parse_model(ISINF.format(body="i = Identity (x)  y = IsInf (i)")),
        "after": parser.parse_model(ISINF.format(body="b = IsInf (x)  y = Identity (b)")),
    }
    report = check_model(
        parser.parse_model(ISINF.format(body="y = IsInf (x)")),
        ["onnx:convert-opset-10"],
        forms=forms,
        name="limits/two",
        allow_unavailable=True,
    )
    cells = {c.form: c for c in report.cells if c.pass_id == "onnx:convert-opset-10"}
    assert cells["common"].status in ("changed", "unchanged") and not cells["common"].findings
    for form in forms:
        (f,) = cells[form].findings
        assert (f.oracle, f.kind) == ("acceptance", "rejected"), f
        assert "cites a limit it documents on 2 of 3 forms while it accepts common: " in f.message, f.message


def test_a_rejection_quotes_the_tools_own_words(tmp_path):
    """Mutant killed: ``brief(r.outcome.error) or "no error text"`` → ``and`` in ``check``: every rejection
    said "no error text" in place of what the tool said (onnxruntime: an op it has no kernel for)."""
    model = parser.parse_model("""<ir_version: 8, opset_import: ["" : 18, "com.example" : 1]>
g (float[2] x) => (float[2] y) { y = com.example.Nope (x) }""")
    out = get_pass("ort:basic").run(model, tmp_path)
    assert out.status == "declined" and "is not a registered function/op" in out.error
    (f,) = check([FormRun("c", "common", "ort:basic", model, out, [], [], [])])
    assert f.message.startswith("ort:basic declined: ") and "com.example:Nope(-1) is not a registered" in f.message
