"""A catalogue read that outlives its time limit (a loaded machine: every tool imported in the worker) leaves the
tools without a catalogue, with why, instead of ending the hunt as passcheck's own bug (round 16b's note)."""

from __future__ import annotations

from passcheck.coverage import map as coverage_map
from passcheck.coverage.cache import Cache
from passcheck.passes.isolation import IsolatedExecutor


def test_a_worker_out_of_time_reading_the_catalogue_leaves_every_tool_unavailable_with_why(monkeypatch, tmp_path):
    monkeypatch.setattr(coverage_map, "CATALOGUE_SECONDS", 0.001)
    cache = Cache(folder=tmp_path)
    with IsolatedExecutor(timeout=0.001) as ex:
        entries, missing = coverage_map.catalogue(ex, ("onnxruntime", "onnxscript"), cache=cache)
        assert ex.timeout == 0.001  # the executor's own limit is given back
    assert entries == {}
    assert set(missing) == {"onnxruntime", "onnxscript"}
    assert all(why.startswith("the worker died reading the catalogue: ") for why in missing.values()), missing
    assert not cache.catalogue()  # nothing cached: the next run reads again
