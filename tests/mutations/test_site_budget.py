"""The site budget of ``check --mutations``: every rewrite that applies is offered (all its sites at
once), single sites within ``--max-sites``, the budget and what it cut printed, and the sites kept
ranked toward op types a pass looks at."""

from __future__ import annotations

import onnx
import site_planted as P  # beside this file, loaded by conftest.py

from passcheck.cli import main
from passcheck.mutations import site_ranking
from passcheck.mutations.registry import REWRITES, mutants, site_signatures


def test_tool_part_names_spell_the_op_types_they_rewrite():
    ops = {s.name for s in onnx.defs.get_all_schemas()}
    assert site_ranking.spelled_ops("ConvBNFusion", ops) == {"Conv", "BatchNormalization"}
    assert site_ranking.spelled_ops("MatMulAddFusion", ops) == {"MatMul", "Add"}  # the longest spelling wins
    assert site_ranking.spelled_ops("GatherSliceToSplitFusion", ops) == {"Gather", "Slice", "Split"}
    ranking = site_ranking.default()
    assert ranking.source and ranking.weights["Conv"] > 0
    conv_bn, conv_relu = (site_signatures(P.convs())[n] for n in ("n0", "n2"))
    assert ranking.rank(conv_bn) > ranking.rank(conv_relu)  # a fusion's name joins Conv and BatchNormalization


def test_the_rewrite_rules_spell_pairs_too():
    """onnxruntime's level-1 rewrite rules (``rules`` in ort_transformers.json) are tool parts like its
    transformers: GemmTransposeFusion joins Gemm and Transpose, DivMulFusion Div and Mul."""
    pairs = site_ranking.default().pairs
    assert pairs.get(frozenset(("Gemm", "Transpose")), 0) > 0 and pairs.get(frozenset(("Div", "Mul")), 0) > 0


def test_a_cut_keeps_the_sites_ranked_first_whatever_the_seed():
    m = P.convs()  # n0, n4: Conv → BatchNormalization; n2: Conv → Relu
    ranking = site_ranking.default()
    for seed in range(6):
        budget: dict = {}
        forms = list(mutants(m, ["empty-optional-input"], max_sites=1, seed=seed, rank=ranking.rank, budget=budget))
        assert forms[0] == "empty-optional-input" and forms[1] in ("empty-optional-input@n0", "empty-optional-input@n4")
        assert budget == {"empty-optional-input": (1, 2, 3)}  # 1 tried, of 2 signatures, of 3 sites
    unranked = {tuple(mutants(m, ["empty-optional-input"], max_sites=1, seed=s, per_signature=False)) for s in range(6)}
    assert any("empty-optional-input@n2" in f for f in unranked)  # without a ranking the seed decides


def test_check_offers_every_rewrite_that_applies_and_prints_what_the_budget_cut(tmp_path, capsys):
    path = tmp_path / "c.onnx"
    onnx.save(P.convs(), path)
    assert main(["check", str(path), "--mutations", "--pass", "onnx:infer-shapes", "-q"]) in (0, 1)
    out = capsys.readouterr().out
    (line,) = [x for x in out.splitlines() if x.startswith("sites: ")]
    assert "every rewrite that applies at all its sites at once" in line and "raise with --max-sites N" in line
    assert "--max-sites 1 per rewrite" in line and "ranked first by" in line
    tried, total = (int(x) for x in line.split("and ")[1].split(" sites alone")[0].split(" of "))
    assert 0 < tried < total
    applies = {rid for rid, r in REWRITES.items() if r.apply(P.convs()) is not None}
    shown = {x.split(":")[0].removeprefix("mutant ").split("@")[0] for x in out.splitlines() if x.startswith("mutant ")}
    assert shown == {rid for rid in applies if rid in shown} and len(shown) >= len(applies) - sum(
        "left out" in x for x in out.splitlines()
    )  # every rewrite that applies is offered (or left out with why)


def test_the_budget_line_says_what_was_cut_and_by_what():
    from passcheck.cli.check import budget_line

    assert budget_line({"a": (2, 2, 2)}, 8, "x").endswith("and 2 of 2 sites alone (--max-sites 8: nothing cut)")
    line = budget_line({"a": (2, 2, 3)}, 8, "x")  # one site per signature only: raising --max-sites changes nothing
    assert line.endswith("2 of 3 sites alone (one per site signature (2 signatures))")
    line = budget_line({"a": (1, 2, 3), "b": (1, 1, 1)}, 1, "names")
    assert "2 of 4 sites alone" in line
    assert "--max-sites 1 per rewrite cut a, keeping the sites ranked first by names" in line
    assert line.endswith("; raise with --max-sites N")


def test_onnxscript_rule_names_are_kept_by_a_fingerprint_of_the_installed_package(tmp_path, monkeypatch):
    """The names are onnxscript's own (read by importing it once), then read from the cache folder by
    a fresh interpreter that never imports onnxscript; the ranking built from either is the same."""
    import json
    import subprocess
    import sys

    from onnxscript.rewriter import _DEFAULT_REWRITE_RULES

    own = [r.name or type(r).__name__ for r in _DEFAULT_REWRITE_RULES]
    monkeypatch.setenv("PASSCHECK_CACHE", str(tmp_path))
    assert site_ranking.onnxscript_rule_names() == [n for n in own if n != "RewriteRule"]
    (kept,) = (tmp_path / "onnxscript-rules").glob("*.json")
    assert json.loads(kept.read_text()) == site_ranking.onnxscript_rule_names()
    probe = (
        "import sys, json; from passcheck.mutations import site_ranking as s; r = s.default(); "
        "print(json.dumps(['onnxscript' in sys.modules, s.onnxscript_rule_names(), sorted(r.weights.items())]))"
    )
    fresh = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    imported, names, weights = json.loads(fresh.stdout)
    assert not imported and names == site_ranking.onnxscript_rule_names()
    site_ranking.default.cache_clear()
    try:
        assert weights == [list(kv) for kv in sorted(site_ranking.default().weights.items())]
    finally:
        site_ranking.default.cache_clear()


def test_an_edited_file_is_a_new_fingerprint(tmp_path):
    (tmp_path / "pkg" / "sub").mkdir(parents=True)
    rule = tmp_path / "pkg" / "sub" / "rule.py"
    rule.write_text("NAME = 'A'\n")
    (tmp_path / "pkg" / "data.txt").write_text("not source")
    first = site_ranking._fingerprint([str(tmp_path / "pkg")])
    assert first and first == site_ranking._fingerprint([str(tmp_path / "pkg")])
    (tmp_path / "pkg" / "data.txt").write_text("not source, changed")
    assert site_ranking._fingerprint([str(tmp_path / "pkg")]) == first  # only .py files count
    rule.write_text("NAME = 'AB'\n")
    assert site_ranking._fingerprint([str(tmp_path / "pkg")]) != first
    assert site_ranking._fingerprint([str(tmp_path / "missing")]) is None
