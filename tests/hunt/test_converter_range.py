"""A version-converter pass draws only bases it converts (round 9e, M92; ``hunt/pass_range.py``,
``Scheduler.draws``). onnxscript's converter states its range in its source (18..23); a DFT-17 base at opset 17 is
``unavailable`` there, and a narrowed hunt of the DFT bases spent 577 of 605 items on such forms (docs/recall.md R76).
Real generated bases, the installed onnxscript converter."""

from __future__ import annotations

import pytest

from passcheck.hunt.space import bases
from tests.hunt.conftest import drawn

PASS = "onnxscript:convert-opset-up-ir"


@pytest.fixture(scope="module")
def pool():
    pytest.importorskip("onnxscript")
    return bases(["generated/dft-*"], generated=True)


def test_every_item_is_on_a_base_the_converter_converts(pool):
    from passcheck.hunt import pass_range
    from passcheck.hunt.scheduler import Scheduler

    assert pass_range.is_converter(PASS) and not pass_range.is_converter("ort:basic")
    refused = {b.id for b in pool if pass_range.refuses(PASS, b.model())}
    assert refused and len(refused) < len(pool)
    s = Scheduler(pool, [PASS], seed=1, variations=True)
    items = drawn(s, 40)
    assert len(items) == 40
    assert not {i.base for i in items} & refused, sorted({i.base for i in items} & refused)
    assert s.out_of_range[PASS] <= refused and s.out_of_range[PASS]
    from passcheck.hunt.search import _refused

    assert _refused(s) == {PASS: len(s.out_of_range[PASS])}  # what the summary line says


def test_another_pass_draws_every_base(pool):
    from passcheck.hunt.scheduler import Scheduler

    s = Scheduler(pool, ["onnx:infer-shapes"], seed=1)
    assert all(s.draws(b.id, "onnx:infer-shapes") for b in pool)
    assert not s.out_of_range
