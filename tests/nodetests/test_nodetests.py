"""The onnx-node family on a handful of onnx's backend node tests, with real onnx test cases and
onnxruntime runs: the source builds and its forms pass the input cells, the constant form folds
under ort:basic, the stated outputs move the blame between a pass and onnxruntime's kernel, and the
default selection does not load the source."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys

import numpy as np
import onnx
import pytest
from onnx import numpy_helper

from passcheck._versions import tool_version
from passcheck.engine import INPUT, Subject, evaluate
from passcheck.passes import FunctionAdapter, register_pass, unregister_pass
from tests._shared import built_once

TESTS = [
    "test_abs",
    "test_slice_neg_steps",
    "test_reduce_sum_empty_axes_input_noop",
    "test_reshape_allowzero_reordered",
    "test_gather_negative_indices",
    "test_sequence_insert_at_back",  # a sequence input: skipped, counted
]


def _build(folder):
    from passcheck import nodetests

    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PASSCHECK_CACHE", str(folder))
        nodetests.index(names=TESTS, quiet=True)


@pytest.fixture(scope="module")
def doc(tmp_path_factory):
    """The partial set's index, built once per test run (``built_once``: onnx's ``collect_testcases`` runs every
    operator example, ~11 s of CPU, whatever the names) and read by each worker that runs a test here; the tests
    read its bytes, never write there."""
    from passcheck import nodetests

    shared, _ = built_once(tmp_path_factory, "nodetests-partial", _build)
    mp = pytest.MonkeyPatch()
    mp.setenv("PASSCHECK_CACHE", str(shared))
    yield nodetests.index(names=TESTS, quiet=True)
    mp.undo()


@pytest.fixture(scope="module")
def cases(doc):
    from passcheck import nodetests

    return {c.id: c for c in nodetests.cases(doc)}


def test_kept_and_skipped_are_counted(doc, cases):
    assert sorted(cases) == [
        "onnx-node/abs",
        "onnx-node/gather_negative_indices",
        "onnx-node/reduce_sum_empty_axes_input_noop",
        "onnx-node/reshape_allowzero_reordered",
        "onnx-node/slice_neg_steps",
    ]
    assert doc["skipped"] == {"an input is not a tensor (no initializer spelling)": 1}
    case = cases["onnx-node/slice_neg_steps"]
    assert list(case.forms) == ["common", "constant-inputs"]
    assert {"onnx-node", "op:Slice"} <= case.tags and case.opset == 10 or case.opset >= 10


def test_forms_pass_the_input_cells_on_the_tests_own_values(cases):
    version = tool_version("onnx")
    for case in cases.values():
        subject = Subject.from_case(case, version)
        const = subject.forms["constant-inputs"]
        assert not const.graph.input and {t.name for t in const.graph.initializer} == set(subject.feed_sets[0])
        common = subject.forms["common"]
        assert all(d.HasField("dim_value") for vi in common.graph.input for d in vi.type.tensor_type.shape.dim)
        cells = evaluate(subject, [INPUT])
        assert {(c.form, c.verdict) for c in cells} == {("common", "ok"), ("constant-inputs", "ok")}, [
            f.line() for c in cells for f in c.findings
        ]


def test_constant_form_folds_under_ort_basic(cases, tmp_path):
    from passcheck.passes import get_pass

    version = tool_version("onnx")
    for cid in ("onnx-node/abs", "onnx-node/slice_neg_steps", "onnx-node/reshape_allowzero_reordered"):
        subject = Subject.from_case(cases[cid], version)
        cells = evaluate(subject, ["ort:basic"], check_input=False)
        assert {c.verdict for c in cells} == {"ok"}, [f.line() for c in cells for f in c.findings]
        folded = {
            form: [n.op_type for n in get_pass("ort:basic").run(model, tmp_path).model.graph.node]
            for form, model in subject.forms.items()
        }
        assert folded["constant-inputs"] == [] and folded["common"], (cid, folded)


def fold_off_by_one(model: onnx.ModelProto) -> onnx.ModelProto:
    """A wrong fold: a graph with no inputs becomes its outputs as initializers (computed by onnx's
    reference evaluator), the first element of each float output off by one."""
    from onnx.reference import ReferenceEvaluator

    if model.graph.input:
        return model
    values = ReferenceEvaluator(model).run(None, {})
    del model.graph.node[:]
    del model.graph.initializer[:]
    for vi, v in zip(model.graph.output, values):
        v = np.array(v)
        if v.dtype.kind == "f" and v.size:
            v.flat[0] += 1
        model.graph.initializer.append(numpy_helper.from_array(v, vi.name))
    return model


def _cells(subject, pass_id):
    return [
        (c.form, c.pass_id, f.oracle, f.kind, f.details.get("matches_expected"))
        for c in evaluate(subject, [INPUT, pass_id])
        for f in c.findings
    ]


def test_the_stated_outputs_move_the_blame(cases):
    pid = "planted:fold_off_by_one"
    register_pass(FunctionAdapter(pid, fold_off_by_one, folds_constants=True))
    try:
        subject = Subject.from_case(cases["onnx-node/abs"], tool_version("onnx"))
        # the spec's own outputs: the wrong fold is the pass's, the kernel agrees with the spec
        assert _cells(subject, pid) == [("constant-inputs", pid, "numeric", "wrong-result", "unoptimized run")]
        # planted: the stated output is the wrongly folded value; now onnxruntime's kernel departs
        # from it on both forms (input cells) and the pass, matching it, is not blamed
        ((name, want),) = subject.expected.outputs[0].items()
        planted = np.array(want)
        planted.flat[0] += 1
        subject.expected = dataclasses.replace(subject.expected, outputs=[{name: planted}])
        assert _cells(subject, pid) == [
            ("common", INPUT, "runtime", "wrong-result", None),
            ("constant-inputs", INPUT, "runtime", "wrong-result", None),
        ]
    finally:
        unregister_pass(pid)


def test_default_selection_does_not_load_the_source():
    code = (
        "from passcheck.cases import registry; from passcheck.nodetests.source import SOURCE; r = registry(); "
        "ids = [c.id for c in r.select([])]; "
        "print(any(s is SOURCE for s in r._sources), id(SOURCE) in r._loaded_sources, "
        "any(i.startswith('onnx-node/') for i in ids))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=300)
    assert out.stdout.split() == ["True", "False", "False"]


def test_a_matrix_worker_reads_the_parents_tests(cases):
    from passcheck import nodetests
    from passcheck.engine.subject import loaded_reference

    case = cases["onnx-node/slice_neg_steps"]
    shipped = nodetests.shipped_case(case.id, json.loads(json.dumps(nodetests.case_meta(case))))
    (feeds, expected), (feeds2, expected2) = loaded_reference(case), loaded_reference(shipped)
    assert list(shipped.forms) == list(case.forms) and shipped.tags == case.tags
    assert feeds[0].keys() == feeds2[0].keys() and all(np.array_equal(feeds[0][k], feeds2[0][k]) for k in feeds[0])
    assert expected2 == dataclasses.replace(expected, outputs=expected2.outputs)
    assert all(np.array_equal(expected.outputs[0][k], expected2.outputs[0][k]) for k in expected.outputs[0])


def test_a_lazy_sources_notes_show_once_it_is_loaded():
    from passcheck.cases._registry import CaseRegistry

    class Noting:
        id, lazy = "noting", True

        def claims(self, pattern):
            return pattern.startswith("noting")

        def register_all(self, registry):
            pass

        def missing(self, case_id):
            return None

        def notes(self):
            return ["noting: 3 skipped"]

    reg = CaseRegistry()
    reg.add_source(Noting())
    assert reg.notes() == []  # not loaded: nothing said, nothing built
    reg._claiming(["noting/*"])
    assert reg.notes() == ["noting: 3 skipped"]
