"""The hunt's scheduler with a coverage map: (entry, spelling) pairs not tried yet come first, an
entry's pass is the only one drawn for it, and the choice is reproducible by seed."""

from __future__ import annotations

from pathlib import Path

from passcheck.coverage.entry import Entry, Evidence
from passcheck.coverage.map import CoverageMap
from passcheck.mutations import forms as hforms

PLANTED = Path(__file__).parents[1] / "hunt" / "planted_hunt.py"


def _map(bases) -> CoverageMap:
    a = Entry("onnxruntime", "rule", "SomeRule", ("ort:basic",), "basic")
    b = Entry("onnx-shape-inference", "inference", "Softmax@13", ("onnx:infer-shapes",), "ort")
    never = Entry("onnxruntime", "transformer", "Nothing", ("ort:basic",), "basic")
    soft = next(x.id for x in bases if x.id.startswith("hunt-test/softmax:"))
    ln = next(x.id for x in bases if x.id.startswith("hunt-test/layernorm:"))
    ev = {a.key: [Evidence(a.key, ln, "test")], b.key: [Evidence(b.key, soft, "test")]}
    return CoverageMap({e.key: e for e in (a, b, never)}, ev, [x.id for x in bases], {})


def test_guided_scheduler_tries_every_pair_of_the_map_first_and_is_reproducible():
    from passcheck.cases import load_path
    from passcheck.hunt.scheduler import Scheduler
    from passcheck.hunt.space import bases

    load_path(PLANTED)
    found = bases(["hunt-test/*"], generated=False)
    cmap = _map(found)
    runs = []
    for _ in range(2):
        s = Scheduler(found, ["ort:basic", "onnx:infer-shapes"], seed=3, cmap=cmap)
        picked = []
        while (item := s.next(len(picked))) is not None and s.pairs_tried | s._map.pairs(item) != s.pairs_tried:
            picked.append(item)
            s.mark(item)
        runs.append([i.key for i in picked])
        # every pick tried a new pair, on the entry's own base and pass
        for i in picked:
            assert (i.pass_id == "ort:basic" and i.base.startswith("hunt-test/layernorm:")) or (
                i.pass_id == "onnx:infer-shapes" and i.base.startswith("hunt-test/softmax:")
            )
        kinds = {(i.base.split(":")[0], hforms.kind(i.form)) for i in picked}
        assert len(kinds) == len(picked)  # one item per (entry, spelling)
        # and when the pairs are used up the triples take over: still an item, no longer a new pair
        assert item is not None and not (s._map.pairs(item) - s.pairs_tried)
    assert runs[0] == runs[1] and runs[0]


def test_an_entrys_first_spelling_rewrites_its_own_node_inside_the_op_schema():
    """Of an entry's untried spellings, the guided scheduler draws first one whose rewrite changes a
    node of the entry's op inside what the op's schema governs (Softmax's axis: ``negative-axes``),
    whatever the seed; not a spelling elsewhere (the Relu beside it, the metadata, the names)."""
    from passcheck.cases import load_path
    from passcheck.hunt.nearness import nearness, schema_spelling
    from passcheck.hunt.scheduler import Scheduler
    from passcheck.hunt.space import bases

    load_path(PLANTED)
    found = bases(["hunt-test/softmax"], generated=False)
    soft = Entry("onnx-shape-inference", "inference", "Softmax@13", ("onnx:infer-shapes",), "ort")
    cmap = CoverageMap(
        {soft.key: soft}, {soft.key: [Evidence(soft.key, b.id, "test") for b in found]}, [b.id for b in found], {}
    )
    for seed in range(6):
        s = Scheduler(found, ["onnx:infer-shapes"], seed=seed, cmap=cmap)
        item = s.next(0)
        base = s.by_id[item.base]
        assert nearness(base.model(), s.labels(base, item.form), frozenset({"Softmax"})) == 2, item
        assert schema_spelling(item.form) and "+" not in hforms.kind(item.form), item


def test_entry_ops_are_read_from_the_entry_name_or_the_rules_effect():
    from passcheck.hunt.nearness import entry_ops

    rule = Entry("onnxscript", "rule", "CastIdentity", ("onnxscript:rewrite",))
    assert entry_ops(rule, ["onnxscript:rewrite: try_rewrite replaced Cast node 'n0' (no rule-name tag)"]) == {"Cast"}
    assert entry_ops(Entry("onnx-shape-inference", "inference", "Add@14", ()), []) == {"Add"}
    assert entry_ops(Entry("onnx-version-converter", "adapter", "Add:13->14", ()), []) == {"Add"}
    assert entry_ops(Entry("onnxscript", "fold", "ai.onnx::Cast", ()), []) == {"Cast"}
    assert entry_ops(Entry("onnxscript", "fold", "*", ()), []) == frozenset()
    ort_rule = Entry("onnxruntime", "rule", "ConvBNFusion", ())
    assert entry_ops(ort_rule, ["GraphTransformer x modified: 1"]) == frozenset()


def test_a_joined_map_keeps_the_evidence_bases_and_errors_of_both():
    """The reference-only bases' map (shape inference and the converter only) joins the library's."""
    a = Entry("onnx-shape-inference", "inference", "Add@6", ("onnx:infer-shapes",), "reference")
    b = Entry("onnx-shape-inference", "inference", "Add@14", ("onnx:infer-shapes",), "ort+reference")
    lib = CoverageMap(
        {e.key: e for e in (a, b)},
        {b.key: [Evidence(b.key, "lib:common", "typed")]},
        ["lib:common"],
        {"lib:common": {"onnxruntime": "x"}},
    )
    ref = CoverageMap(
        {a.key: a},
        {a.key: [Evidence(a.key, "ref:common", "typed")]},
        ["ref:common"],
        {},
        base_ops={"ref:common": ["Add@6"]},
    )
    both = lib.joined(ref)
    assert both.triggered(a.key) and both.triggered(b.key) and set(both.entries) == {a.key, b.key}
    assert both.bases == ["lib:common", "ref:common"] and both.errors == lib.errors
    assert both.base_ops == {"ref:common": ["Add@6"]} and not lib.triggered(a.key)


def test_the_cpu_subset_leaves_out_transformers_registered_for_other_providers_only():
    from passcheck.coverage import report

    cpu = Entry("onnxruntime", "transformer", "GeluFusion", ("ort:extended",), "extended")
    dml = Entry("onnxruntime", "transformer", "MatMulActivationFusion", ("ort:extended",), "extended")
    ev = {cpu.key: [Evidence(cpu.key, "a:common", "x")]}
    cmap = CoverageMap({e.key: e for e in (cpu, dml)}, ev, ["a:common"], {})
    sub = report.totals(cmap)["onnxruntime"]
    assert (sub["triggered"], sub["total"]) == (1, 2)
    assert sub["subsets"]["basic+extended, CPU"] == {"triggered": 1, "total": 1}
    assert "DirectML" in report.reason(cmap, dml)
