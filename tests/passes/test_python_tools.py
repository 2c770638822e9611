"""onnxsim, onnxslim and onnxoptimizer through their Python API (issue 30: fast external tools):
each runs in the isolation worker like a built-in pass and is judged by the same oracles; a tool
that is not installed is ``unavailable`` with the install command."""

from __future__ import annotations

import pytest
from onnx import parser

from passcheck.api import check_model
from passcheck.passes import get_pass
from tests.passes._helpers import script_apply

# A foldable constant branch and an Identity every one of these tools removes.
MODEL = parser.parse_model("""<ir_version: 8, opset_import: ["" : 17]>
g (float[N, 4] x) => (float[N, 4] y) {
  c = Constant <value = float[4] {1, 2, 3, 4}> ()
  d = Add (c, c)
  i = Identity (x)
  y = Add (i, d)
}""")
FORM = parser.parse_model("""<ir_version: 8, opset_import: ["" : 17]>
g (float[N, 4] x) => (float[N, 4] y) {
  d = Constant <value = float[4] {2, 4, 6, 8}> ()
  y = Add (x, d)
}""")

TOOLS = [("onnxsim:simplify", "onnxsim"), ("onnxslim:slim", "onnxslim"), ("onnxoptimizer:optimize", "onnxoptimizer")]


@pytest.mark.parametrize(("pass_id", "module"), TOOLS)
def test_the_python_api_pass_runs_isolated_and_is_judged(pass_id, module):
    pytest.importorskip(module)
    report = check_model(MODEL, [pass_id], forms={"folded": FORM}, name=f"tools/{module}")
    cells = {c.form: c for c in report.cells if c.pass_id == pass_id}
    for c in cells.values():
        assert c.status in ("changed", "unchanged"), (c.status, c.error)
        assert c.versions.get(module), c.versions  # the exact tool version is recorded
        assert not [f for f in c.findings if f.kind in ("wrong-result", "invalid-model", "rejected")], c.findings
    assert cells["common"].nodes_after < cells["common"].nodes_before  # the tool did its job on the common form


def test_a_tool_that_is_not_installed_is_unavailable_with_the_install_command(monkeypatch):
    import passcheck.passes._base as base

    adapter = get_pass("onnxslim:slim")
    monkeypatch.setattr(base, "tool_version", lambda name: None)
    reason = adapter.why_not(MODEL)
    assert reason == "onnxslim is not installed (pip install onnxslim)"


@pytest.mark.parametrize(("pass_id", "module"), TOOLS)
def test_a_reproducer_calls_the_tool_as_its_adapter_does(pass_id, module, tmp_path):
    """The ``apply`` a standalone script embeds (:func:`passcheck.repro.tools.tool_call`) gives the model the
    adapter gives, and the script needs the tool's package and prints its version."""
    import onnx

    from passcheck.repro.tools import VERSIONED_EXTRAS, tool_call

    pytest.importorskip(module)
    call = tool_call(pass_id)
    assert call is not None and call.needs == (module,) and module in VERSIONED_EXTRAS, call
    ours = script_apply(call)(onnx.ModelProto.FromString(MODEL.SerializeToString()))
    theirs = get_pass(pass_id).apply(onnx.ModelProto.FromString(MODEL.SerializeToString()), tmp_path)
    assert ours.graph.SerializeToString(deterministic=True) == theirs.graph.SerializeToString(deterministic=True)
