"""On a real onnx 1.21 environment (ci/envs/onnx-1.21.txt: onnxruntime 1.25.1), one transformer's fault hides
another's (docs/recall.md R117): a decomposed LayerNorm over a last axis of 1 whose epsilon holds no element. At
``ort:basic`` NoopElimination removes ``var + eps`` as ``x + 0`` (microsoft/onnxruntime#27976), so the output is
``[2, 1]`` where the model computes ``[2, 0]``; with NoopElimination disabled, the LayerNorm fusion at level 1
(``LayerNormFusionL1``) reads the epsilon's first element and kills the process. ``passcheck attribute`` on the
wrong-result finding names both. Needs the package index (creates the pinned environment)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from passcheck.matrix import create, envs

REPO = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.matrix


def _layernorm_empty_eps() -> onnx.ModelProto:
    f = numpy_helper.from_array
    nodes = [
        helper.make_node("ReduceMean", ["x"], ["m"], axes=[-1]),
        helper.make_node("Sub", ["x", "m"], ["d"]),
        helper.make_node("Pow", ["d", "two"], ["p"]),
        helper.make_node("ReduceMean", ["p"], ["v"], axes=[-1]),
        helper.make_node("Add", ["v", "eps"], ["ve"]),
        helper.make_node("Sqrt", ["ve"], ["s"]),
        helper.make_node("Div", ["d", "s"], ["n"]),
        helper.make_node("Mul", ["n", "g"], ["ng"]),
        helper.make_node("Add", ["ng", "b"], ["y"]),
    ]
    inits = [
        f(np.array(2.0, np.float32), "two"),
        f(np.zeros([0], np.float32), "eps"),  # broadcasts against the [2, 1] variance: [2, 0] (Broadcasting.md)
        f(np.ones([1], np.float32), "g"),
        f(np.zeros([1], np.float32), "b"),
    ]
    g = helper.make_graph(
        nodes,
        "ln",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 1])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 0])],
        inits,
    )
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def _cli(env, *argv, cwd):
    return subprocess.run(
        [str(env.python), "-m", "passcheck", *argv], capture_output=True, text=True, timeout=900, cwd=cwd
    )


def test_attribute_peels_noop_elimination_off_the_layernorm_fusion_it_hid(tmp_path):
    env = create.ensure(envs.load_spec(REPO / "ci" / "envs" / "onnx-1.21.txt"), REPO)
    path = tmp_path / "ln.onnx"
    onnx.save(_layernorm_empty_eps(), path)
    p = _cli(
        env, "check", str(path), "--pass", "ort:basic", "--json", "r.json", "-q", "--progress", "none", cwd=tmp_path
    )
    assert p.returncode == 1, p.stdout + p.stderr
    ids = [f["id"] for c in json.loads((tmp_path / "r.json").read_text())["results"] for f in c.get("findings", [])]
    (wrong,) = [i for i in ids if i.endswith("ort:basic|numeric|wrong-result")]
    p = _cli(env, "attribute", "r.json", "--finding", wrong, cwd=tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "attributed to: NoopElimination (NoopElimination: wrong-result: output 'y': shape [2, 1]" in p.stdout
    assert "hidden under NoopElimination: LayerNormFusionL1: died: onnxruntime killed its process: SIGSEGV" in p.stdout
    assert "checked: with every named transformer disabled the form runs right" in p.stdout
