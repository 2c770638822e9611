"""The graph-defaults bases (``cases/graph_defaults.py``, M570): initializers that are part of the graph's interface
(IR.md §Graphs: an initializer named like a graph input is that input's default, which a feed replaces; a graph output
may name an initializer). Every form is valid and computes what ``common`` computes on the case's feeds (which feed
the defaulted inputs too); a planted deduplication that merges every pair of equal initializers — right for constants,
the one onnx-ir 0.1.6 ran before onnx/ir-py#156 — is caught on exactly the forms with a default or an initializer
output, and real onnx-ir's pass, which skips them, gives no finding."""

from __future__ import annotations

import json

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx.reference import ReferenceEvaluator

from passcheck.cases import registry
from passcheck.cli import main
from passcheck.engine import feeds_for
from passcheck.passes import FunctionAdapter, register_pass, unregister_pass

CASES = ("graph-defaults/fed-defaults", "graph-defaults/constant-outputs")
#: The forms where two equal initializers are not both constants (a default, or a graph output).
INTERFACE = {
    ("graph-defaults/fed-defaults", "equal-defaults"),
    ("graph-defaults/fed-defaults", "default-equal-to-constant"),
    ("graph-defaults/constant-outputs", "initializer-outputs"),
    ("graph-defaults/constant-outputs", "initializer-output-after-constant"),
}
PLANTED = "planted:dedup-every-initializer"
REAL = "onnx-ir:deduplicate-initializers"


def _accepted(sess, feeds):
    names = {i.name for i in sess.get_inputs()} | {i.name for i in sess.get_overridable_initializers()}
    return {k: v for k, v in feeds.items() if k in names}


@pytest.mark.parametrize("case_id", CASES)
def test_every_form_is_valid_and_computes_what_common_computes(case_id):
    case = registry().get(case_id)
    common = case.forms["common"].build()
    for feeds in feeds_for(common, case_id, case.bindings, feed_fn=case.feeds):
        want = ort.InferenceSession(common.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)
        for name, form in case.forms.items():
            model = form.build()
            onnx.checker.check_model(model, full_check=True)
            sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
            given = _accepted(sess, feeds)
            for got in (sess.run(None, given), ReferenceEvaluator(model).run(None, given)):
                for w, g in zip(want, got, strict=True):
                    np.testing.assert_allclose(g, w, rtol=1e-6, err_msg=name)


def dedup_every_initializer(model: onnx.ModelProto) -> onnx.ModelProto:
    """Planted: each main-graph initializer equal (dtype, dims, content) to an earlier one is dropped and its node
    readers read the earlier one; graph inputs and outputs are left as listed. Right when both are constants."""
    g = model.graph
    seen: dict[tuple, str] = {}
    keep, rename = [], {}
    for t in g.initializer:
        key = (t.data_type, tuple(t.dims), onnx.numpy_helper.to_array(t).tobytes())
        if key in seen:
            rename[t.name] = seen[key]
        else:
            seen[key] = t.name
            keep.append(t)
    del g.initializer[:]
    g.initializer.extend(keep)
    for node in g.node:
        node.input[:] = [rename.get(n, n) for n in node.input]
    return model


@pytest.fixture(scope="module")
def findings(tmp_path_factory):
    """``passcheck run`` of both bases under the planted pass and onnx-ir's own, once: (pass, case, form) with a
    finding."""
    report = tmp_path_factory.mktemp("defaults") / "r.json"
    register_pass(FunctionAdapter(PLANTED, dedup_every_initializer))
    try:
        code = main(
            ["run", "--case", "graph-defaults/*", "--pass", PLANTED, "--pass", REAL, "--json", str(report), "-q"]
        )
    finally:
        unregister_pass(PLANTED)
    results = json.loads(report.read_text())["results"]
    return code, {(f["pass_id"], c["case"], c["form"]) for c in results for f in c["findings"]}


def test_a_deduplication_merging_defaults_or_outputs_is_caught_on_exactly_those_forms(findings):
    code, found = findings
    assert code == 1
    assert {(c, f) for p, c, f in found if p == PLANTED} == INTERFACE


def test_onnx_irs_deduplication_keeps_every_form(findings):
    """onnx-ir >= 0.1.7 skips an initializer that is a graph input or output (onnx/ir-py#156)."""
    _, found = findings
    assert not {x for x in found if x[0] == REAL}
