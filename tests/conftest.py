"""Suite-wide hooks: the xdist workers run the slowest tests first (tests/_schedule.py)."""

from __future__ import annotations

import os

# One OpenBLAS thread per process: the xdist workers (and every process a test starts) inherit this, set here in
# the controller before it starts them. Each of 6 workers on 2 cores otherwise runs numpy's matrix products on
# a pool of cpu_count threads that wait for each other busily (the reference evaluator's Conv, a matmul per node:
# 65 -> 44 CPU-s for test_backend_models' light-net parts). setdefault: a run may ask for more.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
# The disk cache of a base's rewrite listing (passcheck.mutations.listing) is off in the suite but in the tests that
# turn it on: a test that patches a rewrite's helper in process changes none of its key and would write (or read) a
# listing under the real key. setdefault: a run may turn it on.
os.environ.setdefault("PASSCHECK_FORMS_CACHE", "0")

import pytest  # noqa: E402

# In-process pytester runs drop from sys.modules every module first imported inside them. The shared
# template process (a global of this module) must be the one later tests see: imported here, it is
# never first imported inside such a run (a worker whose first check ran in one failed to pickle
# template_main afterwards: "not the same object").
import passcheck.execution.template  # noqa: E402, F401
from tests import _rewrite_cache, _schedule  # noqa: E402


@pytest.hookimpl(tryfirst=True)  # before xdist's DSession starts the workers (its sessionstart is trylast)
def pytest_sessionstart(session: pytest.Session) -> None:
    """pytest-xdist (controller): the test modules' assertions rewritten once for all workers (tests/_rewrite_cache)."""
    config = session.config
    if config.pluginmanager.has_plugin("dsession") and not hasattr(config, "workerinput"):
        _rewrite_cache.write(config, _rewrite_cache.modules(config.args, config.getini("python_files")))


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node) -> None:
    """pytest-xdist (controller): tell the workers the scheduler, which their own config says is ``no``."""
    node.workerinput["passcheck_dist"] = node.config.getoption("dist")


@pytest.hookimpl(trylast=True)  # after deselection (-m, -k, --deselect): lay out what will run
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    workerinput = getattr(config, "workerinput", None)
    if not workerinput or workerinput.get("passcheck_dist") != "worksteal" or os.environ.get("PASSCHECK_SUITE_ORDER"):
        return  # PASSCHECK_SUITE_ORDER=collection: xdist's own order (to tell an order-dependent failure)
    k = int(workerinput.get("workercount") or os.environ.get("PYTEST_XDIST_WORKER_COUNT") or 0)
    items[:] = _schedule.reorder(items, [item.nodeid for item in items], k)
