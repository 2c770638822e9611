"""``resnet_report``: (path, finding id) of a stored report of ``check --mutations`` on ResNet-50 at ``ort:basic`` (the empty-bias mutant only)."""

from __future__ import annotations

import pathlib

import onnx
import pytest

from passcheck.cli import main

RESNET_FINDING = "model/light_resnet50:empty-optional-input|ort:basic|parity|missed-optimization"


@pytest.fixture(scope="session")
def resnet_report(tmp_path_factory):
    model = pathlib.Path(onnx.__file__).parent / "backend/test/data/light/light_resnet50.onnx"
    path = tmp_path_factory.mktemp("resnet") / "rn.json"
    main(
        [
            "check",
            str(model),
            "--mutations",
            "--form",
            "empty-optional-input",
            "--pass",
            "ort:basic",
            "--json",
            str(path),
            "-q",
        ]
    )
    return path, RESNET_FINDING
