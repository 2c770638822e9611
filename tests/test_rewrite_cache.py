"""tests/_rewrite_cache.py: the xdist controller writes the rewritten-assertion pyc pytest's import hook reads, once
for every worker."""

from __future__ import annotations

import sys
import types

import pytest
from _pytest.assertion import rewrite

from tests import _rewrite_cache, conftest

SOURCE = "def test_it():\n    x = 3\n    assert x == 4\n"


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """A folder of a test module, a conftest and a helper; bytecode kept (the suite may run with it off) in a
    pycache prefix of its own."""
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    monkeypatch.setattr(sys, "pycache_prefix", str(tmp_path / "pyc"))
    (tmp_path / "pkg").mkdir()
    for name in ("test_sample.py", "conftest.py", "helper.py"):
        (tmp_path / "pkg" / name).write_text(SOURCE)
    return tmp_path / "pkg"


def _pyc(fn):
    return rewrite.get_cache_dir(fn) / (fn.name[:-3] + rewrite.PYC_TAIL)


def test_modules_are_the_test_files_and_conftests_or_what_is_named(folder):
    pats = ["test_*.py", "*_test.py"]
    assert _rewrite_cache.modules([str(folder)], pats) == [folder / "conftest.py", folder / "test_sample.py"]
    assert _rewrite_cache.modules([f"{folder / 'helper.py'}::test_it"], pats) == [folder / "helper.py"]
    assert _rewrite_cache.modules([str(folder / "missing")], pats) == []


def test_the_written_pyc_holds_the_rewritten_asserts_and_is_written_once(folder, pytestconfig):
    fn = folder / "test_sample.py"
    assert rewrite._read_pyc(fn, _pyc(fn)) is None
    assert _rewrite_cache.write(pytestconfig, [fn]) == 1
    co = rewrite._read_pyc(fn, _pyc(fn))  # what the import hook reads: checked against the source's hash
    assert co is not None
    ns: dict = {}
    exec(co, ns)
    with pytest.raises(AssertionError) as e:
        ns["test_it"]()
    assert "assert 3 == 4" in str(e.value)  # pytest's explanation: the rewritten assert, not a bare one
    assert _rewrite_cache.write(pytestconfig, [fn]) == 0  # already there for this source
    fn.write_text(SOURCE.replace("4", "5"))
    assert _rewrite_cache.write(pytestconfig, [fn]) == 1  # a changed source is written again


def test_nothing_is_written_when_bytecode_is_not_kept(folder, pytestconfig, monkeypatch):
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    fn = folder / "test_sample.py"
    assert _rewrite_cache.write(pytestconfig, [fn]) == 0 and not _pyc(fn).exists()


def test_the_controller_writes_before_the_workers_start_and_a_worker_does_not(folder, pytestconfig):
    def session(workerinput: bool, xdist: bool = True):
        config = types.SimpleNamespace(
            pluginmanager=types.SimpleNamespace(has_plugin=lambda name: xdist and name == "dsession"),
            args=[str(folder)],
            getini=lambda name: ["test_*.py"],
            stash=pytestconfig.stash,
        )
        if workerinput:
            config.workerinput = {}
        return types.SimpleNamespace(config=config)

    fn = folder / "test_sample.py"
    conftest.pytest_sessionstart(session(workerinput=True))
    conftest.pytest_sessionstart(session(workerinput=False, xdist=False))
    assert not _pyc(fn).exists()
    conftest.pytest_sessionstart(session(workerinput=False))
    assert rewrite._read_pyc(fn, _pyc(fn)) is not None
    assert rewrite._read_pyc(folder / "conftest.py", _pyc(folder / "conftest.py")) is not None
