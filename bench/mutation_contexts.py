"""One coverage context per test, isolation workers included: the line → tests map of bench/mutation_score.py.

Loaded twice, only when ``bench/mutation_score.py`` builds its map (never by the suite):

- as a **pytest plugin** (``-p mutation_contexts``, ``bench/`` on ``PYTHONPATH``): around each test it
  switches the running coverage to a dynamic context named by the test's node id
  (:meth:`coverage.Coverage.switch_context`, what pytest-cov's ``--cov-context=test`` does), writes
  that node id to the file named by ``$PASSCHECK_MUTATION_CONTEXT`` and, at the end, each test's
  seconds (setup + call + teardown) as JSON to ``$PASSCHECK_MUTATION_DURATIONS``;
- as a **coverage plugin** (``[run] plugins = mutation_contexts``): coverage loads it in every process it
  measures, so also in the isolation workers, which coverage starts measuring through ``[run] patch =
  subprocess`` (a ``.pth`` file and ``COVERAGE_PROCESS_CONFIG``; forked children through ``concurrency
  = multiprocessing``). There it wraps ``passcheck.execution.process.timed``, the one function every
  worker and forked child runs each job through: inside a worker (``PASSCHECK_IN_WORKER``) each job
  runs in the context of the test named in the context file at that moment (a worker outlives the
  test that started it), and the data is saved after the job, because workers end by SIGKILL, never
  through ``atexit``. Coverage writes its SQLite file in place without a journal, so a worker killed
  while it writes there again (a later flush, the save of ``os._exit``, its parent's death) leaves a
  file ``coverage combine`` cannot read, and every job the worker ran before is lost with it: after
  each job's save a complete copy is published under a name of its own (:func:`_seal`, written
  beside and renamed over, so a copy is whole or absent), and combining reads it.

Lines that run at import time carry the empty context: no single test claims them.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import json
import os
import shutil
import sys
from pathlib import Path

#: The file holding the node id of the test running now (written by the pytest side).
CONTEXT_FILE = "PASSCHECK_MUTATION_CONTEXT"
#: Where the pytest side writes ``{node id: seconds}``.
DURATIONS_FILE = "PASSCHECK_MUTATION_DURATIONS"
_TARGET = "passcheck.execution.process"


def _coverage():
    import coverage

    return coverage.Coverage.current()


def _current_test() -> str:
    try:
        return Path(os.environ[CONTEXT_FILE]).read_text()
    except (KeyError, OSError):
        return ""


def _wrap(timed):
    def timed_in_test_context(job, data, workdir):
        cov = _coverage() if os.environ.get("PASSCHECK_IN_WORKER") else None
        if cov is None:
            return timed(job, data, workdir)
        cov.switch_context(_current_test())
        try:
            return timed(job, data, workdir)
        finally:
            cov.switch_context("")
            cov.save()
            _seal(cov)

    return timed_in_test_context


def _seal(cov) -> None:
    """Publish a copy of ``cov``'s data file, as saved now, as ``<data file>.sealed.<pid>`` (one per
    process, replaced after each job; a name ``coverage combine`` reads): complete or absent, since
    it is written under a name combining skips and renamed."""
    live = Path(cov.get_data().data_filename())
    base = Path(cov.config.data_file)
    tmp = base.parent / f"_sealing.{os.getpid()}"
    shutil.copyfile(live, tmp)
    os.replace(tmp, base.parent / f"{base.name}.sealed.{os.getpid()}")


class _Loader(importlib.abc.Loader):
    def __init__(self, inner):
        self.inner = inner

    def create_module(self, spec):
        return self.inner.create_module(spec)

    def exec_module(self, module):
        self.inner.exec_module(module)
        module.timed = _wrap(module.timed)


class _Finder(importlib.abc.MetaPathFinder):
    """Wraps ``timed`` once the process module is imported (the plugin loads before passcheck)."""

    def find_spec(self, name, path, target=None):
        if name != _TARGET:
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is not None and spec.loader is not None:
            spec.loader = _Loader(spec.loader)
        return spec


def coverage_init(reg, options) -> None:  # noqa: ARG001 - coverage's plugin entry point
    """Coverage's plugin hook: install the import hook that wraps ``timed`` (see module docs)."""
    if _TARGET in sys.modules:
        module = sys.modules[_TARGET]
        module.timed = _wrap(module.timed)
    elif not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.insert(0, _Finder())


_durations: dict[str, float] = {}


def _switch(nodeid: str) -> None:
    cov = _coverage()
    if cov is not None:
        cov.switch_context(nodeid)
    if os.environ.get(CONTEXT_FILE):
        Path(os.environ[CONTEXT_FILE]).write_text(nodeid)


def pytest_runtest_protocol(item, nextitem):  # noqa: ARG001 - pytest's hook signature
    _switch(item.nodeid)


def pytest_runtest_logreport(report) -> None:
    _durations[report.nodeid] = _durations.get(report.nodeid, 0.0) + report.duration
    if report.when == "teardown":
        _switch("")


def pytest_sessionfinish(session) -> None:  # noqa: ARG001 - pytest's hook signature
    if os.environ.get(DURATIONS_FILE):
        Path(os.environ[DURATIONS_FILE]).write_text(json.dumps(_durations, indent=0))
