"""The built-in families declare the passes they target, and a run without ``--pass`` runs them.

A case whose doc ends ``Targets onnxscript's … (<pass>).`` (:data:`passcheck.cases.rules.TARGET`)
or ``Targets onnxruntime's … (ort:<level>).`` (:data:`passcheck.cases.fusion.TARGET`) lists that
pass in ``Case.passes``, which the engine runs when no ``--pass`` is given; the data-prop family
lists the shape inferences that propagate data (its module doc). The run test is a real
``passcheck run`` of fusion-rotary/llama (onnxscript, onnxruntime), read back from its JSON report.
docs/cases.md has one row per family.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from passcheck.cases import fusion as ort_fusion
from passcheck.cases import load_builtin, rules
from passcheck.cli import main

#: The families that landed with an empty ``passes`` (their target pass never ran without --pass).
NEW = (
    "data-prop",
    "fusion-sdpa",
    "fusion-rotary",
    "fusion-gqa",
    "fold-onnxscript",
    "pattern-onnxscript-fused-matmul",
    "pattern-onnxscript-scatter",
    "fusion-conv-add-act",
)


def _target(case) -> str | None:
    last = case.doc.strip().splitlines()[-1]
    if m := rules.TARGET.search(last):
        return m.group(2)
    if m := ort_fusion.TARGET.search(last):
        return f"ort:{m.group(2)}"
    return None


def test_each_case_declares_the_pass_its_doc_targets():
    registry = load_builtin()
    targeted = {c.id: _target(c) for c in registry if _target(c)}
    assert {c.split("/")[0] for c in targeted} >= set(NEW) - {"data-prop"}
    missing = {cid: (t, registry.get(cid).passes) for cid, t in targeted.items() if t not in registry.get(cid).passes}
    assert not missing


def test_new_families_declare_passes_and_data_prop_its_shape_inferences():
    cases = [c for c in load_builtin() if c.family in NEW]
    assert {c.family for c in cases} == set(NEW)
    assert all(c.passes for c in cases), [c.id for c in cases if not c.passes]
    for c in (c for c in cases if c.family == "data-prop"):
        assert {"onnx:infer-shapes-data-prop", "ort:symbolic-shape-infer", "onnx:infer-shapes"} <= set(c.passes)
    for c in (c for c in cases if c.family in ("fusion-sdpa", "fusion-rotary", "fusion-gqa")):
        assert "onnxscript:optimize-for-ort" in c.passes and "ort:disabled" in c.passes
    scatter = load_builtin().get("pattern-onnxscript-scatter/all-dynamic")
    assert {"onnxscript:optimize", "onnxscript:rewrite"} <= set(scatter.passes)  # a default rule: both apply it


def test_the_fusion_tag_selects_the_onnxscript_fusion_families():
    families = {c.family for c in load_builtin().select(["fusion"])}
    assert {"fusion-sdpa", "fusion-rotary", "fusion-gqa", "fusion-conv-add-act", "fusion-attention"} <= families
    assert "folding" in load_builtin().get("fold-onnxscript/abs").tags


def test_run_without_pass_runs_the_target_pass(tmp_path):
    out = tmp_path / "run.json"
    code = main(["run", "--case", "fusion-rotary/llama", "--json", str(out), "-q"])
    assert code in (0, 1)  # 1: the uncommon forms the fusion misses are findings, not errors
    cells = json.loads(out.read_text())["results"]
    target = {r["form"]: r for r in cells if r["pass_id"] == "onnxscript:optimize-for-ort"}
    assert set(target) == set(load_builtin().get("fusion-rotary/llama").forms)
    assert target["common"]["status"] == "changed"
    assert "com.microsoft::RotaryEmbedding" in target["common"]["ops_after"]
    assert {"ort:disabled", "onnx:infer-shapes-data-prop"} <= {r["pass_id"] for r in cells}


def test_docs_cases_md_has_one_row_per_family():
    text = (Path(__file__).resolve().parents[2] / "docs" / "cases.md").read_text()
    rows = re.findall(r"^\| `([\w-]+)` \|", text, re.MULTILINE)
    # the built-in families read in a fresh interpreter: test modules in this process register planted cases
    # (tests/hunt/planted_*.py) in the same registry
    code = (
        "from passcheck.cases import registry\n"
        "reg = registry()\n"
        "reg.claim_library()\n"  # the schema-gated families too (lazy sources: judged when claimed)
        "print('\\n'.join(sorted({c.family for c in reg if not c.id.startswith(('generated/', 'onnx-node/'))})))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=True)
    assert sorted(rows) == out.stdout.split()
