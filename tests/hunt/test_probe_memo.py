"""One walk over the bases' op types per hunt (round 9e): the preconditions' cache key, ``Preconditions.of`` and the
scheduler's op steps read one :class:`~passcheck.hunt.preconditions.ProbeSet` (three walks over ~11,000 bases before).
Real generated bases."""

from __future__ import annotations

import pytest

from passcheck.hunt.space import bases


@pytest.fixture(scope="module")
def pool():
    return bases(["generated/ml.onehotencoder-*", "generated/relu-*", "generated/neg-*"], generated=True)


def test_a_hunt_walks_the_op_types_once(pool, monkeypatch, tmp_path):
    from passcheck.hunt import preconditions
    from passcheck.hunt.scheduler import OP_EVERY, Scheduler

    monkeypatch.setenv("PASSCHECK_CACHE", str(tmp_path))
    preconditions._PROBED.clear()
    preconditions._MADE.clear()
    walks = []
    real = preconditions.ProbeSet.__init__

    def counted(self, bases):
        walks.append(len(bases))
        real(self, bases)

    monkeypatch.setattr(preconditions.ProbeSet, "__init__", counted)
    s = Scheduler(pool, ["onnx:infer-shapes"], seed=1, variations=True)
    s._only = "rewrite"
    assert s._op_item("onnx:infer-shapes", OP_EVERY - 2) is not None
    assert walks == [len(pool)]
    got = preconditions.probe_set(pool)
    assert got.probed == preconditions.probes(pool)
    assert got.holding["OneHotEncoder"] == sum("onehotencoder" in b.id for b in pool)
    assert {b.id for b in got.by_op["OneHotEncoder"]} <= {b.id for b in got.probed}


def test_another_set_of_bases_is_walked_anew(pool):
    from passcheck.hunt import preconditions

    some = [b for b in pool if "relu" in b.id]
    assert preconditions.probe_set(some).holding.get("OneHotEncoder") is None
    assert preconditions.probe_set(pool).holding["OneHotEncoder"] > 0
