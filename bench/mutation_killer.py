"""The test that killed a mutant: a pytest plugin bench/mutation_run.py loads into each mutant's pytest.

Loaded with ``-p mutation_killer`` (its folder on ``PYTHONPATH``, never by the suite). The first test
whose setup, call or teardown fails writes its node id to the file named by
``$PASSCHECK_MUTATION_KILLER``; ``bench/mutation_score.py`` records it in the mutant's row and runs the
tests that killed mutants of the same line, then of the same module, before the others.
"""

from __future__ import annotations

import os
from pathlib import Path

#: The environment variable naming the file the killing test's node id goes to.
KILLER_FILE = "PASSCHECK_MUTATION_KILLER"


def pytest_runtest_logreport(report) -> None:
    where = os.environ.get(KILLER_FILE)
    if report.failed and where and not Path(where).exists():
        Path(where).write_text(report.nodeid)
