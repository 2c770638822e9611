"""Rewrites site by site: form names (ID, ID@SITE, A+B), the max_sites bound and its seeded
sampling, pairs at depth 2, and `check --mutations` naming the one site that shows a finding."""

from __future__ import annotations

import json

import onnx
import pytest
import site_planted as P  # beside this file, loaded by conftest.py

from passcheck.cli import main
from passcheck.engine import seed_for
from passcheck.errors import UnknownIdError
from passcheck.mutations import verify_equivalent
from passcheck.mutations.registry import (
    build_form,
    describe,
    iter_mutants,
    mutants,
    parse_form,
    site_signatures,
)
from passcheck.runtime import default_bindings, synthesize


def _feeds(model):
    return [synthesize(model, b, seed_for("t", i)) for i, b in enumerate(default_bindings(model))]


def test_form_names_parse_and_print_back():
    steps = parse_form("empty-optional-input@#3:Conv+identity-edges@a+b")
    assert [(r.id, label) for r, label in steps] == [("empty-optional-input", "#3:Conv"), ("identity-edges", "a+b")]
    assert [(r.id, label) for r, label in parse_form("commute-operands")] == [("commute-operands", None)]
    assert "only at n1" in describe("commute-operands@n1")
    with pytest.raises(UnknownIdError, match="commute-operands"):
        parse_form("commute-operand@n1")


def test_single_site_forms_change_one_site_and_pass_the_gate():
    m = P.convs()
    made = mutants(m, ["empty-optional-input"], max_sites=8, per_signature=False)
    assert list(made) == [
        "empty-optional-input",
        "empty-optional-input@n0",
        "empty-optional-input@n2",
        "empty-optional-input@n4",
    ]
    for form, (mutant, applied) in made.items():
        verify_equivalent(m, mutant, _feeds(m), form)
        assert applied.rewrite == form
    mutant, applied = made["empty-optional-input@n2"]
    assert [len(n.input) for n in mutant.graph.node if n.op_type == "Conv"] == [2, 3, 2] and list(applied.nodes) == [
        "n2"
    ]


def test_one_site_per_signature_then_the_bound():
    m = P.convs()
    # n0 and n4 are both Conv → BatchNormalization: one of them stands for both; n2 (Conv → Relu) is the other
    assert site_signatures(m)["n0"] == site_signatures(m)["n4"] != site_signatures(m)["n2"]
    forms = list(mutants(m, ["empty-optional-input"], max_sites=8))
    assert len(forms) == 3 and "empty-optional-input@n2" in forms
    assert list(mutants(m, ["empty-optional-input"], max_sites=1, per_signature=False))[1:] != []
    assert len(mutants(m, ["empty-optional-input"], max_sites=1, per_signature=False)) == 2
    assert list(mutants(m, ["empty-optional-input"])) == ["empty-optional-input"]  # max_sites=0: today's forms


def test_sampling_is_deterministic_by_seed():
    m = P.convs()
    pick = lambda seed: list(mutants(m, ["explicit-defaults"], max_sites=2, seed=seed, per_signature=False))
    assert pick(0) == pick(0) and len(pick(0)) == 3
    assert len({tuple(pick(s)) for s in range(8)}) > 1


def test_explicit_site_form_and_unknown_site():
    m = P.convs()
    assert list(mutants(m, ["empty-optional-input@n4"])) == ["empty-optional-input@n4"]
    with pytest.raises(UnknownIdError, match="site of empty-optional-input"):
        mutants(m, ["empty-optional-input@n9"])


def test_depth_two_pairs_pass_the_gate():
    m = P.commutative()
    pairs = {
        form: got
        for form, *got in iter_mutants(
            m, ["commute-operands", "identity-edges", "explicit-defaults"], max_sites=2, depth=2
        )
        if "+" in form
    }
    assert "commute-operands+identity-edges" in pairs and any(
        f.startswith("commute-operands@") and "+identity-edges@" in f for f in pairs
    )
    for form, (mutant, applied) in pairs.items():
        verify_equivalent(m, mutant, _feeds(m), form)
        assert applied.rewrite == form
        again = build_form(m, form)
        assert again[0].SerializeToString(deterministic=True) == mutant.SerializeToString(deterministic=True)
    # neighbouring sites first: the first single-site pair of a rewrite pair touches one place
    first = next(f for f in pairs if f.startswith("commute-operands@") and "+identity-edges@" in f)
    node, value = first.split("+")[0].split("@")[1], first.split("@")[-1]
    n = next(x for x in m.graph.node if x.name == node)
    assert value in [*n.input, *n.output]


def test_inverse_pairs_are_not_tried():
    m = P.explicit_broadcasts()
    forms = list(mutants(m, ["implicit-broadcast", "explicit-broadcast"], max_sites=2, depth=2))
    assert not [f for f in forms if "+" in f]


def _check(tmp_path, model, *argv):
    path = tmp_path / "m.onnx"
    onnx.save(model, path)
    report = tmp_path / "r.json"
    code = main(["check", str(path), "--mutations", *argv, "--json", str(report), "-q"])
    return code, json.loads(report.read_text()) if report.exists() else None


def _findings(report):
    return [f for c in report["results"] for f in c["findings"]]


def test_check_reports_the_conv_bn_gap_at_one_conv(tmp_path):
    """The ""-bias of ResNet's Conv → BatchNormalization, small: ort:basic keeps the BatchNormalization
    after the one Conv given an empty bias name, and the finding names that single-site form."""
    code, report = _check(tmp_path, P.convs(), "--form", "empty-optional-input", "--pass", "ort:basic")
    assert code == 1
    missed = {f["form"]: f for f in _findings(report) if f["kind"] == "missed-optimization"}
    assert set(missed) == {"empty-optional-input", "empty-optional-input@n0"} or set(missed) == {
        "empty-optional-input",
        "empty-optional-input@n4",
    }
    one = next(f for form, f in missed.items() if "@" in form)
    assert "2→1" in one["message"]
    # one defect: reported at the single site, explaining the all-at-once form's finding
    causes = [rc for rc in report["root_causes"] if rc["id"] in {f["id"] for f in missed.values()}]
    assert [rc["id"] for rc in causes] == [one["id"]]
    assert missed["empty-optional-input"]["id"] in {e["id"] for e in causes[0]["explains"]}


def test_site_finding_repro_selects_that_site(tmp_path):
    """The reproduce command of a single-site finding names its form (``--form ID@SITE``), and
    running it checks that one mutant and shows the same finding; an all-at-once form's names its
    id with ``--max-sites 0``."""
    import shlex

    code, report = _check(tmp_path, P.convs(), "--form", "empty-optional-input", "--pass", "ort:basic")
    missed = {f["form"]: f for f in _findings(report) if f["kind"] == "missed-optimization"}
    site = next(form for form in missed if "@" in form)
    words = shlex.split(missed[site]["repro"])
    assert (
        words[:2] == ["passcheck", "check"]
        and words[words.index("--form") + 1] == site
        and words[-2:] == ["--pass", "ort:basic"]
    )
    assert "--max-sites 0 --pass" in missed["empty-optional-input"]["repro"]
    again = tmp_path / "again.json"
    assert main([*words[1:], "--json", str(again), "-q"]) == 1
    redone = json.loads(again.read_text())
    assert {c["form"] for c in redone["results"]} == {"common", site}
    assert missed[site]["id"] in {f["id"] for f in _findings(redone)}


def test_check_form_at_one_site_and_flags(tmp_path, capsys):
    code, report = _check(
        tmp_path, P.convs(), "--form", "empty-optional-input@n4", "--pass", "ort:basic", "--max-sites", "0"
    )
    assert code == 1 and {c["form"] for c in report["results"]} == {"common", "empty-optional-input@n4"}
    capsys.readouterr()
    assert _check(tmp_path, P.convs(), "--form", "empty-optional-input@n9", "--pass", "ort:basic")[0] == 2
    err = capsys.readouterr().err
    assert "site of empty-optional-input" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    onnx.save(P.convs(), tmp_path / "c.onnx")
    assert main(["check", str(tmp_path / "c.onnx"), "--max-sites", "3", "--pass", "ort:basic"]) == 2
    assert "--max-sites needs --mutations" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("build", "fn", "rewrite", "site"),
    [
        (P.commutative, P.add_neg_to_sub, "commute-operands", "n1"),
        (P.explicit_broadcasts, P.pad_bias_rank, "implicit-broadcast", "n1"),
        (P.reductions, P.fold_mean_unsqueeze, "keepdims-unsqueeze", "n0"),
    ],
    ids=["commuted-operand", "implicit-broadcast", "keepdims-0-chain"],
)
def test_planted_pass_is_caught_at_the_single_site(tmp_path, build, fn, rewrite, site):
    from passcheck.passes import FunctionAdapter, register_pass, unregister_pass

    pid = f"planted-site:{fn.__name__}"
    register_pass(FunctionAdapter(pid, fn))
    try:
        code, report = _check(tmp_path, build(), "--form", rewrite, "--max-sites", "8", "--pass", pid)
    finally:
        unregister_pass(pid)
    assert code == 1
    wrong = {f["form"] for f in _findings(report) if f["kind"] == "wrong-result" and f["pass_id"] == pid}
    assert wrong == {rewrite, f"{rewrite}@{site}"}  # every other single site, and the original, are clean
    cause = next(rc for rc in report["root_causes"] if rc["signature"][0] == pid)
    assert cause["id"].startswith(f"model/m:{rewrite}@{site}|")  # the single site is the one reported
    assert {c["form"] for c in report["results"]} - {"common", rewrite, f"{rewrite}@{site}"}  # other sites were tried


def test_check_depth_two_runs_pairs(tmp_path):
    code, report = _check(
        tmp_path,
        P.commutative(),
        "--form",
        "commute-operands",
        "--form",
        "identity-edges",
        "--depth",
        "2",
        "--max-sites",
        "1",
        "--pass",
        "onnx:infer-shapes",
    )
    assert code in (0, 1)
    forms = {c["form"] for c in report["results"]}
    assert "commute-operands+identity-edges" in forms and any(f.count("@") == 2 and "+" in f for f in forms)
