"""An exporter author checks each exported model's annotations and numbers under every default pass.

The hand-written export below, a scikit-learn pipeline exported by skl2onnx and (in the cached torch
environment, see passcheck.exporters.torch_env) a ``torch.onnx.export`` MLP with a dynamic batch
axis are each judged themselves — checker, onnxruntime run, every value_info and output annotation
against the values seen at run time (seed 000) — and then after each pass.
"""

import pytest
from exporter import BATCH, export_classifier

import passcheck
from passcheck.passes import DEFAULT_PASSES
from passcheck.runtime import all_node_outputs, run_ort, synthesize


def test_exported_annotations_hold_for_two_batch_sizes():
    model = export_classifier()
    for size in (1, 5):
        run = run_ort(model, synthesize(model, {BATCH: size}, seed=size), expose=all_node_outputs(model))
        assert run.error is None, run.error
        report = passcheck.check_annotations(model, run.observed)
        assert report.ok, report.to_json()


@pytest.mark.parametrize("pass_id", DEFAULT_PASSES)
def test_exported_model_under_each_default_pass(passcheck, pass_id):
    passcheck.assert_model_ok(export_classifier(), passes=[pass_id], bind={BATCH: 4})


def test_sklearn_pipeline_export():
    """skl2onnx's export of a scaler + linear model + tree ensemble equals scikit-learn at four batch
    sizes, its annotations hold, and ort:basic agrees on it and on its verified rewrites."""
    pytest.importorskip("skl2onnx", reason="skl2onnx is not installed: pip install 'passcheck[sklearn]'")
    import runpy
    from pathlib import Path

    from passcheck.exporters import check_export

    ns = runpy.run_path(str(Path(__file__).with_name("sklearn_pipeline.py")))
    report = check_export(ns["model"], ns["example_inputs"], exporter="sklearn", passes=["ort:basic"])
    assert report.exit_code == 0, [f.headline() for f in report.findings]


def test_torch_export_with_dynamic_batch(tmp_path):
    """torch.onnx.export (dynamo) of a small MLP with a dynamic batch, through `passcheck check-export`
    in the cached torch environment (torch never enters this one)."""
    import os
    import subprocess
    from pathlib import Path

    from passcheck.exporters import torch_env

    python = torch_env.python()
    if python is None:
        pytest.skip(
            f"no torch env at {torch_env.env_dir()}; make it with `python -m passcheck.exporters.torch_env --build`"
        )
    root = Path(__file__).resolve().parents[2]
    p = subprocess.run(
        [
            str(python),
            "-m",
            "passcheck",
            "check-export",
            str(Path(__file__).with_name("torch_mlp.py")),
            "--exporter",
            "torch-dynamo",
            "--pass",
            "ort:basic",
            "-q",
        ],
        capture_output=True,
        text=True,
        timeout=1800,
        env={**os.environ, "PYTHONPATH": str(root)},
        cwd=tmp_path,
    )
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
