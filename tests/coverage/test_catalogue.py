"""The catalogue matches what the installed tools list themselves; evidence is observed by effect
in the isolation worker, re-checks from the JSON, and an entry goes untriggered when its only base
is removed."""

from __future__ import annotations

import json

import onnx
import pytest

from passcheck.coverage import report
from passcheck.coverage.cache import Cache
from passcheck.coverage.map import catalogue, compute
from passcheck.coverage.recheck import recheck
from passcheck.hunt.coverage import chosen_bases

#: Two hand-written cases: Conv + BatchNormalization (ConvBNFusion), a decomposed LayerNorm.
CASES = ["optional-input/conv-bn", "fusion-norm/layernorm-r2"]


@pytest.fixture(scope="module")
def entries(executor, cache_dir):
    return catalogue(executor, cache=Cache(folder=cache_dir))[0]


@pytest.fixture(scope="module")
def cmap(executor, cache_dir, entries):
    bases = chosen_bases(CASES, generated=False)
    return compute(bases, executor, cache=Cache(folder=cache_dir))


def _names(entries, tool, kind=None):
    return {e.name for e in entries[tool] if kind is None or e.kind == kind}


def test_the_catalogue_is_what_each_installed_tool_lists(entries):
    from onnxruntime.tools.symbolic_shape_infer import SymbolicShapeInference
    from onnxscript import rewriter

    handlers = SymbolicShapeInference(2**31 - 1, False, False, 0).dispatcher_
    assert _names(entries, "ort-symbolic-shape-infer") == set(handlers)
    default = [e for e in entries["onnxscript"] if e.scope == "default rules"]
    assert len(default) == len(rewriter._DEFAULT_REWRITE_RULES)
    assert {r.name for r in rewriter._DEFAULT_REWRITE_RULES if r.name} <= {e.name for e in default}
    schemas = [
        s
        for s in onnx.defs.get_all_schemas_with_history()
        if s.domain in ("", "ai.onnx.ml") and not s.deprecated and s.has_type_and_shape_inference_function
    ]
    assert _names(entries, "onnx-shape-inference", "inference") == {
        f"{s.domain + '.' if s.domain else ''}{s.name}@{s.since_version}" for s in schemas
    }
    # every since_version after an op's first gives an up and a down adapter
    adapters = _names(entries, "onnx-version-converter")
    assert "Add:13->14" in adapters and "Add:14->13" in adapters
    ort = {e.name: e for e in entries["onnxruntime"]}
    # transformer names as the verbose log prints them (GeluFusionL1, not the table's GeluFusion); rules from the table
    assert ort["ConstantFolding"].kind == "transformer" and ort["ConstantFolding"].scope == "basic"
    assert ort["ConvBNFusion"].kind == "rule" and "ort:basic" in ort["ConvBNFusion"].passes
    assert not any(n.startswith("Level") and n.endswith("RuleBasedTransformer") for n in ort)
    assert "MemcpyTransformer" not in ort  # required at every level, not an optimization


def test_evidence_is_an_effect_and_rechecks_from_the_json(cmap, executor):
    base = "optional-input/conv-bn:common"
    assert base in cmap.bases_of("onnxruntime:rule:ConvBNFusion")
    assert base in cmap.bases_of("onnxscript:rule:FuseBatchNormIntoConv")
    assert cmap.triggered("onnx-shape-inference:inference:BatchNormalization@15") or any(
        k.startswith("onnx-shape-inference:inference:BatchNormalization@") for k in cmap.by_base()[base]
    )
    doc = json.loads(json.dumps(report.to_json(cmap)))  # what --json writes
    row = next(r for r in doc["entries"] if r["key"] == "onnxruntime:rule:ConvBNFusion")
    ev = next(e for e in row["evidence"] if e["base"] == base)
    assert "disabling ConvBNFusion" in ev["effect"]
    assert recheck(ev, executor)[0]
    # a record naming a base that does not trigger the entry does not hold
    wrong = {**ev, "base": next(b for b in cmap.bases if b.startswith("fusion-norm/"))}
    assert recheck(wrong, executor) == (False, f"{wrong['base']} no longer triggers onnxruntime:rule:ConvBNFusion")


def test_an_entry_whose_base_is_removed_is_flagged_untriggered(cmap, executor, cache_dir):
    key = "onnxruntime:rule:ConvBNFusion"
    only = cmap.bases_of(key)
    assert only
    rest = [b for b in chosen_bases(CASES, generated=False) if b.id not in only]
    smaller = compute(rest, executor, cache=Cache(folder=cache_dir))  # the map of the library without that base
    doc = report.to_json(smaller)
    row = next(r for r in doc["entries"] if r["key"] == key)
    assert row["triggered"] is False and row["evidence"] == []
    assert "ConvBNFusion" in row["reason"]
    assert doc["totals"]["onnxruntime"]["triggered"] < report.totals(cmap)["onnxruntime"]["triggered"]


def test_the_command_writes_the_map_and_refuses_a_bad_hunt_folder(tmp_path, capsys):
    from passcheck.cli import main

    out = tmp_path / "cov.json"
    rc = main(["coverage", "--case", CASES[0], "--tool", "onnxruntime", "--pass", "ort:basic", "--json", str(out)])
    assert rc == 0
    doc = json.loads(out.read_text())
    assert set(doc["totals"]) == {"onnxruntime"} and doc["bases"] == 1
    assert all("ort:basic" in r["passes"] for r in doc["entries"])
    assert "onnxruntime: 1/" in capsys.readouterr().out or doc["totals"]["onnxruntime"]["triggered"] >= 1
    assert main(["coverage", "--recheck", str(out), "--entry", "onnxruntime:rule:ConvBNFusion"]) == 0
    assert "1 of 1 evidence records hold" in capsys.readouterr().out
    assert main(["coverage", "--hunt", str(tmp_path / "none")]) == 2
    assert "no readable hunt state" in capsys.readouterr().err
