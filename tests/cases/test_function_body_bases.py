"""The function-body bases (``cases/function_body_opsets.py``, M344): every ai.onnx op with a function body at each
opset its body is written for, per element type; the common form of each (float where the op allows it) passes the
checker and has its body expanded by onnx's inliner (``passcheck.coverage.inliner.triggers``, by effect), the forms
agree under onnxruntime, and a run of ``onnx:inline-schema-functions`` shows docs/found.md row 1066 (AffineGrid-20)
and row 120's omitted default on a body written for a later opset (Elu-6 at opset 18)."""

from __future__ import annotations

import numpy as np
import onnx
import onnx.defs
import onnxruntime as ort
import pytest

from passcheck.cases import registry
from passcheck.runtime.feeds import synthesize

FAMILY = "function-body/"
#: row 1066: onnx's inliner cannot expand AffineGrid-20 in any spelling (its body's CastLike inside an If branch).
NEVER_INLINED = {"AffineGrid@20"}
#: the checker refuses the recipe's node (outputs it gives no shape; the generated set's gate drops it too:
#: `generate --stats` "checker rejects common").
REFUSED = {"causalconvwithstate-27.opset-27.float"}


def _cases():
    """This family's cases by name, its source alone loaded (``select``): the parametrize lists read it at
    collection, in every xdist worker, where claiming every gated family cost more CPU than the family itself."""
    return {c.id[len(FAMILY) :]: c for c in registry().select([FAMILY + "*"])}


def _module():
    import sys

    _cases()  # imports the family's module (a lazy source: passcheck.cases.sources.GatedModule)
    return next(m for n, m in sys.modules.items() if n.endswith("function_body_opsets"))


def _one_per_body():
    """(schema-opset) → the float case, else the first, for each schema and opset."""
    out = {}
    for name in sorted(_cases()):
        key = name.rsplit(".", 1)[0]
        if key not in out or name.endswith(".float"):
            out[key] = name
    return sorted(out.values())


def test_the_family_reaches_every_body_opset_of_every_function_schema_with_a_recipe():
    from passcheck.coverage.inliner import catalogue

    body_opsets = _module().body_opsets

    names = set(_cases())
    reached = {f"{n.split('.')[0].rsplit('-', 1)[0]}@{n.split('.')[0].rsplit('-', 1)[1]}" for n in names}
    wanted = {e.name.lower() for e in catalogue() if e.kind == "function" and "." not in e.name.split("@")[0]}
    # no recipe: LinearAttention's required kv_num_heads, SequenceMap's body graph (`generate --stats`); the others
    # have one spelling only (no defaulted attribute, no constant operand, body at their own opset): generated bases
    # the gate (onnxruntime cannot run the node: SwiGLU-28, CausalConvWithState-27, Bernoulli's random values;
    # the reference evaluator refuses CastLike-24/25) leaves these out on onnxruntime 1.32 / onnx 1.23.2
    gated = {"swiglu@28", "causalconvwithstate@27", "bernoulli@15", "bernoulli@22", "castlike@24", "castlike@25"}
    for entry in wanted - reached - {"linearattention@27", "sequencemap@17"} - gated:
        op, since = entry.split("@")
        schema = next(
            s
            for s in onnx.defs.get_all_schemas_with_history()
            if s.name.lower() == op and s.since_version == int(since)
        )
        assert not [a for a in schema.attributes.values() if not a.required and a.default_value.type], entry
        assert [v for v, _ in body_opsets(schema)] == [schema.since_version], entry
    assert {"elu@6", "softplus@1", "castlike@15", "affinegrid@20", "leakyrelu@16"} <= reached
    # a body written for a later opset than the schema's own, and one older than the schema
    assert {
        "elu-6.opset-18.float",
        "softplus-1.opset-18.float",
        "shrink-9.opset-18.int32",
        "elu-22.opset-22.float",
    } <= names
    assert "elu-6.opset-6.float" not in names  # no body is written for opset 6
    assert set(_cases()["elu-6.opset-18.float"].forms) == {"common", "defaults-omitted", "before-body"}
    assert set(_cases()["castlike-19.opset-19.float"].forms) == {"common", "defaults-omitted", "initializers"}


@pytest.mark.parametrize("name", _one_per_body())
def test_the_common_form_is_valid_and_the_inliner_expands_its_body(name):
    from passcheck.coverage.inliner import triggers

    case = _cases()[name]
    model = case.forms["common"].build()
    if name not in REFUSED:
        onnx.checker.check_model(model, full_check=True)
    node = next(n for n in model.graph.node if n.op_type != "Constant")
    since = onnx.defs.get_schema(node.op_type, case.opset, "").since_version
    entry = f"{node.op_type}@{since}"
    fired = f"onnx-inliner:function:{entry}" in triggers(model)
    assert fired != (entry in NEVER_INLINED), name


@pytest.mark.parametrize(
    "name",
    ["elu-6.opset-18.float", "shrink-9.opset-18.float", "softplus-1.opset-18.float", "castlike-19.opset-19.float"],
)
def test_the_forms_agree_under_onnxruntime(name):
    case = _cases()[name]
    models = [case.forms[f].build() for f in case.forms]
    feeds = synthesize(models[0], {}, 0)
    got = [
        ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)[0]
        for m in models
    ]
    for g in got[1:]:
        np.testing.assert_allclose(g, got[0], rtol=1e-6, atol=1e-6)


def test_a_run_of_the_schema_inliner_shows_row_1066_and_row_120_on_a_later_body():
    from passcheck import api

    report = api.run(
        [FAMILY + n for n in ("affinegrid-20.opset-20.float", "elu-6.opset-18.float", "softplus-1.opset-18.float")],
        ["onnx:inline-schema-functions"],
        isolation=False,
    )
    seen = {(f.case[len(FAMILY) :], f.form) for f in report.findings if f.pass_id == "onnx:inline-schema-functions"}
    assert ("affinegrid-20.opset-20.float", "common") in seen  # row 1066: every spelling
    assert ("elu-6.opset-18.float", "defaults-omitted") in seen  # row 120: alpha's default not bound
    assert ("elu-6.opset-18.float", "common") not in seen  # written out, the body inlines
    assert not any(c.startswith("softplus") for c, _ in seen)
