"""A reproducer's reference is the model as given, whatever the tool does to it (M236), and a broken other form
is a failed premise said as such (M237).

onnxslim's ``slim(model)`` edits the ModelProto it is given (drops an overridable initializer's graph input, rewrites
the opset imports): a script that applied the tool and then ran or checked ``model`` compared the output with the
tool's own edit, and triage said "not reproduced" (round 13i: 3 of its 4). Scripts are run with this interpreter,
isolated (``-I``, no PYTHONPATH). Planted break: ``applied`` returning ``apply(model)`` without the copy fails 3 of 5.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys

import numpy as np
import pytest
from onnx import helper, numpy_helper

from passcheck.records import Finding
from passcheck.repro import generic
from passcheck.repro.claims import claim
from passcheck.repro.tools import ToolCall, tool_call

#: Drops the graph input ``k`` from the model it is given and returns that model (an in-place edit).
DROPS_K_IN_PLACE = ToolCall(
    """def apply(model):
    keep = [v for v in model.graph.input if v.name != "k"]
    del model.graph.input[:]
    model.graph.input.extend(keep)
    return model
""",
    "a planted pass reading the default as a constant, in place",
)
#: The same edit on a copy: the input as given.
DROPS_K_ON_A_COPY = ToolCall(
    DROPS_K_IN_PLACE.source.replace(
        "    keep =", "    given = model\n    model = onnx.ModelProto()\n    model.CopyFrom(given)\n    keep ="
    ),
    "the planted pass on a copy",
)


def _run(text, tmp_path):
    path = tmp_path / "s.py"
    path.write_text(text)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return subprocess.run(
        [sys.executable, "-I", str(path)], capture_output=True, text=True, timeout=300, cwd=tmp_path, env=env
    )


def _mul_default(ir_version=8, shape=()):
    """y = Mul(x, k), ``k`` a graph input with an initializer (IR.md §Graphs: an overridable default)."""
    g = helper.make_graph(
        [helper.make_node("MatMul" if shape else "Mul", ["x", "k"], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", 1, [2, 3]), helper.make_tensor_value_info("k", 1, list(shape))],
        [helper.make_tensor_value_info("y", 1, [2, shape[-1]] if shape else [2, 3])],
        [numpy_helper.from_array(np.full(shape, 2.0, np.float32), "k")],
    )
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=ir_version)


def _numeric(pass_id):
    return Finding("wrong-result", "numeric", "planted/mul-default", "vary:default-fed@k", pass_id, "m")


FEEDS = [{"x": np.arange(6, dtype=np.float32).reshape(2, 3) - 2, "k": np.array(3.0, np.float32)}]


@pytest.mark.parametrize("call", [DROPS_K_IN_PLACE, DROPS_K_ON_A_COPY], ids=["in-place", "copy"])
def test_a_numeric_script_compares_with_the_model_as_given(call, tmp_path):
    f = _numeric("planted:fold")
    text, _ = generic.script(f, claim(f), call, None, _mul_default(), FEEDS)
    r = _run(text, tmp_path)
    assert r.returncode == 1 and "BUG: output 'y' (binding 0)" in r.stdout, r.stdout + r.stderr


@pytest.mark.skipif(importlib.util.find_spec("onnxslim") is None, reason="onnxslim not installed")
def test_onnxslims_in_place_edit_no_longer_hides_its_wrong_result(tmp_path):
    """Real onnxslim on MatMul(x, k) with ``k`` fed another value: it drops the graph input ``k`` (folds the
    default), in the model it is given too."""
    model = _mul_default(shape=(3, 4))
    feeds = [{"x": FEEDS[0]["x"], "k": np.arange(12, dtype=np.float32).reshape(3, 4)}]
    f = _numeric("onnxslim:slim")
    text, _ = generic.script(f, claim(f), tool_call("onnxslim:slim"), None, model, feeds)
    r = _run(text, tmp_path)
    assert r.returncode == 1 and "differs from the unoptimized model" in r.stdout, r.stdout + r.stderr


def test_a_validity_script_checks_the_input_as_given(tmp_path):
    """IR 3: every initializer must be a graph input (IR.md); the planted pass drops ``k``'s in place."""
    f = Finding("invalid-model", "validity", "planted/mul-default", "common", "planted:fold", "m")
    text, _ = generic.script(f, claim(f), DROPS_K_IN_PLACE, None, _mul_default(ir_version=3))
    r = _run(text, tmp_path)
    assert r.returncode == 1 and "k in initializer but not in graph input" in r.stdout, r.stdout + r.stderr


def test_a_parity_script_whose_other_form_the_pass_breaks_says_the_premise_failed(tmp_path):
    """The pass's output of OTHER reads a value nothing produces (round 13i's #49: onnxoptimizer's row-2 fold made
    an Expand shape invalid): no optimization was missed; exit 2 with the premise named, not a bare run error."""
    breaks = ToolCall(
        """def apply(model):
    out = onnx.ModelProto()
    out.CopyFrom(model)
    out.graph.node[0].input[1] = "nowhere"
    return out
""",
        "a planted pass breaking its output",
    )
    f = Finding(
        "missed-optimization",
        "parity",
        "planted/mul-default",
        "uncommon",
        "planted:break",
        "m",
        details={"other_form": "common", "kept_op_types": ["Mul"]},
    )
    model = _mul_default()
    text, _ = generic.script(f, claim(f), breaks, model, model, FEEDS)
    r = _run(text, tmp_path)
    assert r.returncode == 2, r.stdout + r.stderr
    assert "premise fails: planted:break's output of common fails to run where its input runs" in r.stderr
