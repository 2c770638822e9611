"""The catalogue entries of onnx_ir's common passes, onnx's inliner and onnxruntime's transformer
fusions (``passcheck/coverage/onnx_ir.py``, ``inliner.py``, ``ort_fusions.py``): read from the
installed tools, evidence observed by effect in the isolation worker, ``coverage --pass`` scoped to
one pass's entries, and the hunt reaching each of those passes through its own entries only."""

from __future__ import annotations

import json

import onnx
import pytest

from passcheck.coverage.cache import Cache
from passcheck.coverage.map import catalogue, compute
from passcheck.hunt.coverage import chosen_bases

NEW = ("onnx-ir", "onnx-inliner", "ort-transformers")
#: A base with an Identity node, one op with a schema function body (Celu), a decomposed erf-GELU.
IDENTITY, CELU, GELU = (
    "graph-structure/same-tensor-consumed-twice",
    "functions/celu-expanded",
    "fusion-gelu/biasgelu-r2",
)


@pytest.fixture(scope="module")
def entries(executor, cache_dir):
    got, missing = catalogue(executor, NEW, cache=Cache(folder=cache_dir))
    assert not missing, missing
    return {t: {e.name: e for e in es} for t, es in got.items()}


@pytest.fixture(scope="module")
def found():
    return chosen_bases([IDENTITY, CELU, GELU], generated=False)


@pytest.fixture(scope="module")
def cmap(executor, cache_dir, found):
    return compute(found, executor, cache=Cache(folder=cache_dir))


def test_the_onnx_ir_entries_are_the_installed_pass_classes_each_run_by_its_own_id(entries):
    from passcheck.passes import known_pass_ids
    from passcheck.passes.onnx_ir_common import pass_classes, pass_id

    classes = pass_classes()
    assert classes and set(entries["onnx-ir"]) == set(classes)
    for name, e in entries["onnx-ir"].items():
        assert e.passes == (pass_id(name),) and e.passes[0] in known_pass_ids()
    # the op types the class's own source compares op_type with
    assert entries["onnx-ir"]["IdentityEliminationPass"].scope.startswith("ops Identity:")


def test_the_inliner_entries_are_the_schemas_with_a_function_body(entries):
    with_body = {
        f"{s.domain + '.' if s.domain else ''}{s.name}@{s.since_version}"
        for s in onnx.defs.get_all_schemas_with_history()
        if s.domain in ("", "ai.onnx.ml") and not s.deprecated and (s.has_function or s.has_context_dependent_function)
    }
    inliner = entries["onnx-inliner"]
    assert {n for n, e in inliner.items() if e.kind == "function"} == with_body
    assert inliner["LayerNormalization@17"].passes == ("onnx:inline-schema-functions",)
    assert "onnx:inline-local-functions" in inliner["local-function"].passes
    assert inliner["local-function-other-opset"].passes == ("onnx:inline-local-functions-convert",)


def test_the_ort_transformers_entries_are_the_fusion_classes_optimize_model_constructs(entries):
    import sys

    import onnxruntime.transformers.optimizer  # noqa: F401 - the optimizer's top-level fusion modules

    fusions = entries["ort-transformers"]
    classes = {
        name
        for mod_name, mod in list(sys.modules.items())
        if mod_name.split(".")[-1].startswith(("fusion_", "onnx_model_"))  # own classes hold their own fusions
        for name in dir(mod)
        if name.startswith("Fusion")
    }
    assert set(fusions) <= classes
    assert fusions["FusionGelu"].scope == "search Erf → Gelu"
    from passcheck.passes.ort_transformers import extra_pass_ids

    every = {f"ort-transformers:{t}" for t in ("bert", "gpt2", "vit")} | set(extra_pass_ids())
    assert set(fusions["FusionGelu"].passes) == every
    # each offered type is named by the fusions it constructs: its FusionOptions decide (qwen3: no embed layer norm)
    assert "ort-transformers:gpt2_tf" in fusions["FusionGptAttentionNoPast"].passes
    assert "ort-transformers:bert" not in fusions["FusionGptAttentionNoPast"].passes
    embed = set(fusions["FusionEmbedLayerNormalization"].passes)
    assert "ort-transformers:swin" in embed and "ort-transformers:qwen3" not in embed
    # a type with its own optimizer class brings its own fusions (M75): sam2's NCHW layer norm, bart's attention
    assert fusions["FusionLayerNormalizationNCHW"].passes == ("ort-transformers:sam2",)
    assert fusions["FusionBartAttention"].passes == ("ort-transformers:bart",)
    assert "ort-transformers:unet" in fusions["FusionAttentionUnet"].passes


def test_evidence_is_each_tool_s_own_effect_on_the_base(cmap):
    identity = cmap.evidence["onnx-ir:pass:IdentityEliminationPass"]
    assert [e.base for e in identity] == [f"{IDENTITY}:common"]
    assert "replaced Identity node" in identity[0].effect
    (celu,) = cmap.evidence["onnx-inliner:function:Celu@12"]
    assert celu.base == f"{CELU}:common" and "replaced Celu node" in celu.effect
    (gelu,) = cmap.evidence["ort-transformers:fusion:FusionGelu"]
    assert gelu.base == f"{GELU}:common" and "replaced Erf node" in gelu.effect
    # no base calls a local function: observed as the hunt's node-as-local-function spells it
    local = cmap.evidence["onnx-inliner:inline:local-function"]
    assert len(local) == 3 and all("spelled by node-as-local-function" in e.effect for e in local)
    assert not cmap.triggered("onnx-ir:pass:CheckerPass")  # analysis only: changes no base


def test_coverage_pass_lists_only_that_pass_s_entries(tmp_path, capsys):
    from passcheck.cli import main

    out = tmp_path / "cov.json"
    args = ["coverage", "--case", IDENTITY, "--no-generated", "--pass", "onnx-ir:identity-elimination"]
    assert main([*args, "--json", str(out)]) == 0
    doc = json.loads(out.read_text())
    assert [r["key"] for r in doc["entries"]] == ["onnx-ir:pass:IdentityEliminationPass"]
    assert doc["entries"][0]["triggered"] is True
    assert "onnx-ir: 1/1 triggered" in capsys.readouterr().out


def test_the_pass_plan_reaches_each_new_pass_through_its_own_entries_only(cmap, found):
    from passcheck.coverage.entry import PassScope
    from passcheck.hunt import passes

    plan = passes.relevant(found, cmap)
    scope = PassScope(cmap.entries.values())
    from passcheck.passes import known_pass_ids

    # the registered ids (the parametrized ones, ort-transformers:qwen3 …, are searched when named)
    new_ids = {p for k, e in cmap.entries.items() if e.tool in NEW for p in e.passes} & set(known_pass_ids())
    for base in (f"{c}:common" for c in (IDENTITY, CELU, GELU)):
        triggered = [cmap.entries[k] for k in cmap.by_base().get(base, ())]
        wanted = {p for p in new_ids if any(scope.runs(e, p) for e in triggered)}
        assert set(plan.of(base)) & new_ids - set(plan.unreached) == wanted, base
    assert "onnx-ir:identity-elimination" in plan.of(f"{IDENTITY}:common")
    assert "onnx-ir:identity-elimination" not in plan.of(f"{CELU}:common")
    assert "onnx:inline-schema-functions" in plan.of(f"{CELU}:common")
    assert "ort-transformers:bert" in plan.of(f"{GELU}:common")
    assert "onnx-ir:checker" in plan.unreached  # no entry of it is triggered: searched on every case


def test_an_unguided_hunt_searches_the_passes_its_base_triggers(tmp_path, capfd):
    from passcheck.cli import main

    out = tmp_path / "hunt"
    argv = ["hunt", "--case", IDENTITY, "--no-generated", "--map-first", "--budget", "1items", "--seed", "1"]
    code = main([*argv, "--out", str(out), "--progress", "none"])
    assert code in (0, 1), capfd.readouterr().err
    searched = json.loads((out / "hunt-state.json").read_text())["scope"]["passes"]
    assert "onnx-ir:identity-elimination" in searched and "onnx-ir:inline" in searched
    assert "onnx:inline-local-functions" in searched
    assert "onnx-ir:checker" in searched  # it changes no base: unreached, so searched on every observed case


#: onnx_ir passes that act on what no case's common form has (Constant nodes, initializers listed as
#: inputs, unused opset imports, nodes out of order, metadata): the hunt's rewrites spell those.
UNREACHED_IR = (
    "onnx-ir:clear-metadata-and-doc-string",
    "onnx-ir:lift-constants-to-initializers",
    "onnx-ir:remove-initializers-from-inputs",
    "onnx-ir:remove-unused-opsets",
    "onnx-ir:topological-sort",
)


def test_a_registered_pass_no_observed_base_reaches_gets_a_share_on_every_case(cmap, found):
    """Before: a pass was searched only on cases whose first form triggers one of its entries, so
    these five (triggered by no common form of the whole library) were never searched unguided."""
    from passcheck.coverage.entry import PassScope
    from passcheck.hunt import passes
    from passcheck.hunt.scheduler import Scheduler, shares

    plan = passes.relevant(found, cmap)
    scope = PassScope(cmap.entries.values())
    by_base = cmap.by_base()
    for p in UNREACHED_IR:
        assert not any(scope.runs(cmap.entries[k], p) for b in cmap.bases for k in by_base.get(b, ()))
        assert p in plan.passes and all(p in plan.of(b) for b in cmap.bases), p
        assert p in plan.unreached
    assert "onnx-ir:identity-elimination" not in plan.unreached  # reached through its entry: scoped
    assert all(v > 0 for v in shares(plan.passes).values())
    sched = Scheduler(found, plan.passes, seed=3, cmap=cmap, passes_of=plan.of)
    picked = set()
    for step in range(4 * len(plan.passes)):
        if (item := sched.next(step)) is None:
            break
        sched.mark(item)
        picked.add(item.pass_id)
        if set(UNREACHED_IR) <= picked:
            break
    assert set(UNREACHED_IR) <= picked, sorted(set(UNREACHED_IR) - picked)


def test_without_an_observed_case_no_pass_is_unreached(cmap, found):
    from passcheck.hunt import passes
    from passcheck.passes import DEFAULT_PASSES

    plan = passes.relevant(found, cmap.without(cmap.bases))
    assert plan.unreached == () and plan.of(f"{IDENTITY}:common") == DEFAULT_PASSES


def test_the_guided_order_reads_the_op_types_of_the_new_entries(cmap):
    from passcheck.hunt.nearness import entry_ops

    def ops(k):
        return entry_ops(cmap.entries[k], [e.effect for e in cmap.evidence.get(k, ())])

    assert ops("onnx-inliner:function:Celu@12") == {"Celu"}
    # a schema-function entry names its op, as an inference entry does: read with no effect at all
    assert entry_ops(cmap.entries["onnx-inliner:function:LayerNormalization@17"], []) == {"LayerNormalization"}
    assert ops("ort-transformers:fusion:FusionGelu") == {"Erf"}  # from the effect, as a rule's
    assert ops("onnx-ir:pass:IdentityEliminationPass") == {"Identity"}
