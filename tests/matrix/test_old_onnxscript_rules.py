"""``onnxscript:rule-NAME`` and ``onnxscript:rewrite-opt-in`` on onnxscript 0.3.2 (ci/envs/onnx-1.18.txt), whose
rules live in one module each under ``onnxscript.rewriter`` (``matmul_add_to_gemm``, ``basic_rules``, …) and not in
``rules.common`` (microsoft/onnxscript#2531, 0.5): the rules are read from those modules, the opt-in pass applies
the rules the default rewrite leaves out, and a rule runs on a real model there. Before, both passes had no rule
at all in that environment (the opt-in pass ran an empty list; every ``rule-NAME`` was unavailable). Needs the
package index (creates the pinned environment)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from passcheck.matrix import create, envs

REPO = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.matrix

SCRIPT = r"""
import json
import numpy as np
from onnx import TensorProto, helper, numpy_helper
from passcheck.passes import get_pass, onnxscript_rules as rules

def model(x_type):
    g = helper.make_graph(
        [helper.make_node("MatMul", ["x", "w"], ["mm"]), helper.make_node("Add", ["mm", "b"], ["y"])],
        "g", [x_type], [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3, 5])],
        initializer=[numpy_helper.from_array(np.ones((4, 5), np.float32), "w"),
                     numpy_helper.from_array(np.ones(5, np.float32), "b")],
    )
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)

out = {"exported": sorted(rules.exported()), "opt_in": rules.opt_in()}
a = get_pass("onnxscript:rule-matmul-add-to-gemm")
out["unavailable"] = a.unavailable_reason()
import pathlib
import tempfile
o = a.run(model(helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, 4])), pathlib.Path(tempfile.mkdtemp()))
out["status"], out["error"] = o.status, o.error
m = o.model
out["ops"] = [n.op_type for n in m.graph.node] if m is not None else None
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def on_0_3(tmp_path_factory) -> dict:
    env = create.ensure(envs.load_spec(REPO / "ci" / "envs" / "onnx-1.18.txt"), REPO)
    tmp = tmp_path_factory.mktemp("rules")
    p = subprocess.run(
        [str(env.python), "-c", SCRIPT],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=tmp,
        env={**os.environ, "PASSCHECK_CACHE": str(tmp / "cache")},
    )
    assert p.returncode == 0, p.stderr[-2000:]
    return json.loads(p.stdout.strip().splitlines()[-1])


def test_the_rules_of_the_older_layout_are_read(on_0_3):
    assert {"matmul-add-to-gemm", "transpose-transpose", "gemm-to-matmul-add"} <= set(on_0_3["exported"]), on_0_3
    assert on_0_3["unavailable"] is None


def test_opt_in_holds_what_the_default_rewrite_leaves_out(on_0_3):
    assert "matmul_add_to_gemm_rule" in on_0_3["opt_in"], on_0_3["opt_in"]
    assert "transpose_transpose_rule" not in on_0_3["opt_in"], on_0_3["opt_in"]  # applied by default in 0.3.2


def test_a_rule_of_the_older_layout_rewrites_a_model(on_0_3):
    assert on_0_3["status"] == "changed" and on_0_3["ops"] == ["Gemm"], on_0_3
