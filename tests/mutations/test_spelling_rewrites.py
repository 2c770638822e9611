"""The IR-level spelling rewrites (names, documentation, list order, initializers as inputs, opset
imports, IR version, optional slots, outer-scope constants, model-local functions, graph outputs,
value types, sparse constants, node order in bodies): each one's mutants, all-at-once and at one
site, pass the equivalence gate on the models of ``_spelling_models`` (onnx-wheel models among
them), inside subgraphs and function bodies where the freedom exists there."""

from __future__ import annotations

import numpy as np
import onnx
import pytest

from passcheck.mutations import REWRITES, build_form, verify_equivalent
from passcheck.mutations._base import Rewrite
from passcheck.mutations.registry import MODULES
from passcheck.mutations.subject import verified_mutants

from . import _spelling_models as S
from ._models import feeds, run_planted

NEW_MODULES = {
    "names",
    "docs_meta",
    "list_order",
    "graph_inputs",
    "domains",
    "ir_version",
    "optional_slots",
    "outer_scope",
    "local_functions",
    "graph_outputs",
    "value_types",
    "sparse_constant",
}
NEW = [r.id for r in REWRITES.values() if r.edit.__module__.rsplit(".", 1)[-1] in NEW_MODULES]
NEW.append("reverse-topo-order-bodies")


@pytest.fixture(scope="module")
def models():
    built = {name: build() for name, build in S.BUILDERS.items()}
    return {name: (m, feeds(m)) for name, m in built.items()}


#: Rewrites whose pattern another rewrite (not their inverse) produces in these models.
PREPARE = {"value-info-elem-type-only": "inferred-value-info"}


def _candidates(rid, models):
    """The base models, then each base model's mutant under this rewrite's inverse (for the rewrites
    whose pattern only an earlier rewrite produces: inline after wrap, fold after copy, …)."""
    for name, (m, f) in models.items():
        yield name, m, f
    before = PREPARE.get(rid, REWRITES[rid].inverse)
    for name, (m, f) in models.items():
        if before and (got := REWRITES[before].apply(m)) is not None:
            yield f"{name} after {before}", got[0], f


def test_the_new_modules_are_registered():
    assert {f"passcheck.mutations.{m}" for m in NEW_MODULES} <= set(MODULES)
    assert len(NEW) >= 30


@pytest.mark.parametrize("rid", NEW)
def test_mutants_pass_the_gate_all_at_once_and_at_one_site(rid, models):
    r = REWRITES[rid]
    verified = []
    for name, m, f in _candidates(rid, models):
        got = r.apply(m)
        if got is None:
            continue
        verify_equivalent(m, got[0], f, rid)
        verified.append(name)
        sites = got[1].nodes
        if len(sites) > 1:
            one = r.apply(m, [sites[0]])  # None only when that site alone has nothing to change (node order)
            if one is not None:
                assert one[1].nodes == (sites[0],)
                verify_equivalent(m, one[0], f, f"{rid}@{sites[0]}")
    assert verified, f"{rid} applied to none of the models"


def _graph(m, path):
    """The subgraph at ``path`` (node index, attribute index)… from the main graph."""
    g = m.graph
    for node, attr in path:
        g = g.node[node].attribute[attr].g
    return g


def test_rename_values_renames_subgraph_formals_and_function_locals_not_the_interface(models):
    m = models["bodies"][0]
    mutant, applied = REWRITES["rename-values"].apply(m)
    assert [v.name for v in mutant.graph.input] == ["x", "c"] and [v.name for v in mutant.graph.output] == ["y", "z"]
    body = _graph(mutant, [(3, 0)])
    assert [v.name for v in body.input][1:] != ["c_in", "acc_in"] and "acc_in" in applied.nodes
    assert any(n.input[1].startswith("v") for n in body.node if n.op_type == "Add")  # the outer-scope read follows
    fm = models["function"][0]
    fmut, fapplied = REWRITES["rename-values"].apply(fm)
    assert "SqMinus/sq" in fapplied.nodes and "sq" not in {x for n in fmut.functions[0].node for x in n.input}
    verify_equivalent(fm, fmut, models["function"][1], "rename-values")


def test_body_rewrites_reach_function_bodies(models):
    fm, f = models["function"]
    for rid in ("reverse-topo-order-bodies", "all-empty-optional-inputs", "name-nodes", "output-through-identity"):
        mutant, applied = REWRITES[rid].apply(fm)
        assert any(s.startswith("SqMinus/") for s in applied.nodes), rid
        verify_equivalent(fm, mutant, f, rid)
    clip = next(n for n in REWRITES["all-empty-optional-inputs"].apply(fm)[0].functions[0].node if n.op_type == "Clip")
    assert list(clip.input) == ["s", "", ""]


def test_wrap_then_body_rewrites_then_inline(models):
    m, f = models["wheel:test_PixelShuffle"]
    for form in (
        "node-as-local-function+rename-values",
        "node-as-local-function+unname-nodes",
        "node-as-local-function-defaults+rename-values",
        "node-as-local-function+inline-local-functions",
    ):
        got = build_form(m, form)
        assert got is not None, form
        verify_equivalent(m, got[0], f, form)
    back = build_form(m, "node-as-local-function+inline-local-functions")[0]
    assert [n.op_type for n in back.graph.node] == [n.op_type for n in m.graph.node] and not back.functions
    assert {o.domain for o in back.opset_import} == {o.domain for o in m.opset_import}


def test_hoist_then_sink_moves_body_constants_across_the_scope(models):
    m, f = models["bodies"]
    hoisted, applied = REWRITES["hoist-subgraph-constant"].apply(m)
    assert set(applied.nodes) == {"k", "two"}
    assert {"k", "two"} <= {n.output[0] for n in hoisted.graph.node if n.op_type == "Constant"}
    sunk, back = REWRITES["sink-constant-into-subgraph"].apply(hoisted)
    assert {"k", "two", "one"} <= set(back.nodes)
    verify_equivalent(m, sunk, f, "hoist+sink")


def test_optional_outputs_named_then_unnamed(models):
    m, f = models["optional"]
    named, applied = REWRITES["named-optional-outputs"].apply(m)
    pool = named.graph.node[0]
    assert len(pool.output) == 2 and pool.output[1]  # MaxPool's Indices, computed for nothing
    unnamed, _ = REWRITES["unnamed-optional-outputs"].apply(named)
    assert [list(n.output) for n in unnamed.graph.node] == [list(n.output) for n in m.graph.node]
    verify_equivalent(m, unnamed, f, "named+unnamed")


def test_initializer_as_input_keeps_the_feeds_and_round_trips(models):
    m, f = models["params"]
    mutant, applied = REWRITES["initializer-as-input"].apply(m)
    assert sorted(applied.nodes) == ["k", "w"] and {"k", "w"} <= {v.name for v in mutant.graph.input}
    back, _ = REWRITES["initializer-not-input"].apply(mutant)
    assert [v.name for v in back.graph.input] == ["x"]
    out, _ = REWRITES["initializer-output"].apply(m)
    assert "w_out" in {t.name for t in out.graph.initializer} and "Identity" not in [n.op_type for n in out.graph.node]


def test_ir_version_and_opset_import_spellings(models):
    m, f = models["params"]
    up, _ = REWRITES["ir-version-up"].apply(m)
    down, _ = REWRITES["ir-version-down"].apply(up)
    assert up.ir_version > m.ir_version and 4 <= down.ir_version < up.ir_version  # non-input initializers: IR >= 4
    spelled, _ = REWRITES["opset-import-ai-onnx"].apply(m)
    assert [o.domain for o in spelled.opset_import] == ["ai.onnx"] and {n.domain for n in spelled.graph.node} == {""}


def test_sparse_constant_skips_scalars_and_round_trips(models):
    m, f = models["bodies"]
    sparse, applied = REWRITES["sparse-constant"].apply(m)
    assert list(applied.nodes) == ["one"]  # k, trip and two are scalars
    dense, _ = REWRITES["dense-constant"].apply(sparse)
    t = next(n for n in dense.graph.node if n.output[0] == "one").attribute[0].t
    np.testing.assert_array_equal(onnx.numpy_helper.to_array(t), [1, 2, 0, 3])


def test_untyped_loop_body_inputs_fail_the_full_checker():
    m = S.bodies()  # its own copy: the module's models stay as built
    body = _graph(m, [(3, 0)])
    for v in body.input:
        v.ClearField("type")
    onnx.checker.check_model(m)
    with pytest.raises(onnx.shape_inference.InferenceError):
        onnx.checker.check_model(m, full_check=True)


def test_a_rewrite_that_raises_is_left_out_with_its_reason(models, monkeypatch):
    def broken(model, only=None):
        raise KeyError("planted")

    monkeypatch.setitem(REWRITES, "planted-raise", Rewrite("planted-raise", "raises", broken))
    m, f = models["optional"]
    unverified: dict[str, str] = {}
    found = verified_mutants(m, ["planted-raise", "name-nodes"], f, unverified=unverified)
    assert "name-nodes" in found and "planted-raise" not in found
    assert "raised KeyError" in unverified["planted-raise"]


def test_anonymous_output_dims_a_pass_keeps_as_declared_are_no_finding(models):
    """A form whose outputs say less than the common form's is the form's own annotation: a pass that keeps
    both as declared treats them alike (parity, since session 19; before, this was 'less-precise' whatever
    the pass did, docs/found.md row 25)."""
    from passcheck.engine import Subject
    from passcheck.runtime import default_bindings

    m = models["optional"][0]
    vague, applied = REWRITES["anonymous-output-dims"].apply(m)
    assert applied.nodes and all(
        len(v.type.tensor_type.shape.dim) == len(w.type.tensor_type.shape.dim)
        and not any(d.HasField("dim_value") or d.HasField("dim_param") for d in v.type.tensor_type.shape.dim)
        for v, w in zip(vague.graph.output, m.graph.output)
    )
    onnx.checker.check_model(vague, full_check=True)  # valid: a rank is all a graph output must give
    subject = Subject("vague", {"common": m, "anonymous": vague}, default_bindings(m))
    cells = run_planted(subject, "planted:nothing", lambda model: model)
    kinds = {(c.form, f.kind) for c in cells for f in c.findings}
    assert ("anonymous", "less-precise") not in kinds and not any(c.findings for c in cells if c.form == "common")


def test_raw_data_reaches_subgraph_constants(models):
    m, f = models["bodies"]
    mutant, applied = REWRITES["raw-data"].apply(m)
    assert {"k", "two"} <= set(applied.nodes)  # Constants inside the If branch and the Loop body
    body = _graph(mutant, [(3, 0)])
    assert all(n.attribute[0].t.HasField("raw_data") for n in body.node if n.op_type == "Constant")
    verify_equivalent(m, mutant, f, "raw-data")


def test_raising_the_ir_version_past_4_keeps_initializers_constant(models):
    """Below IR 4 initializers are graph inputs too and read as constants; from IR 4 an initializer
    in the input list is an overridable default. Both rewrites that raise the stamp drop them there."""
    m, f = models["params"]
    old = onnx.ModelProto()
    old.CopyFrom(m)
    old.ir_version = 3
    make = onnx.helper.make_tensor_value_info
    old.graph.input.extend(make(t.name, t.data_type, list(t.dims)) for t in m.graph.initializer)
    for rid in ("ir-version-up", "node-as-local-function"):
        mutant, _ = REWRITES[rid].apply(old)
        assert mutant.ir_version >= 8 and [v.name for v in mutant.graph.input] == ["x"], rid
        verify_equivalent(old, mutant, f, rid)
