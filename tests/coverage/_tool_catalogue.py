"""What the per-tool catalogue tests (test_onnxslim_catalogue.py, test_onnxoptimizer_catalogue.py) share: a base the
coverage map observes, and one tool's entries read through the isolation worker and the coverage cache."""

from __future__ import annotations

from passcheck.coverage.cache import Cache
from passcheck.coverage.entry import Entry
from passcheck.coverage.map import catalogue


class Base:
    """A base as :func:`passcheck.coverage.map.compute` reads one: ``id`` and ``model()``."""

    def __init__(self, id, model):
        self.id, self._m = id, model

    def model(self):
        return self._m


def entries_of(executor, cache_dir, tool: str) -> dict[str, Entry]:
    """``tool``'s catalogue entries by name (the tool must have a catalogue here)."""
    got, missing = catalogue(executor, (tool,), cache=Cache(folder=cache_dir))
    assert not missing, missing
    return {e.name: e for e in got[tool]}
