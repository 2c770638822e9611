"""Repeated visits of a rare op cover its rewrites (round 9e, M89; ``Scheduler._op_item``, ``Scheduler.op_pairs``).

M69 reaches a rare op on the op steps, but drew one generic rewrite for it by "new triples first": a rewrite tried at
one site kind of the op is still new at its others, so a second visit repeated the first rewrite at another input
(docs/recall.md R45: ``rank-opaque-view`` on OneHotEncoder's input was never drawn). The op step now ranks the
(op type, rewrite or neighbour kind) pair the pass's items have held least first. Real generated bases."""

from __future__ import annotations

import pytest

from passcheck.hunt.space import bases

PASS = "onnx:infer-shapes"


@pytest.fixture(scope="module")
def pool():
    return bases(["generated/ml.onehotencoder-*"], generated=True)


def _op_step(k: int) -> int:
    from passcheck.hunt.scheduler import OP_EVERY

    return OP_EVERY * k + OP_EVERY - 2


def test_visits_of_one_op_draw_a_new_kind_each_until_every_kind_is_held(pool):
    from passcheck.hunt.preconditions import Preconditions, probe_set
    from passcheck.hunt.scheduler import Scheduler, form_kind

    s = Scheduler(pool, [PASS], seed=1, variations=True)
    s._only = "rewrite"
    pre = Preconditions.of(pool, 1)
    probes = probe_set(pool).by_op["OneHotEncoder"]
    offered = {form_kind(f) for b in probes for f in s._generic_on("OneHotEncoder", b, PASS, pre)}
    assert len(offered) >= 6, offered
    drawn = []
    for k in range(len(offered)):
        item = s._op_item(PASS, _op_step(k))
        assert item is not None
        if "OneHotEncoder" not in {t[0] for t in s.triples(item)}:
            break
        drawn.append(form_kind(item.form))
        s.mark(item)
    assert len(drawn) >= 6
    assert len(set(drawn)) == len(drawn), drawn  # no kind twice on the op before every kind was held once
    assert all(s.op_pairs(PASS)[("OneHotEncoder", k)] == 1 for k in drawn)


def test_the_op_step_offers_no_neighbour(pool):
    """The op step is a rewrite step: a neighbour there would take a share the neighbours' one step in four keeps."""
    from passcheck.hunt import variation
    from passcheck.hunt.preconditions import Preconditions, probe_set
    from passcheck.hunt.scheduler import Scheduler

    s = Scheduler(pool, [PASS], seed=1, variations=True)
    pre = Preconditions.of(pool, 1)
    forms = [f for b in probe_set(pool).by_op["OneHotEncoder"] for f in s._generic_on("OneHotEncoder", b, PASS, pre)]
    assert forms and not any(variation.is_variation(f) for f in forms), forms


def test_the_first_visit_draws_a_form_changing_a_type_the_op_reads(pool):
    """OneHotEncoder's inference reads its input's type: of its ~20 generic forms, the first drawn changes it
    (``rank-opaque-view`` hides the rank there; a renamed node or a doc string changes nothing the op reads)."""
    from passcheck.hunt import op_reads
    from passcheck.hunt.scheduler import Scheduler
    from passcheck.mutations import forms as hforms

    s = Scheduler(pool, [PASS], seed=1, variations=True)
    s._only = "rewrite"
    item = s._op_item(PASS, _op_step(0))
    model = s.by_id[item.base].model()
    from passcheck.hunt import variation

    built = (variation.build if variation.is_variation(item.form) else hforms.build)(model, item.form)
    assert op_reads.changes_reads(model, built[0], "OneHotEncoder"), item
    renamed = hforms.build(model, "name-nodes")
    assert not op_reads.changes_reads(model, renamed[0], "OneHotEncoder")


def test_an_op_read_at_two_inputs_gets_every_kind_before_a_second_site_of_one():
    """Add reads two inputs: the forms changing what it reads (``rank-opaque-view``, ``anonymous-input-dims`` …) have
    a site at each, on each of its two probes. Ranked by what they change alone, the visits take those kinds again at
    their other sites (7 kinds in 30 visits); by the least-held pair first, every offered kind once."""
    from passcheck.hunt.preconditions import Preconditions, probe_set
    from passcheck.hunt.scheduler import Scheduler, form_kind

    adds = bases(["generated/add-*"], generated=True)
    s = Scheduler(adds, [PASS], seed=1, variations=True)
    s._only = "rewrite"
    pre = Preconditions.of(adds, 1)
    offered = {form_kind(f) for b in probe_set(adds).by_op["Add"] for f in s._generic_on("Add", b, PASS, pre)}
    drawn = []
    for k in range(len(offered)):
        item = s._op_item(PASS, _op_step(k))
        drawn.append(form_kind(item.form))
        s.mark(item)
    assert set(drawn) == offered, sorted(set(offered) - set(drawn))
