"""``resnet_report``: (path, finding id) of a stored report of ``check --mutations`` on ResNet-50 at ``ort:basic``
(the empty-bias mutant only)."""

from __future__ import annotations

import pathlib

import onnx
import pytest

from passcheck.cli import main
from tests._shared import built_once

RESNET_FINDING = "model/light_resnet50:empty-optional-input|ort:basic|parity|missed-optimization"


def _check(folder: pathlib.Path) -> None:
    model = pathlib.Path(onnx.__file__).parent / "backend/test/data/light/light_resnet50.onnx"
    path = folder / "rn.json"
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


@pytest.fixture(scope="session")
def resnet_report(tmp_path_factory):
    """Built once per test run and shared by the xdist workers (tests/_shared.py): read it, never write it."""
    folder, _ = built_once(tmp_path_factory, "upstream-resnet-report", _check)
    return folder / "rn.json", RESNET_FINDING
