"""A hunt's time shared between the passes it searches (passcheck/hunt/scheduler.py, cost.py): a
slow pass does not crowd out the defaults, a pass a case declares gets an item of that case
before any pass gets a second, a pass declaring no catalogue tool counts as one pseudo-entry per
base, and the choice is the same for the same seed and when resumed (real hunts, real tools)."""

from __future__ import annotations

import json
from pathlib import Path

from passcheck.cli import main
from passcheck.passes import DEFAULT_PASSES

PLANTED = Path(__file__).with_name("planted_hunt.py")
#: A pass stating 1000 s per item (it returns its input) and a case declaring it (tests only).
SLOW = Path(__file__).with_name("slow_hunt.py")


def _hunt(out: Path, *args: str, budget: str) -> list[tuple[str, str, str]]:
    """The hunt in this process (what it chooses is the test's subject; tests/hunt/test_hunt.py runs the CLI)."""
    argv = ["hunt", "--cases-from", str(PLANTED), "--no-coverage"]
    argv += ["--budget", budget, "--seed", "4", "--out", str(out), "--progress", "none", *args]
    assert main(argv) in (0, 1)
    doc = json.loads((out / "hunt-state.json").read_text())
    return [(i["base"], i["form"], i["pass"]) for i in doc["items"]]


def test_a_slow_pass_beside_the_defaults_leaves_them_at_least_half_the_time(tmp_path):
    from passcheck.cases import load_path
    from passcheck.hunt.cost import item_seconds

    load_path(PLANTED)
    load_path(SLOW)
    passes = ["ort:disabled", "ort:all", "onnx:infer-shapes", "test:slow"]
    items = _hunt(
        tmp_path / "h",
        "--cases-from",
        str(SLOW),
        "--case",
        "hunt-test/*",
        *[a for p in passes for a in ("--pass", p)],
        budget="16items",  # ort:all's first item is step 15: its 1.46 s against 0.14 and 0.29 (hunt/cost.py)
    )
    assert len(items) == 16
    spent = {p: sum(item_seconds(q) for *_, q in items if q == p) for p in passes}
    defaults = sum(s for p, s in spent.items() if p in DEFAULT_PASSES)
    assert defaults >= sum(spent.values()) / 2, spent
    assert {q for *_, q in items} == set(passes) - {"test:slow"}  # one test:slow item is 1000 s: over its 1/4


def test_a_declared_pass_gets_an_item_of_its_case_and_resume_equals_the_uninterrupted_run(tmp_path):
    case = ["--cases-from", str(SLOW), "--case", "hunt-fair/*"]
    first = _hunt(tmp_path / "a", *case, budget="6items")
    resumed = _hunt(tmp_path / "a", *case, "--resume", budget="6items")
    straight = _hunt(tmp_path / "b", *case, budget="12items")
    assert resumed[:6] == first and resumed == straight and len(straight) == 12
    passes = [q for *_, q in straight]
    assert "test:slow" in passes  # 1000 s an item: never its turn by time, it is the case's declared pass
    first_slow = passes.index("test:slow")
    assert len(set(passes[:first_slow])) == first_slow, passes  # no pass had a second item before it


def test_an_unscoped_pass_counts_one_pseudo_entry_per_base_and_the_same_seed_draws_the_same_items():
    """planted:commuted declares no tool the catalogue knows: not a candidate of every entry (so it
    does not take every entry's untried spellings), one pseudo-entry of its own per base."""
    from passcheck.cases import load_path
    from passcheck.coverage.entry import Entry, Evidence
    from passcheck.coverage.map import CoverageMap
    from passcheck.hunt.scheduler import Scheduler
    from passcheck.hunt.space import bases

    load_path(PLANTED)
    found = bases(["hunt-test/*"], generated=False)
    rule = Entry("onnxruntime", "rule", "SomeRule", ("ort:basic",), "basic")
    cmap = CoverageMap(
        {rule.key: rule}, {rule.key: [Evidence(rule.key, b.id, "test") for b in found]}, [b.id for b in found], {}
    )
    runs = []
    for _ in range(2):
        s = Scheduler(found, ["ort:basic", "planted:commuted"], seed=2, cmap=cmap)
        assert s._map.entries[rule.key][1] == ["ort:basic"]
        assert {k for k in s._map.by_pass["planted:commuted"]} == {f"planted:commuted @ {b.id}" for b in found}
        picks = []
        for step in range(10):
            item = s.next(step)
            if item.pass_id == "planted:commuted":
                assert {k for k, _ in s._map.pairs(item)} == {f"planted:commuted @ {item.base}"}
            s.mark(item)
            picks.append(item.key)
        runs.append(picks)
    assert runs[0] == runs[1] and len(set(runs[0])) == 10
    assert {p for p in ("ort:basic", "planted:commuted") if any(p in k for k in runs[0])} == {
        "ort:basic",
        "planted:commuted",
    }


def test_a_scheduler_resumed_from_saved_items_picks_what_the_uninterrupted_one_picks():
    """As ``hunt`` resumes: the saved items are marked with their saved triples, then the steps go on."""
    from passcheck.cases import load_path
    from passcheck.hunt.scheduler import Scheduler
    from passcheck.hunt.space import bases

    load_path(PLANTED)
    load_path(SLOW)
    found = bases(["hunt-test/*", "hunt-fair/*"], generated=False)
    passes = ["ort:disabled", "ort:all", "onnx:infer-shapes", "planted:commuted", "test:slow"]

    def scheduler():
        own = {b.id: passes if b.case.id.startswith("hunt-fair/") else passes[:4] for b in found}
        return Scheduler(found, passes, seed=3, passes_of=own.__getitem__)

    whole, saved = scheduler(), []
    for step in range(24):
        item = whole.next(step)
        whole.mark(item)
        saved.append((item, sorted(whole.triples(item))))
    for cut in (5, 11, 17):
        resumed = scheduler()
        for item, triples in saved[:cut]:
            resumed.mark(item, triples)
        for step in range(cut, 24):
            item = resumed.next(step)
            assert item == saved[step][0], (cut, step)
            resumed.mark(item)


def test_a_base_s_untried_variation_kinds_come_before_repeats_and_resume_picks_the_same():
    """On variation steps a base gets a kind it has not been tried with under the step's pass before another site
    of a kind it has (session 20: novel per pass; before, a kind tried under any pass counted as tried), but for the
    other sites' share (scheduler.SITES: one family's even share); the choice depends on the seed and the items
    tried only (resumed: the same)."""
    from passcheck.cases import load_path
    from passcheck.hunt import variation
    from passcheck.hunt.scheduler import RARE, SITES, VARIATION_EVERY, Scheduler
    from passcheck.hunt.space import bases

    load_path(PLANTED)
    found = bases(["hunt-test/*"], generated=False)
    passes = ["ort:disabled", "ort:basic", "onnx:infer-shapes", "planted:commuted"]

    def scheduler():
        return Scheduler(found, passes, seed=2, variations=True)

    whole, saved = scheduler(), []
    tried: dict[tuple[str, str], set[str]] = {}
    steps = 40 * VARIATION_EVERY
    for step in range(steps):
        item = whole.next(step)
        real = sum(n for f, n in whole.families.items() if f not in (RARE, SITES))
        in_share = whole.families.get(SITES, 0) * (len(variation.FAMILIES) + 1) <= real
        whole.mark(item)
        saved.append(item)
        if step % VARIATION_EVERY != VARIATION_EVERY - 1:
            continue
        assert variation.is_variation(item.form), item
        kinds = {variation.kind(f) for f in whole.by_id[item.base].variations(2)}
        kind = variation.kind(item.form)
        # a repeat under a pass within the other sites' share, or once every kind of the base's neighbours has been
        # tried on it under that pass
        on = (item.base, item.pass_id)
        assert kind not in tried.get(on, set()) or in_share or kinds <= tried[on], (step, item, tried[on])
        tried.setdefault(on, set()).add(kind)
    assert sum(len(v) for v in tried.values()) > 12  # the bases' kinds were spanned, not one or two repeated
    resumed = scheduler()
    for item in saved[:19]:
        resumed.mark(item)
    for step in range(19, steps):
        assert resumed.next(step) == saved[step], step
        resumed.mark(saved[step])
