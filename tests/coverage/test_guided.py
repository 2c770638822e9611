"""The hunt's scheduler with a coverage map: (entry, spelling) pairs not tried yet come first, an
entry's pass is the only one drawn for it, and the choice is reproducible by seed."""

from __future__ import annotations

from pathlib import Path

from passcheck.coverage.entry import Entry, Evidence
from passcheck.coverage.map import CoverageMap
from passcheck.mutations import forms as hforms

PLANTED = Path(__file__).parents[1] / "hunt" / "planted_hunt.py"


def _map(bases) -> CoverageMap:
    a = Entry("onnxruntime", "rule", "SomeRule", ("ort:basic",), "basic")
    b = Entry("onnx-shape-inference", "inference", "Softmax@13", ("onnx:infer-shapes",), "ort")
    never = Entry("onnxruntime", "transformer", "Nothing", ("ort:basic",), "basic")
    soft = next(x.id for x in bases if x.id.startswith("hunt-test/softmax:"))
    ln = next(x.id for x in bases if x.id.startswith("hunt-test/layernorm:"))
    ev = {a.key: [Evidence(a.key, ln, "test")], b.key: [Evidence(b.key, soft, "test")]}
    return CoverageMap({e.key: e for e in (a, b, never)}, ev, [x.id for x in bases], {})


def test_guided_scheduler_tries_every_pair_of_the_map_first_and_is_reproducible():
    from passcheck.cases import load_path
    from passcheck.hunt.scheduler import Scheduler
    from passcheck.hunt.space import bases

    load_path(PLANTED)
    found = bases(["hunt-test/*"], generated=False)
    cmap = _map(found)
    runs = []
    for _ in range(2):
        s = Scheduler(found, ["ort:basic", "onnx:infer-shapes"], seed=3, cmap=cmap)
        picked = []
        while (item := s.next(len(picked))) is not None and s.pairs_tried | s._map.pairs(item) != s.pairs_tried:
            picked.append(item)
            s.mark(item)
        runs.append([i.key for i in picked])
        # every pick tried a new pair, on the entry's own base and pass
        for i in picked:
            assert (i.pass_id == "ort:basic" and i.base.startswith("hunt-test/layernorm:")) or (
                i.pass_id == "onnx:infer-shapes" and i.base.startswith("hunt-test/softmax:")
            )
        kinds = {(i.base.split(":")[0], hforms.kind(i.form)) for i in picked}
        assert len(kinds) == len(picked)  # one item per (entry, spelling)
        # and when the pairs are used up the triples take over: still an item, no longer a new pair
        assert item is not None and not (s._map.pairs(item) - s.pairs_tried)
    assert runs[0] == runs[1] and runs[0]
