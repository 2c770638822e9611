"""A kind's sites rotate across steps (round 13d, M188; passcheck/hunt/rotation.py, ``Scheduler.listed``): a base lists
:data:`~passcheck.hunt.variation.PER_KIND` sampled sites of each kind, and once they are tried under a pass the next
batch of the kind's other sites joins the list, until the base's sites of the kind are exhausted. Real case models;
the hunt runs onnxscript's real ``rewrite`` and onnxruntime."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from passcheck.hunt import variation
from passcheck.hunt.rotation import Sites
from passcheck.hunt.space import Item, bases

BASE = "pattern-onnxscript/reshape-both-matmul-reshape:common"
KIND = "shape-target-regroup"  # three Reshape vectors on BASE: s235, s45, s64


def test_the_first_batch_is_the_old_sample_and_the_batches_share_no_site():
    sites = [f"c{k}" for k in range(7)]
    pool = Sites(sites, random.Random("k:vary:value-zero"), 2)
    old = sorted(random.Random("k:vary:value-zero").sample(sorted(sites), 2))  # what neighbours drew before M188
    drawn = [pool.batch(n) for n in range(5)]
    assert drawn[0] == old
    assert [len(b) for b in drawn] == [2, 2, 2, 1, 0]
    assert sorted(s for b in drawn for s in b) == sorted(sites) and pool.left == 0
    again = Sites(sites, random.Random("k:vary:value-zero"), 2)
    assert again.batch(3) == drawn[3]  # batch n is a function of the seed alone, whichever is asked first


@pytest.fixture(scope="module")
def found():
    return bases(["pattern-onnxscript/reshape-both-matmul-reshape"], generated=False)


def _walk(found, replay=()):
    from passcheck.hunt.scheduler import Scheduler

    s = Scheduler(found, ["onnxscript:rewrite"], seed=1, variations=True, vary_kinds=(KIND,))
    for item in replay:
        s.mark(item)
    out = []
    while (item := s.next(len(replay) + len(out))) is not None:
        s.mark(item)
        out.append(item)
    return s, out


def test_a_later_step_of_the_kind_takes_the_sites_not_sampled_until_they_are_exhausted(found):
    """Seed 1 samples s235 and s64 (round 12c's miss); the third step takes s45, then the space is spent."""
    base = next(b for b in found if b.id == BASE)
    sampled = [f for f in base.variations(1) if variation.kind(f) == f"vary:{KIND}"]
    assert sampled == [f"vary:{KIND}@s235", f"vary:{KIND}@s64"]
    s, items = _walk(found)
    assert {i.form for i in items[:2]} == set(sampled) and [i.form for i in items[2:]] == [f"vary:{KIND}@s45"]
    assert s.listed(base)[-1] == f"vary:{KIND}@s45" and base.rotated(1, f"vary:{KIND}", 2) == []
    # a resumed hunt marks the saved items again: it lists the same sites and has nothing left
    resumed, rest = _walk(found, replay=[Item(i.base, i.form, i.pass_id) for i in items])
    assert rest == [] and resumed.listed(base) == s.listed(base)


def test_the_hunt_of_seed_1_reaches_row_847(tmp_path):
    """``passcheck hunt`` pinned to the kind, seed 1: the rotated site s45 is tried and onnxscript 0.7.2's
    Reshape/MatMul/Reshape rule gives a wrong result there (docs/found.md row 847); every item tried."""
    pytest.importorskip("onnxscript")
    out = tmp_path / "h"
    cmd = [sys.executable, "-m", "passcheck", "hunt", "--pass", "onnxscript:rewrite", "--case", BASE.split(":")[0]]
    cmd += ["--no-generated", "--no-compose", "--vary-kind", KIND, "--seed", "1", "--budget", "10items"]
    run = subprocess.run([*cmd, "--out", str(out), "--progress", "none"], capture_output=True, text=True, timeout=600)
    assert "every item tried" in run.stderr, run.stdout + run.stderr
    items = json.loads((out / "hunt-state.json").read_text())["items"]
    at = {r["form"]: r for r in items if r["base"] == BASE}
    assert set(at) == {f"vary:{KIND}@s{n}" for n in (235, 45, 64)}
    assert any("|numeric|wrong-result|Reshape|" in k for k in at[f"vary:{KIND}@s45"]["signatures"])
