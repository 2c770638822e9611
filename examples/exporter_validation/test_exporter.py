"""An exporter author checks each exported model's annotations and numbers under every default pass.

The exported model (and, when torch is installed, a ``torch.onnx.export`` model with a dynamic
batch axis) is judged itself — checker, onnxruntime run, every value_info and output annotation
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


def test_torch_export_with_dynamic_batch(passcheck, tmp_path):
    torch = pytest.importorskip("torch", reason="torch is not installed; the torch.onnx.export variant needs it")
    net = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(32, 8), torch.nn.ReLU(), torch.nn.Linear(8, 3))
    path = tmp_path / "net.onnx"
    torch.onnx.export(net, (torch.randn(2, 2, 4, 4),), str(path), input_names=["x"], output_names=["y"],
                      dynamic_axes={"x": {0: "batch"}, "y": {0: "batch"}}, opset_version=17, dynamo=False)
    passcheck.assert_model_ok(str(path), passes=list(DEFAULT_PASSES))
