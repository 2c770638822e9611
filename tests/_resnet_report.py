"""The stored report of ``passcheck check --mutations --form empty-optional-input --pass ort:basic`` on the
ResNet-50 the onnx wheel ships (light/light_resnet50.onnx): built once per test run and shared by the xdist
workers (tests/_shared.py). tests/upstream attributes and reduces its finding; tests/engine reads the fusions
of its ``common`` form."""

from __future__ import annotations

from pathlib import Path

import onnx
import pytest

from passcheck.cli import main
from tests._shared import built_once

RESNET = Path(onnx.__file__).parent / "backend/test/data/light/light_resnet50.onnx"
RESNET_FINDING = "model/light_resnet50:empty-optional-input|ort:basic|parity|missed-optimization"


def _check(folder: Path) -> None:
    argv = ["check", str(RESNET), "--mutations", "--form", "empty-optional-input", "--pass", "ort:basic"]
    main([*argv, "--json", str(folder / "rn.json"), "-q"])


def resnet_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The report's JSON file (read it, never write it)."""
    folder, _ = built_once(tmp_path_factory, "upstream-resnet-report", _check)
    return folder / "rn.json"
