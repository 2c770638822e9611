"""A rare op under a generic rewrite (round 8e, M69; ``Scheduler._op_item``). ``rank-opaque-view`` applies to any
value an op reads, so it has no precondition; OneHotEncoder is held by 3 of ~11,000 bases, so a sample of 8 bases per
step meets it about once in 500 steps, and onnx's OneHotEncoder inference read an input of unknown rank as rank 0
(docs/recall.md R45). The unit is the op: the rewrite steps ``step % OP_EVERY == OP_EVERY - 2`` take the op type the
pass's items have touched least, rarest first, with a generic rewrite at a site on it. Real generated bases."""

from __future__ import annotations

import pytest

from passcheck.hunt.space import bases
from passcheck.signature import site_ops

UNARY = ("relu", "neg", "abs", "sigmoid", "tanh", "exp", "log", "sqrt", "floor", "ceil")
PASS = "onnx:infer-shapes"


@pytest.fixture(scope="module")
def pool():
    rare = bases(["generated/ml.onehotencoder-*"], generated=True)
    other = bases([f"generated/{o}-*" for o in UNARY], generated=True)
    assert len(rare) * 8 < len(rare) + len(other)
    return sorted(rare + other, key=lambda b: b.id)


def _op_step(k: int) -> int:
    from passcheck.hunt.scheduler import OP_EVERY

    return OP_EVERY * k + OP_EVERY - 2


def _ops(s, item) -> set[str]:
    from passcheck.hunt import variation
    from passcheck.mutations import forms as hforms

    base = s.by_id[item.base]
    if variation.is_variation(item.form):  # a generic neighbour at the op (round 9e, M89)
        return variation.site_ops(base.model(), item.form)
    labels = [x for _, x in hforms.parts(item.form) if x is not None] or list(s.labels(base, item.form))
    return site_ops([base.model()], labels)


def test_the_op_step_takes_the_rarest_untouched_op_with_a_generic_rewrite(pool):
    from passcheck.hunt.preconditions import Preconditions
    from passcheck.hunt.scheduler import Scheduler
    from passcheck.mutations import forms as hforms

    s = Scheduler(pool, [PASS], seed=1, variations=True)
    s._only = "rewrite"
    assert s._op_item(PASS, _op_step(0) - 1) is None
    item = s._op_item(PASS, _op_step(0))
    assert item is not None and "onehotencoder" in item.base, item
    assert "OneHotEncoder" in _ops(s, item)
    from passcheck.hunt import variation

    if variation.is_variation(item.form):  # a generic neighbour kind (round 9e, M89)
        assert variation.kind(item.form)[len(variation.PREFIX) :] not in Preconditions.of(pool, 1).neighbours
    else:
        rid = hforms.parts(item.form)[0][0]
        assert rid not in Preconditions.of(pool, 1).rewrites  # a generic rewrite
    s.mark(item)
    assert s._touched[PASS]["OneHotEncoder"] == 1


def test_an_op_the_pass_has_touched_waits_for_the_untouched_ones(pool):
    """Once OneHotEncoder is touched, the next op step takes an op no item has touched, though it is held by more
    bases; the rewrite steps between keep their own rules."""
    from passcheck.hunt.scheduler import Scheduler

    s = Scheduler(pool, [PASS], seed=1, variations=True)
    s._only = "rewrite"
    first = s._op_item(PASS, _op_step(0))
    s.mark(first)
    second = s._op_item(PASS, _op_step(1))
    assert second is not None and "onehotencoder" not in second.base, second
    assert not _ops(s, second) & {op for op, n in s._touched[PASS].items() if n}
