"""Fixtures the catalogue tests share: one isolation worker and one coverage cache folder per module."""

from __future__ import annotations

import pytest

from passcheck.passes.isolation import IsolatedExecutor


@pytest.fixture(scope="module")
def executor():
    with IsolatedExecutor(timeout=300) as ex:
        yield ex


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("coverage-cache")
