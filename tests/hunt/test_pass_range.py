"""A pass that states its opset range as data draws only bases inside it (round 11h, M142–M143;
``hunt/pass_range.py``, ``Scheduler.draws``). ``onnxscript:onnx-fusions`` takes ai.onnx opset 23 only (its source's
``_opset_23_fuse``); the onnx-fusions bases import 23, the other onnxscript pattern bases 18. Real bases, the
installed onnxscript; the refusal is checked against the adapter's own run (``unavailable``)."""

from __future__ import annotations

import pytest

from passcheck.hunt.space import bases
from tests.hunt.conftest import drawn

PASS = "onnxscript:onnx-fusions"


@pytest.fixture(scope="module")
def pool():
    from passcheck.passes import get_pass

    pytest.importorskip("onnxscript")
    if why := get_pass(PASS).unavailable_reason():
        pytest.skip(why)
    return bases(
        ["pattern-onnxscript-onnx-fusions/*", "pattern-onnxscript-scatter/*", "pattern-onnxscript-fused-matmul/*"],
        generated=False,
    )


def test_the_range_is_data_and_a_refused_base_is_one_the_pass_does_not_run(pool, tmp_path):
    from passcheck.hunt import pass_range
    from passcheck.passes import get_pass

    assert pass_range.declares(PASS) and not pass_range.is_converter(PASS)
    assert not pass_range.declares("ort:basic") and not pass_range.declares("onnx:infer-shapes")
    caps = get_pass(PASS).capabilities
    assert (caps.min_opset, caps.max_opset) == (23, 23)
    refused = [b for b in pool if pass_range.refuses(PASS, b.model())]
    taken = [b for b in pool if b not in refused]
    assert {b.case.family for b in taken} == {"pattern-onnxscript-onnx-fusions"} and len(refused) > len(taken)
    out = get_pass(PASS).run(refused[0].model(), tmp_path)  # the promise: the pass would judge nothing there
    assert out.status == "unavailable" and "opset 23 only" in out.error, out
    assert out.error == pass_range.refuses(PASS, refused[0].model())
    assert get_pass(PASS).run(taken[0].model(), tmp_path).status in ("changed", "unchanged")


def test_every_item_is_on_a_base_the_pass_takes(pool):
    from passcheck.hunt import pass_range
    from passcheck.hunt.scheduler import Scheduler

    refused = {b.id for b in pool if pass_range.refuses(PASS, b.model())}
    s = Scheduler(pool, [PASS], seed=1, variations=True)
    sampled: list[list[str]] = []
    best = s._best

    def record(bases, rng, pass_id):  # the bases each step looks at, to see the refused ones leave the sample
        sampled.append([b.id for b in bases])
        return best(bases, rng, pass_id)

    s._best = record
    items = drawn(s, 30)
    assert len(items) == 30
    assert not {i.base for i in items} & refused, sorted({i.base for i in items} & refused)
    assert s.out_of_range[PASS] == refused  # the fallback over the whole pool met every one
    from passcheck.hunt.search import _refused

    assert _refused(s) == {PASS: len(refused)}
    # M143: once found outside, a base is no longer in a step's sample
    first = next(n for n, ids in enumerate(sampled) if refused <= set().union(*sampled[: n + 1]))
    assert sampled[first + 1 :] and not any(set(ids) & refused for ids in sampled[first + 1 :])
