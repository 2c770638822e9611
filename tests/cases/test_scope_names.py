"""The scope-names bases (``cases/scope_names.py``, M541): subgraphs reusing names they cannot see (IR.md §Graphs,
Names Within a Graph). Every form is valid and computes what ``common`` computes; a planted pass that lifts subgraph
initializers into the main graph keeping their names (right whenever names are fresh) is caught on exactly the forms
whose initializer reuses an unseen name; onnx's strict inference refuses exactly the forms whose initializer is named
like a later outer value with a declared type (docs/found.md row 1433)."""

from __future__ import annotations

import json

import numpy as np
import onnx
import onnxruntime as ort
import pytest

from passcheck.cases import registry
from passcheck.cli import main
from passcheck.passes import FunctionAdapter, register_pass, unregister_pass
from passcheck.runtime.feeds import synthesize

CASES = ("scope-names/if-branch", "scope-names/loop-body", "scope-names/if-constant-condition")
#: The forms whose subgraph initializer carries a name the main graph also defines.
INITIALIZER_REUSE = {
    "scope-names/if-branch": {"initializer-as-later-output", "initializer-as-if-output", "sibling-initializers"},
    "scope-names/loop-body": {"initializer-as-later-output", "initializer-as-loop-output"},
    "scope-names/if-constant-condition": {"initializer-as-later-output", "initializer-as-if-output"},
}


def _run(model, feeds):
    return ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)


@pytest.mark.parametrize("case_id", CASES)
def test_every_form_is_valid_and_computes_what_common_computes(case_id):
    case = registry().get(case_id)
    common = case.forms["common"].build()
    for binding in case.bindings:
        feeds = synthesize(common, binding, 0)
        want = _run(common, feeds)
        for name, form in case.forms.items():
            model = form.build()
            onnx.checker.check_model(model)  # lexical scopes: no name the subgraph sees is redefined
            np.testing.assert_allclose(_run(model, feeds)[0], want[0], rtol=1e-6, err_msg=name)


def lift_keeping_names(model: onnx.ModelProto) -> onnx.ModelProto:
    """Planted: moves every main-graph node's subgraph initializers into the main graph under their own names (the
    subgraph then reads them from the outer scope). Right when every name is fresh; with a name the main graph, or a
    sibling subgraph, also defines it makes one name two values."""
    for node in model.graph.node:
        for attr in node.attribute:
            if attr.type == onnx.AttributeProto.GRAPH:
                model.graph.initializer.extend(attr.g.initializer)
                del attr.g.initializer[:]
    return model


@pytest.fixture(scope="module")
def planted_findings(tmp_path_factory):
    """``passcheck run`` of both bases under the planted pass, once: exit code and (case, form) pairs with a finding."""
    pid, report = "planted:lift-keeping-names", tmp_path_factory.mktemp("scope") / "r.json"
    register_pass(FunctionAdapter(pid, lift_keeping_names))
    try:
        code = main(["run", "--case", "scope-names/*", "--pass", pid, "--json", str(report), "-q"])
    finally:
        unregister_pass(pid)
    results = json.loads(report.read_text())["results"]
    return code, {(c["case"], c["form"]) for c in results for f in c["findings"] if f["pass_id"] == pid}


def test_a_pass_lifting_initializers_without_renaming_is_caught_on_the_reused_names(planted_findings):
    code, found = planted_findings
    assert code == 1
    assert found == {(case_id, form) for case_id, forms in INITIALIZER_REUSE.items() for form in forms}


def test_onnx_strict_inference_refuses_a_branch_initializer_named_like_a_later_output():
    """Row 1433 (onnx 1.16.2 … 1.23.2): the outer graph output ``t``'s declared type reaches the subgraph."""
    refused = set()
    for case_id in CASES:
        for name, form in registry().get(case_id).forms.items():
            try:
                onnx.checker.check_model(form.build(), full_check=True)
            except onnx.checker.ValidationError:
                refused.add((case_id, name))
            except onnx.shape_inference.InferenceError:
                refused.add((case_id, name))
    assert refused == {(c, "initializer-as-later-output") for c in CASES}
