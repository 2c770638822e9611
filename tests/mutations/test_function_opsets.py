"""``function-opset-down`` / ``function-opset-up`` (round 19e, M396): a model-local function's ai.onnx import at
another version than the model's, where every op of its body selects the same schema (onnx.proto
FunctionProto.opset_import). The written model passes the full checker and computes the same in onnxruntime; a pass
that merges the function's import into the model's (the function's version winning) is caught by the engine, the
installed onnx inliner is not."""

from __future__ import annotations

import numpy as np
import onnx
import onnx.inliner
import onnxruntime as ort
import pytest

from passcheck.api import check_model
from passcheck.mutations import REWRITES

# ReduceMean-18 reads its axes as an input; at opset 14 (ReduceMean-13) it takes an attribute: a model stamped with
# the function's version is invalid.
SRC = """<ir_version: 8, opset_import: ["" : 18, "local" : 1]>
g (float[2, 3] x) => (float[2, 1] y) {
  t = local.F(x)
  ax = Constant <value = int64[1] {1}> ()
  y = ReduceMean(t, ax)
}
<domain: "local", opset_import: ["" : 18]>
F (a) => (b) { c = Sigmoid(a) b = Add(c, a) }"""
PLANTED = "planted:inline-function-version-wins"


def _versions(model: onnx.ModelProto) -> list[int]:
    return [o.version for o in model.functions[0].opset_import if o.domain in ("", "ai.onnx")]


def _run(model: onnx.ModelProto, x: np.ndarray) -> np.ndarray:
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return sess.run(None, {"x": x})[0]


def _inline_function_version_wins(model: onnx.ModelProto) -> onnx.ModelProto:
    """Inline every model-local function, the model's default-domain import taking the function's version (a merge
    of the two import lists where the function's entry wins)."""
    own = next(o.version for o in model.functions[0].opset_import if o.domain in ("", "ai.onnx"))
    for o in model.opset_import:
        if o.domain in ("", "ai.onnx"):
            o.version = own
    return onnx.inliner.inline_local_functions(model)


@pytest.fixture(scope="module", autouse=True)
def _planted():
    from passcheck.passes import FunctionAdapter, known_pass_ids, register_pass

    if PLANTED not in known_pass_ids():
        register_pass(
            FunctionAdapter(PLANTED, _inline_function_version_wins, doc="test pass: the function's version wins")
        )


def test_down_moves_the_function_import_to_its_ops_newest_schema_and_computes_the_same():
    base = onnx.parser.parse_model(SRC)
    mutant, applied = REWRITES["function-opset-down"].apply(base)
    assert applied.nodes == ("local:F",)
    assert _versions(mutant) == [14]  # Sigmoid-13, Add-14
    assert [o.version for o in mutant.opset_import if o.domain == ""] == [18]  # the model's stamp is kept
    onnx.checker.check_model(mutant, full_check=True)
    x = np.random.default_rng(0).standard_normal((2, 3)).astype(np.float32)
    np.testing.assert_array_equal(_run(mutant, x), _run(base, x))
    back, _ = REWRITES["function-opset-up"].apply(mutant)
    assert _versions(back) == [18]  # up to the model's version here (the highest where the ops keep theirs)


def test_no_site_where_the_body_already_sits_at_its_ops_versions_or_the_schemas_differ():
    at_since = onnx.parser.parse_model(SRC.replace('"" : 18]>\nF', '"" : 14]>\nF'))
    assert REWRITES["function-opset-down"].apply(at_since) is None
    # Relu-14 at the function's 14, Relu-13 at the model's 13: not the same schema, the form would be invalid.
    differ = onnx.parser.parse_model(
        SRC.replace('"" : 18, "local"', '"" : 13, "local"')
        .replace("y = ReduceMean(t, ax)", "y = ReduceMean <axes = [1]> (t)")
        .replace('"" : 18]>\nF', '"" : 14]>\nF')
        .replace("c = Sigmoid(a)", "c = Relu(a)")
    )
    assert REWRITES["function-opset-down"].apply(differ) is None
    assert REWRITES["function-opset-up"].apply(differ) is None


@pytest.mark.parametrize(("pass_id", "found"), [(PLANTED, True), ("onnx:inline-local-functions", False)])
def test_a_pass_that_lets_the_function_version_win_is_reported(pass_id, found):
    """Judged by the real engine on the written form: the planted merge stamps the model 14, where the main graph's
    ReduceMean-18 with an axes input is invalid; onnx's inliner (no conversion) keeps the function and stays right."""
    mutant, _ = REWRITES["function-opset-down"].apply(onnx.parser.parse_model(SRC))
    report = check_model(mutant, [pass_id], isolation=False)
    (cell,) = [c for c in report.cells if c.pass_id == pass_id]
    assert bool(cell.findings) is found, [(f.oracle, f.kind, f.message[:120]) for f in cell.findings]
