"""A hunt's pairs shrunk from one base are one computation to triage (M162, round 12e).

Round 12e's triage made five candidates of docs/found.md row 82 (FuseMaxMinToClip losing the broadcast rank): the
rewrite hunt saved one pair per signature of `pattern-onnxscript/min-max-clip` (`@lo`, `@hi`; numeric,
annotations, invalid), each its own case, and a value or shape mismatch groups on its case. Here one real
onnxscript rewrite of the model checked under two pair ids gives two candidates, and one with the pairs' origins.
"""

from __future__ import annotations

import pytest

from tests._min_max_clip import model

PASS = "onnxscript:rewrite"
PAIRS = ("hunt/vary-shape-outrank-a-11111111", "hunt/vary-shape-outrank-b-22222222")


@pytest.fixture(scope="module")
def cells():
    pytest.importorskip("onnxscript")
    from passcheck import api

    m = model()
    out = []
    for name in PAIRS:
        out += api.check_model(m, [PASS], name=name, isolation=False).cells
    assert len({c.case for c in out}) == 2
    return out


def _pairs(cells) -> list[str]:
    return list(dict.fromkeys(c.case for c in cells))


def _numeric(candidates):
    return [c for c in candidates if c.signature.oracle == "numeric"]


def test_the_pairs_of_one_base_are_one_candidate(cells):
    from passcheck.triage.candidates import group

    pairs = _pairs(cells)
    (one,) = _numeric(group(cells, {p: "pattern-onnxscript/min-max-clip:common" for p in pairs}))
    assert one.cases == pairs


def test_without_origins_each_pair_stays_its_own_candidate(cells):
    from passcheck.triage.candidates import group

    pairs = _pairs(cells)
    assert [c.cases for c in _numeric(group(cells))] == [[pairs[0]], [pairs[1]]]
    other = {pairs[0]: "base-a", pairs[1]: "base-b"}
    assert len(_numeric(group(cells, other))) == 2
