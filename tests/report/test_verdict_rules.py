"""The verdict rules a planted bug once survived (issue 29): each test names the bug it kills.

Root-cause grouping (passcheck/report/rootcause.py), baseline status (passcheck/report/baseline.py),
the hunt's signature and the observation path's profile cross-check each decide what a user is
told; a rule that no test can fail is a rule nobody checks.
"""

from __future__ import annotations

import json

import numpy as np
import onnx
import pytest
from onnx import parser

from passcheck.errors import PasscheckError
from passcheck.records import CellResult, Finding
from passcheck.report import baseline
from passcheck.report.rootcause import root_causes


def _cell(form: str, pass_id: str, *findings: Finding, status: str = "changed", case: str = "c") -> CellResult:
    cell = CellResult(case, form, pass_id, status)
    cell.findings.extend(findings)
    return cell


def _finding(kind: str, oracle: str, form: str, pass_id: str, message: str, case: str = "c") -> Finding:
    return Finding(kind, oracle, case, form, pass_id, message)


def test_an_input_finding_explains_only_pass_findings_of_its_own_kind_and_text():
    """Planted bug killed: rule 1 lets an ``input`` finding explain every finding of the same oracle,
    whatever its kind or text."""
    on_input = _finding("annotation-violated", "annotations", "u", "input", "value 'h': dim 0 is 3, annotated 2")
    same = _finding("annotation-violated", "annotations", "u", "ort:basic", "value 'h': dim 0 is 3, annotated 2")
    other_text = _finding(
        "annotation-violated",
        "annotations",
        "u",
        "onnx:infer-shapes",
        "value 'y': elem_type INT32 annotated, INT64 produced",
    )
    other_kind = _finding("less-precise", "annotations", "u", "ort:extended", "value 'h': dim 0 is 3, annotated 2")
    cells = [
        _cell("u", "input", on_input),
        _cell("u", "ort:basic", same),
        _cell("u", "onnx:infer-shapes", other_text),
        _cell("u", "ort:extended", other_kind),
    ]
    causes = root_causes(cells)
    by_rep = {c.finding.pass_id: [f.pass_id for f in c.explains] for c in causes}
    assert by_rep["input"] == ["input", "ort:basic"]
    assert "onnx:infer-shapes" in by_rep and "ort:extended" in by_rep, by_rep
    assert len(causes) == 3


def test_an_input_finding_explains_findings_of_its_own_case_only():
    """Rule 1 works within one case: the same text on the same form name of a case sorting before or
    after stays a cause of its own (``other[0] != case`` as ``<`` or ``>`` merged one side)."""
    text = "value 'h': dim 0 is 3, annotated 2"
    on_input = _finding("annotation-violated", "annotations", "u", "input", text, case="b")
    cells = [_cell("u", "input", on_input, case="b")]
    for case in ("a", "b", "c"):
        found = _finding("annotation-violated", "annotations", "u", "ort:basic", text, case=case)
        cells.append(_cell("u", "ort:basic", found, case=case))
    causes = root_causes(cells)
    by_rep = {(c.finding.case, c.finding.pass_id): [(f.case, f.pass_id) for f in c.explains] for c in causes}
    assert by_rep == {
        ("b", "input"): [("b", "input"), ("b", "ort:basic")],
        ("a", "ort:basic"): [("a", "ort:basic")],
        ("c", "ort:basic"): [("c", "ort:basic")],
    }


def test_a_model_onnxruntime_rejects_explains_findings_of_its_exact_text_only():
    """Rule 1's ``rejected`` branch: the input model's load error explains every finding of that same
    text on its forms, whatever its kind or pass; a text sorting before or after is a cause of its own
    (``other[2] == text`` as ``>=`` or ``<=`` merged one side)."""
    text = "[ONNXRuntimeError] : 10 : INVALID_GRAPH : m"
    rejected = _finding("rejected", "validity", "u", "input", text)
    cells = [_cell("u", "input", rejected)]
    for pass_id, message in [("ort:basic", text), ("ort:extended", text[:-1] + "a"), ("ort:all", text + "z")]:
        cells.append(_cell("u", pass_id, _finding("run-failed", "parity", "u", pass_id, message)))
    by_rep = {c.finding.pass_id: [f.pass_id for f in c.explains] for c in root_causes(cells)}
    assert by_rep == {"input": ["input", "ort:basic"], "ort:extended": ["ort:extended"], "ort:all": ["ort:all"]}


def test_the_lowest_onnxruntime_level_represents_a_defect_seen_on_several_levels():
    """Planted bug killed: ``_rank`` ignores the onnxruntime level when choosing a group's representative
    (the higher level comes first in report order here, so report order alone picks the wrong one)."""
    msg = "after <pass> the forms differ: kept ['BatchNormalization']"
    cells = [
        _cell(
            "u", "ort:all", _finding("missed-optimization", "parity", "u", "ort:all", msg.replace("<pass>", "ort:all"))
        ),
        _cell(
            "u",
            "ort:extended",
            _finding("missed-optimization", "parity", "u", "ort:extended", msg.replace("<pass>", "ort:extended")),
        ),
        _cell(
            "u",
            "ort:basic",
            _finding("missed-optimization", "parity", "u", "ort:basic", msg.replace("<pass>", "ort:basic")),
        ),
    ]
    (cause,) = root_causes(cells)
    assert cause.finding.pass_id == "ort:basic"
    assert [f.pass_id for f in cause.explains] == ["ort:basic", "ort:all", "ort:extended"]


def test_an_unavailable_or_skipped_cell_does_not_make_a_baseline_entry_fixed():
    """Planted bug killed: ``baseline.status`` counts an ``unavailable`` cell as run, so its entry reads
    "fixed" in an environment where the pass could not run at all."""
    entry = baseline.Known("c:u|ort:basic|parity|missed-optimization", "known")
    ran_clean = _cell("u", "ort:basic")
    ran_clean.env = "e1"
    unavailable = _cell("u", "ort:basic", status="unavailable")
    unavailable.env = "e2"
    skipped = _cell("u", "ort:basic", status="skipped")
    skipped.env = "e3"
    (st,) = baseline.status([ran_clean, unavailable, skipped], [entry], ["e1", "e2", "e3"])
    assert st.fixed == ("e1",) and st.not_run == ("e2", "e3") and st.occurs == ()


def _pair() -> tuple[onnx.ModelProto, onnx.ModelProto]:
    common = parser.parse_model("""<ir_version: 8, opset_import: ["" : 18]>
g (float[2] x) => (float[2] y) { a = Relu (x)  y = Neg (a) }""")
    uncommon = parser.parse_model("""<ir_version: 8, opset_import: ["" : 18]>
g (float[2] x) => (float[2] y) { a = Relu (x)  b = Identity (a)  y = Neg (b) }""")
    return common, uncommon


def test_hunt_signatures_differ_by_the_op_types_a_finding_names():
    """Planted bug killed: the op types dropped from the hunt's signature, so distinct bugs merge."""
    from passcheck.hunt.signature import signature

    models = _pair()
    fused = Finding("missed-optimization", "parity", "c", "u", "ort:basic", "m", details={"kept_op_types": ["Relu"]})
    other = Finding("missed-optimization", "parity", "c", "u", "ort:basic", "m", details={"kept_op_types": ["Neg"]})
    a = signature(fused, "insert-identity", models, ["b"])
    b = signature(other, "insert-identity", models, ["b"])
    assert a != b and a.key != b.key
    assert "Relu" in a.ops and "Neg" in b.ops and "Identity" in a.ops
    assert signature(fused, "insert-identity", models, ["b"]) == a  # the same bug is one signature


def test_run_observing_does_not_believe_a_profile_that_disagrees_with_the_fetched_outputs(monkeypatch):
    """Planted bug killed: ``run_observing`` drops the cross-check of the profile against the fetched
    graph outputs, and reports shapes from a profile that does not describe this run."""
    import passcheck.runtime.observe as obs

    m = onnx.shape_inference.infer_shapes(
        parser.parse_model("""<ir_version: 8, opset_import: ["" : 18]>
g (float[N, 4] x) => (float[N, 4] y) { h = Relu (x)  k = Neg (h)  y = Abs (k) }""")
    )
    real = obs._profiled

    def skewed(outputs, trace):
        # Every profiled shape one row too many: what a profile of another run would say.
        return {k: obs.TensorMeta((v.shape[0] + 1, *v.shape[1:]), v.dtype) for k, v in real(outputs, trace).items()}

    monkeypatch.setattr(obs, "_profiled", skewed)
    r = obs.run_observing(m, {"x": np.ones((3, 4), np.float32)}, shapes=["h", "k"])
    assert r.error is None
    assert tuple(r.observed["h"].shape) == (3, 4) and tuple(r.observed["k"].shape) == (3, 4)
    assert r.outputs["y"].shape == (3, 4)


def test_a_baseline_entry_without_an_id_or_a_reason_is_refused_by_name(tmp_path):
    """Mutant killed (bench/mutation_score.py): ``or`` → ``and`` in ``baseline.load``'s entry check let an
    entry with a reason but no id through, to a KeyError instead of the one-line error."""
    for entry in ({"reason": "known"}, {"id": "c:u|p|o|k"}, "c:u|p|o|k"):
        path = tmp_path / "b.json"
        path.write_text(json.dumps({"known": [{"id": "c:*", "reason": "fine"}, entry]}))
        with pytest.raises(PasscheckError, match=r"entry 1 needs an 'id' and a 'reason'"):
            baseline.load(path)


def test_only_a_form_onnxruntime_cannot_run_explains_findings_of_other_oracles_with_its_error():
    """Mutant killed (bench/mutation_score.py): ``sig.kind == "rejected"`` → ``>=`` in rule 1 let an input
    finding of a later-sorting kind (``validity-disagreement``, ``wrong-result``) explain another
    oracle's findings because their error text reads the same."""
    error = "ValidationError: Unrecognized attribute: spare for operator Relu"

    def causes(input_kind: str, input_oracle: str) -> dict[str, list[str]]:
        on_input = Finding(input_kind, input_oracle, "c", "u", "input", "the form", details={"error": error})
        declined = Finding("rejected", "acceptance", "c", "u", "onnxsim", "onnxsim declined", details={"error": error})
        found = root_causes([_cell("u", "input", on_input), _cell("u", "onnxsim", declined)])
        return {c.finding.pass_id: [f.pass_id for f in c.explains] for c in found}

    assert causes("rejected", "runtime") == {"input": ["input", "onnxsim"]}
    assert causes("validity-disagreement", "validity") == {"input": ["input"], "onnxsim": ["onnxsim"]}
    assert causes("wrong-result", "numeric") == {"input": ["input"], "onnxsim": ["onnxsim"]}


def test_a_baseline_that_is_not_text_is_refused_in_one_line(tmp_path):
    """Mutant killed: ``except UnicodeDecodeError`` → ``except CosmicRayTestingException`` in ``baseline.load``
    (no covering test): a baseline file of non-UTF-8 bytes gets the one-line error, not a traceback."""
    path = tmp_path / "b.json"
    path.write_bytes(b'{"known": [\xff\xfe]}')
    with pytest.raises(PasscheckError, match=r"baseline is not a text \(JSON\) file"):
        baseline.load(path)


def test_an_entry_whose_cells_could_not_run_is_in_the_selection_and_reads_not_run():
    """``baseline.status``: an entry a cell of the run names is in its selection even when that cell was
    ``unavailable`` (the run tried it), so the matrix notes list it as not run; an entry no cell names is
    outside the selection, only counted. Kills ``selected = True`` → ``False``, which moved every entry
    out of the selection and hid "not run in any of its environments"."""
    from passcheck.matrix.verdict import notes

    tried = baseline.Known("c:u|ort:basic|parity|missed-optimization", "known")
    elsewhere = baseline.Known("c:u|ort:all|parity|missed-optimization", "known")
    unavailable = _cell("u", "ort:basic", status="unavailable")
    unavailable.env = "e1"
    st_tried, st_elsewhere = baseline.status([unavailable], [tried, elsewhere], ["e1"])
    assert (st_tried.in_selection, st_tried.not_run, st_tried.fixed) == (True, ("e1",), ())
    assert (st_elsewhere.in_selection, st_elsewhere.not_run) == (False, ("e1",))
    meta = {"baseline": {"file": "b.json", "entries": [st_tried.to_json(), st_elsewhere.to_json()]}}
    assert notes(meta)[:2] == [
        f"baseline entry not run in any of its environments (e1): {tried.id}",
        "1 baseline entries outside this run's selection (cases, forms, passes or environments it did not run)",
    ]


def test_parity_findings_about_other_kept_op_types_are_other_root_causes():
    """Mutant killed: ``d.get('kept_op_types') or []`` → ``and []`` in ``rootcause._parity_text``: the op types
    a form kept dropped from a parity finding's signature text (``kept []``), so findings about other kept op
    types whose nodes were not located merged into one root cause."""
    from passcheck.report.rootcause import signature

    def kept(op: str, nodes: list) -> Finding:
        details = {"kept_op_types": [op], "kept_nodes": nodes, "other_form": "u"}
        return Finding("missed-optimization", "parity", "c", "common", "ort:basic", f"{op} kept", details=details)

    relu = signature(kept("Relu", [{"op": "Relu", "after": "Conv conv0"}]))
    assert relu[3].startswith("kept ['Relu'] (Relu after Conv)")
    assert signature(kept("Relu", [])) != signature(kept("Neg", []))
