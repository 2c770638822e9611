"""Root-cause grouping where mutation showed the suite blind (bench/results/mutation.jsonl): a pass's own
rejection explains no other pass's finding, and a finding about another output joins its signature's
group in a cell where the representative's defect does not show."""

from __future__ import annotations

from passcheck.records import CellResult, Finding
from passcheck.report.rootcause import root_causes

from .test_root_cause_visibility import _wrong


def test_only_an_input_rejection_explains_other_findings_whatever_the_pass_id_sorts_like():
    error = "[ONNXRuntimeError] : 10 : INVALID_GRAPH : Load model failed"
    # "cmd:opt" sorts before "input": a pass's rejection, not the form's, so it explains nothing else
    refused = Finding(
        "rejected", "acceptance", "c", "u", "cmd:opt", "the output of cmd:opt is refused", {"error": error}
    )
    fails = Finding("wrong-result", "numeric", "c", "u", "ort:basic", "ort:basic fails to run: x", {"error": error})
    cells = [CellResult("c", "u", f.pass_id, "changed", findings=[f]) for f in (refused, fails)]
    assert [c.explains for c in root_causes(cells)] == [[refused], [fails]]


def test_a_finding_about_another_output_joins_the_group_where_the_representative_does_not_show():
    on_common, on_u = _wrong("common", "y", "3.0"), _wrong("u", "z", "3.0")  # one signature: names are dropped
    cells = [CellResult("c", f.form, "ort:basic", "changed", findings=[f]) for f in (on_common, on_u)]
    (cause,) = root_causes(cells)
    assert cause.finding is on_common and cause.explains == [on_common, on_u]


def test_a_signature_text_names_no_pass_whatever_its_id_sorts_like():
    """Mutant killed: ``f.pass_id == "input"`` → ``<=`` in the signature text, which kept a ``cmd:`` pass's
    id (it sorts before ``input``) in the text every report prints as the cause's signature."""
    from passcheck.report.rootcause import signature

    for pass_id in ("cmd:opt {in} {out}", "onnx:infer-shapes"):
        f = Finding(
            "less-precise", "parity", "c", "u", pass_id, f"graph output 'y' after {pass_id}: typed less precisely"
        )
        assert signature(f) == (
            pass_id,
            "parity",
            "less-precise",
            "graph output <name> after <pass>: typed less precisely",
        )
    f = Finding("less-precise", "parity", "c", "u", "input", "the input typed less precisely")
    assert signature(f)[3] == "the input typed less precisely"


def test_messages_alike_in_their_first_200_characters_are_one_cause():
    """Mutant killed: ``normalize``'s ``limit`` 200 → 201: the signature text is cut at the documented
    200 characters, so findings whose messages differ only past it (a long tool message ending in
    node names) are one defect."""
    a, b = (
        Finding("wrong-result", "numeric", "c", form, "ort:basic", "a" * 200 + end)
        for form, end in (("common", "b"), ("u", "c"))
    )
    cells = [CellResult("c", f.form, f.pass_id, "changed", findings=[f]) for f in (a, b)]
    (cause,) = root_causes(cells)
    assert cause.explains == [a, b]
