"""Exporter validation with torch.onnx.export (dynamo and TorchScript), run in the cached torch env
(:mod:`passcheck.exporters.torch_env`) through ``passcheck check-export``; skipped with the reason
when that env does not exist. ``PASSCHECK_BUILD_TORCH_ENV=1`` builds it first (minutes, ~1.1 GB)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from passcheck.exporters import torch_env

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "exporter_validation"


@pytest.fixture(scope="module")
def torch_python():
    exe = torch_env.python()
    if exe is None and os.environ.get("PASSCHECK_BUILD_TORCH_ENV") == "1":
        exe, _s, _mb = torch_env.build()
    if exe is None:
        pytest.skip(
            f"no torch env at {torch_env.env_dir()}: torch is large and never in passcheck's own env; "
            "make it with `python -m passcheck.exporters.torch_env --build` or set PASSCHECK_BUILD_TORCH_ENV=1"
        )
    return exe


def _check_export(python, file, *args, tmp_path):
    out = tmp_path / "r.json"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}  # this checkout's passcheck, whatever the env has installed
    p = subprocess.run(
        [str(python), "-m", "passcheck", "check-export", str(file), *args, "--json", str(out), "-q"],
        capture_output=True,
        text=True,
        timeout=1800,
        env=env,
        cwd=tmp_path,
    )
    assert p.returncode in (0, 1), p.stdout[-3000:] + p.stderr[-3000:]
    cells = json.loads(out.read_text())["results"]
    export = [f for c in cells if c["pass_id"] == "export" for f in c["findings"]]
    return p, cells, export


@pytest.mark.slow
@pytest.mark.parametrize("exporter", ["torch-dynamo", "torchscript"])
@pytest.mark.parametrize("name", ["mlp", "cnn", "transformer", "lstm"])
def test_real_torch_exports_match_eager_at_every_batch(torch_python, tmp_path, name, exporter):
    p, cells, export = _check_export(
        torch_python,
        EXAMPLES / f"torch_{name}.py",
        "--exporter",
        exporter,
        "--pass",
        "ort:basic",
        "--no-mutations",
        tmp_path=tmp_path,
    )
    if (name, exporter) == ("transformer", "torchscript"):  # docs/findings.md: the TorchScript exporter fails on it
        assert [(f["kind"], f["oracle"]) for f in export] == [("rejected", "exporter")]
        assert (
            "is_causal" in export[0]["message"]
            and "torchscript could not export the model: nothing else was checked" in p.stdout
        )
        return
    assert export == [], export
    assert {c["pass_id"] for c in cells} == {"export", "input", "ort:basic"}
    assert all(c["verdict"] == "ok" for c in cells if c["pass_id"] == "input"), p.stdout[-3000:]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "plant", "kind"),
    [
        ("mlp", "fixed_batch", "annotation-violated"),
        ("mlp", "drop_bias", "wrong-result"),  # Gemm bias (TorchScript writes Linear as Gemm)
        ("cnn", "drop_bias", "wrong-result"),  # Conv bias
    ],
)
def test_planted_exporter_bugs_are_caught_on_torch_exports(torch_python, tmp_path, name, plant, kind):
    f = tmp_path / f"bad_{name}.py"
    f.write_text(
        f"import runpy\nfrom passcheck.exporters.planted import {plant} as corrupt\n"
        f"ns = runpy.run_path({str(EXAMPLES / f'torch_{name}.py')!r})\nmodel, example_inputs = ns['model'], ns['example_inputs']\n"
    )
    p, _cells, export = _check_export(
        torch_python, f, "--exporter", "torchscript", "--pass", "ort:basic", "--no-mutations", tmp_path=tmp_path
    )
    assert p.returncode == 1
    assert export and {(x["oracle"], x["kind"]) for x in export} == {("exporter", kind)}, export
