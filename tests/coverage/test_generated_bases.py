"""Issue 26's remaining gaps: generated bases for schemas no case covered (new domain-table recipes;
a schema whose pairs all failed the gate for a tool's reason keeps its common form as a runtime-free
base) trigger their shape-inference and converter entries by effect (real ``infer_shapes``, real
``convert_version``), and the map flags those entries untriggered once the base is removed."""

from __future__ import annotations

import pytest

from passcheck.coverage import report
from passcheck.coverage.cache import Cache
from passcheck.coverage.map import compute
from passcheck.hunt.coverage import RUNTIME_FREE
from passcheck.passes.isolation import IsolatedExecutor

#: Scatter-9: onnxruntime runs it, the reference evaluator has no implementation (a runtime-free base);
#: Col2Im-18 and TfIdfVectorizer-9: recipes the domain table had none for; Constant-11: its sparse_value
#: spelling (onnxruntime rejects it, so Constant-11's common form is a runtime-free base); Multinomial-7:
#: onnxruntime runs it, and converting it up to opset 22 and back down reaches Multinomial:22->21.
OPS = ["Scatter", "Col2Im", "TfIdfVectorizer", "Constant", "Multinomial"]
CV = "onnx-version-converter:adapter:"
SI = "onnx-shape-inference:inference:"
SCATTER_UP = "onnx-version-converter:adapter:Scatter:10->11"


@pytest.fixture(scope="module")
def executor():
    with IsolatedExecutor(timeout=300) as ex:
        yield ex


@pytest.fixture(scope="module")
def bases():
    from passcheck.generate import cases, index
    from passcheck.hunt.space import Base

    doc = index(ops=OPS, quiet=True)  # a partial set, generated into its own cache folder
    found = [*cases(doc), *cases(doc, reference_only=True)]
    return [Base(c, next(iter(c.forms))) for c in found]


@pytest.fixture(scope="module")
def cmap(bases, executor, tmp_path_factory):
    return compute(bases, executor, RUNTIME_FREE, cache=Cache(folder=tmp_path_factory.mktemp("cov")))


def test_a_runtime_free_base_is_kept_for_a_schema_no_pair_passed(bases):
    from passcheck.generate import index

    ids = {b.case.id for b in bases}
    assert "generated/scatter-9.shape" in ids
    doc = index(ops=OPS, quiet=True)
    row = next(e for e in doc["reference_only"] if e["id"] == "generated/scatter-9.shape")
    assert "onnxruntime runs it" in row["doc"] and "reference evaluator fails" in row["doc"]
    # never an ordinary case; the converter-only base of Scatter-9's adapters (tag adapter-source) is one
    assert not any(
        c["id"].startswith("generated/scatter-9.") and "adapter-source" not in c.get("tags", ()) for c in doc["cases"]
    )


@pytest.mark.parametrize(
    "key",
    [SI + "Scatter@9", SCATTER_UP, SI + "Col2Im@18", SI + "TfIdfVectorizer@9"],
)
def test_the_new_base_triggers_its_entry_by_effect(cmap, key):
    assert cmap.triggered(key), report.reason(cmap, cmap.entries[key])
    effect = cmap.evidence[key][0].effect
    assert ("typed every output" in effect) if key.startswith(SI) else ("since_version 9 -> 11" in effect)


@pytest.fixture(scope="module")
def without(bases, executor):
    """Removed base ids → the map of the other bases, computed once per set removed (uncached, as in
    test_catalogue)."""
    maps = {}

    def smaller(gone: frozenset[str]):
        if gone not in maps:
            maps[gone] = compute([b for b in bases if b.id not in gone], executor, RUNTIME_FREE, cache=None)
        return maps[gone]

    return smaller


@pytest.mark.parametrize(
    "op,key", [("Scatter", SI + "Scatter@9"), ("Scatter", SCATTER_UP), ("Col2Im", SI + "Col2Im@18")]
)
def test_removing_the_base_leaves_the_entry_untriggered_with_its_reason(cmap, without, op, key):
    gone = frozenset(cmap.bases_of(key))
    assert gone
    smaller = without(gone)
    doc = report.to_json(smaller, keys=[key])
    row = doc["entries"][0]
    assert row["triggered"] is False and row["evidence"] == []
    assert f"no base has a node of {op}" in row["reason"]


def test_the_converter_steps_down_from_the_model_it_brought_up(cmap):
    ev = [e for e in cmap.evidence[CV + "Multinomial:22->21"] if e.base == "generated/multinomial-7.shape:common"]
    assert ev, cmap.evidence[CV + "Multinomial:22->21"]  # (the converter-only base at opset 21 reaches it too)
    assert "on the base converted up to opset" in ev[0].effect and "since_version 22 -> 7" in ev[0].effect


def test_a_down_step_is_named_by_the_version_it_converts_from(cmap):
    # from opset 22 the converter goes to 20 in one call: Constant-21 -> Constant-19 is the step 21->20
    effects = [e.effect for e in cmap.evidence[CV + "Constant:21->20"]]
    assert any("since_version 21 -> 19" in e for e in effects)
    assert cmap.triggered(CV + "Constant:11->10") and cmap.triggered(SI + "Constant@11")
    # the op the up adapter replaced (Scatter -> ScatterElements) is not claimed on the way down
    assert not cmap.triggered(CV + "Scatter:11->10")


def test_a_step_from_a_deprecated_version_has_a_reason_and_leaves_the_subset(cmap):
    key = "onnx-version-converter:adapter:Scatter:11->10"  # Scatter-11 is the version that removed Scatter
    e = cmap.entries[key]
    assert report.deprecated_source(e) == 11
    assert "Scatter-11 is deprecated" in report.reason(cmap, e)
    assert report.deprecated_source(cmap.entries[SCATTER_UP]) is None
    sub = report.totals(cmap)["onnx-version-converter"]
    assert sub["deprecated_source"] >= 2  # Scatter-11, Upsample-10 at least
    # GroupNormalization-18 is withdrawn, not removed: a converter source (passcheck.oracles.withdrawn)
    assert report.deprecated_source(cmap.entries["onnx-version-converter:adapter:GroupNormalization:20->21"]) is None


def test_an_entry_no_base_has_says_why_the_generator_made_none():
    from passcheck.generate import index

    doc = index(ops=OPS, quiet=True)
    says = report.generator_says("Scatter", doc)
    assert says.startswith("; generate --stats: ") and "deprecated (1)" in says
    assert "reference evaluator fails" in says  # Scatter-9's other pairs, dropped as cases
    assert report.generator_says("StringConcat", doc) == ""  # nothing on an op the set did not try
