"""`check` gives a verdict on the real models the onnx wheel ships, with every default pass.

Every pytorch-converted model runs, and one light CNN per architecture: Inception-v1, ShuffleNet (residual, with
BatchNormalization), SqueezeNet, DenseNet-121. The rest are left to the sweep in scripts/check_shipped_models.py: all
light models are caffe2 exports whose weights are ConstantOfShape outputs, which folding materializes (AlexNet:
243.9 MB), so each pass output is checked, run and piped at full size. Under coverage (isolation workers
included; one process each, load 16-19) the default-pass checks of AlexNet (263 s), ResNet-50 (206 s) and
Inception-v2 (221 s) run no line of passcheck that Inception-v1 (67 s), ShuffleNet (93 s) and SqueezeNet (43 s)
do not, but one: the eviction of a model beyond the worker's kept-model budget, which
tests/passes/test_isolated_runs.py asserts on its own. DenseNet-121 (269 s) adds no line either but stays: its
own architecture, and the one kept model whose BatchNormalization is spelled Unsqueeze, Mul and Add. VGG-19 and
ZFNet-512 are AlexNet's family. ResNet-50's fusions at ``ort:basic`` are still asserted, on the report
tests/upstream shares (tests/_resnet_report.py).

The checks of one xdist worker share one isolation worker, as ``passcheck run`` shares one across its cases: a
fresh one per check (what ``check_model`` starts when given no executor) cost about 1.2 s of CPU each to import
onnx, onnxruntime and onnxscript, most of a one-node model's check.
"""

from __future__ import annotations

import pickle
from collections import Counter
from pathlib import Path

import onnx
import pytest

from passcheck.api import check_model
from passcheck.passes import DEFAULT_PASSES
from passcheck.passes.isolation import IsolatedExecutor
from passcheck.report import read_report
from tests._resnet_report import resnet_report
from tests._shared import built_once

DATA = Path(onnx.__file__).parent / "backend/test/data"
SWEPT = {
    "light_bvlc_alexnet.onnx",
    "light_vgg19.onnx",
    "light_zfnet512.onnx",
    "light_resnet50.onnx",
    "light_inception_v2.onnx",
}
MODELS = [p for p in sorted(DATA.glob("light/*.onnx")) if p.name not in SWEPT] + sorted(
    DATA.glob("pytorch-converted/*/model.onnx")
)


def _id(p: Path) -> str:
    return p.parent.name if p.name == "model.onnx" else p.stem


@pytest.fixture(scope="module")
def executor():
    """check_model's own executor (default limits), kept for the module; its process starts at the first job."""
    with IsolatedExecutor() as ex:
        yield ex


def _checked(path: Path, tmp_path_factory, executor):
    """``check_model(path)`` with every default pass, run once per test run and shared by the xdist workers
    (tests/_shared.py): several tests assert on one run."""

    def run(folder: Path) -> None:
        (folder / "report.pickle").write_bytes(pickle.dumps(check_model(path, executor=executor)))

    folder, _ = built_once(tmp_path_factory, f"shipped-check-{_id(path)}", run)
    return pickle.loads((folder / "report.pickle").read_bytes())


@pytest.mark.parametrize("path", MODELS, ids=_id)
def test_check_gives_a_verdict(path, tmp_path_factory, executor):
    report = _checked(path, tmp_path_factory, executor)
    assert {c.pass_id for c in report.cells} == {"input", *DEFAULT_PASSES}
    for c in report.cells:
        assert c.status in ("changed", "unchanged", "declined", "crashed", "unavailable"), c
        assert c.verdict in ("ok", "findings", "unavailable", "unchecked")
        if c.status == "unavailable":  # only outside what the tool documents it supports, with the reason
            assert c.pass_id == "ort:symbolic-shape-infer" and "opset 7 and above" in c.error and not c.findings, c
        if c.verdict == "unchecked":  # e.g. onnxruntime cannot run the model itself: nothing to compare with
            assert c.unchecked and all(why for why in c.unchecked.values()) and report.exit_code == 1
        for f in c.findings:
            assert f.message and "\n" not in f.message and len(f.message) < 1200, f.message
            assert f.repro.startswith("passcheck check ")
    # Passes that must not rewrite the computation: shape inference keeps every node; the session
    # onnxruntime saves unoptimized keeps every node but Constants (it holds them as initializers).
    model = onnx.load(path, load_external_data=False)
    ops = Counter(n.op_type if n.domain in ("", "ai.onnx") else f"{n.domain}::{n.op_type}" for n in model.graph.node)
    for pid, kept in (("onnx:infer-shapes", ops), ("ort:disabled", ops - Counter({"Constant": ops["Constant"]}))):
        cell = next(c for c in report.cells if c.pass_id == pid)
        if cell.status in ("changed", "unchanged"):
            assert Counter(cell.ops_after) == kept and cell.nodes_before == len(model.graph.node), (pid, cell.ops_after)


def test_resnet50_fuses_every_batchnorm_at_basic(tmp_path_factory):
    cells, _ = read_report(resnet_report(tmp_path_factory))
    cell = next(c for c in cells if c.form == "common" and c.pass_id == "ort:basic")
    assert cell.nodes_before == 415
    assert "BatchNormalization" not in cell.ops_after and cell.ops_after.get("Conv") == 53
