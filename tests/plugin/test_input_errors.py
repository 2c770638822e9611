"""Round 19j (session 40): a user's input error in a plugin test fails it with one line, not a traceback."""

from __future__ import annotations

import textwrap

import onnx  # noqa: F401 - loaded here so in-process pytester runs never re-import the C extensions
import onnxruntime  # noqa: F401 - a second import after pytester drops it from sys.modules segfaults

pytest_plugins = ["pytester"]

MODEL = """
import onnx
from onnx import TensorProto, helper


def _model(path):
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 4])
    m = helper.make_model(helper.make_graph([helper.make_node("Relu", ["x"], ["y"])], "g", [x], [y]),
                          opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    onnx.save(m, str(path))
    return str(path)
"""


def test_an_input_error_fails_the_test_with_its_one_line(pytester):
    """``bind={"batch": 4}`` on a model whose symbol is ``N``, an unknown pass and a missing model file: each a
    :class:`~passcheck.errors.PasscheckError` that the CLI prints in one line (exit 2); the plugin printed a
    traceback through ``api.py`` and ``feeds.py`` for it. A well-formed call on the same model still passes."""
    pytester.makepyfile(
        test_user=MODEL
        + textwrap.dedent(
            """
            def test_bind(passcheck, tmp_path):
                passcheck.assert_model_ok(_model(tmp_path / "m.onnx"), passes=["ort:basic"], bind={"batch": 4})

            def test_pass(passcheck, tmp_path):
                passcheck.assert_model_ok(_model(tmp_path / "m.onnx"), passes=["nosuch:pass"])

            def test_missing(passcheck, tmp_path):
                passcheck.assert_model_ok(str(tmp_path / "nope.onnx"), passes=["ort:basic"])

            def test_case(passcheck):
                passcheck.assert_pass_ok("ort:basic", "no-such/case")

            def test_fine(passcheck, tmp_path):
                passcheck.assert_model_ok(_model(tmp_path / "m.onnx"), passes=["ort:basic"], bind={"N": 4})
            """
        )
    )
    result = pytester.runpytest("-p", "no:randomly", "-p", "no:cacheprovider", "-n", "0")
    result.assert_outcomes(failed=4, passed=1)
    text = result.stdout.str()
    assert "passcheck.assert_model_ok: --bind batch: the model's inputs have no symbolic dim 'batch'" in text
    assert "passcheck.assert_model_ok: unknown pass id 'nosuch:pass'" in text
    assert "passcheck.assert_model_ok: " in text and "nope.onnx: no such file" in text
    assert "passcheck.assert_pass_ok: unknown case id 'no-such/case'" in text
    for internal in ("passcheck/api.py", "passcheck/runtime/feeds.py", "raise FeedError", "Traceback"):
        assert internal not in text, internal
