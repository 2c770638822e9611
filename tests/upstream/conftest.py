"""``resnet_report``: (path, finding id) of a stored report of ``check --mutations`` on ResNet-50 at ``ort:basic``
(the empty-bias mutant only; tests/_resnet_report.py)."""

from __future__ import annotations

import pytest

from tests import _resnet_report


@pytest.fixture(scope="session")
def resnet_report(tmp_path_factory):
    """Built once per test run and shared by the xdist workers (tests/_shared.py): read it, never write it."""
    return _resnet_report.resnet_report(tmp_path_factory), _resnet_report.RESNET_FINDING
