"""Coverage-guided choice of the next item: toward untried (catalogue entry, spelling) pairs, then
untried (op type, rewrite kind, pass) triples.

With a coverage map (:mod:`passcheck.coverage`), each step first looks for a pair not yet tried:
an entry some base triggers (an onnxruntime rule, an onnxscript rule, an inference function, an
adapter …) with a spelling (the rewrite kind of a form) no item has tried under it, on a pass
that runs the entry (a pass without a catalogue, such as a ``cmd:`` or plugin pass, counts as
running every entry of the tools it declares, ``PassAdapter.tools``, or of every tool when it
declares none the catalogue knows). Entries with the fewest spellings tried come first, then those the
fewest bases trigger (a pattern one base reaches is the one a blind search misses), ties broken by the
step's generator. Of an entry's untried spellings, the nearest to what the entry acts on comes first
(:mod:`.nearness`: a rewrite of the entry's own node inside its op schema, then of that node otherwise,
of a value it reads or writes, elsewhere), then by the triple rule below. When every pair is tried (or
there is no map), the triple rule alone applies.

Each step draws a sample of bases with a generator seeded by ``(seed, step)``, lists their untried
items and takes the one with the largest share of untried triples (halved for a depth-2 form, so
single rewrites come first; a share, so a base with many op types does not crowd out the others),
ties broken by the same generator. A base's items draw only from its own passes (``passes_of``,
its relevant set without ``--pass``: :mod:`.passes`). The choice depends only on the seed, the step and the
items already tried, so a run is reproducible and a resumed run continues as an uninterrupted one.

With variations on (``hunt`` without ``--no-variation``), each base's neighbours (:mod:`.variation`: form
ids ``vary:<kind>@<site>``, the kind in the triples and pairs as a rewrite kind is) are candidates too:
every :data:`VARIATION_EVERY`-th step looks at them alone first, the variation family (value, shape,
attr, elem) with the fewest items tried before the others, and every other step at the rewrite forms alone
first (either kind of step takes the other kind's forms only when none of its own is left).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence

from passcheck.hunt import variation
from passcheck.hunt.nearness import entry_ops, nearness, schema_spelling
from passcheck.hunt.signature import site_ops
from passcheck.hunt.space import Base, Item
from passcheck.mutations import forms as hforms

#: Bases drawn per step (each has tens of forms × the passes: plenty of untried items to choose from).
SAMPLE = 8
#: With variations on, one step in this many draws a variation form, the others a rewrite form (a base has
#: tens of rewrite forms and a dozen neighbours: without a share the neighbours would be a small part of the
#: items). One in four: at one in two a 5-minute hunt's rewrite signatures fell from 34 to 12 (docs/hunt.md).
VARIATION_EVERY = 4
Triple = tuple[str, str, str]


class Scheduler:
    """Picks items from ``bases`` × their forms × ``passes`` (see module docs)."""

    def __init__(
        self,
        bases: Sequence[Base],
        passes: Sequence[str],
        seed: int,
        cmap=None,
        runs: Callable[[str], bool] | None = None,
        passes_of: Callable[[str], Sequence[str]] | None = None,
        variations: bool = False,
    ):
        """``runs``: base id → whether that base runs on its feeds, asked (once a base has been
        picked) when the base is a candidate again; a base that does not is not picked again.
        ``passes_of``: base id → the passes its items draw from (its relevant set,
        :mod:`.passes`; ``passes`` holds all of them); None: every base draws from ``passes``.
        A variation item draws from its base's passes.
        ``variations``: each base's neighbours (variation forms, :mod:`.variation`) are candidates too."""
        self.bases, self.passes, self.seed = list(bases), list(passes), seed
        self.variations = variations
        self._only: str | None = None  # "vary" / "rewrite": this step looks at those forms alone (first)
        self.families: dict[str, int] = {}  # variation family → items tried (value, shape, attr, elem)
        self._runs = runs
        self._of = passes_of
        self.picked: set[str] = set()
        self.by_id = {b.id: b for b in self.bases}
        self.pairs_tried: set[tuple[str, str]] = set()  # (entry key, rewrite kind)
        self._map = _MapView(cmap, self.by_id, self.passes, self.passes_of) if cmap is not None else None
        self.tried: set[Triple] = set()
        self.done: set[str] = set()
        self.dead: set[str] = set()  # bases that do not run on their feeds: no item of theirs can be judged
        self._ops: dict[tuple[str, str], tuple[str, frozenset[str]]] = {}  # (base, form) → (rewrite kind, ops)
        self._labels: dict[tuple[str, str], tuple[str, ...]] = {}  # (base, form) → the labels its rewrite changed

    def passes_of(self, base_id: str) -> Sequence[str]:
        """The passes the items of base ``base_id`` (its rewrite and variation forms) draw from."""
        return self.passes if self._of is None else self._of(base_id)

    def forms(self, base: Base) -> list[str]:
        """The candidate forms of ``base`` at this step: its rewrite forms, then its variation forms when turned
        on; while a step looks at one kind alone (:data:`VARIATION_EVERY`), that kind's forms."""
        vary = base.variations(self.seed) if self.variations else []
        if self._only == "vary":
            return vary
        return base.forms(self.seed) if self._only == "rewrite" else base.forms(self.seed) + vary

    @property
    def _vary_step(self) -> bool:
        return self._only == "vary"

    def triples(self, item: Item) -> set[Triple]:
        """The (op type, rewrite or variation kind, pass) triples ``item`` covers: the ops at its site, or
        every op of its base."""
        if (item.base, item.form) not in self._ops:
            base = self.by_id[item.base]
            if variation.is_variation(item.form):
                ops = site_ops([base.model()], variation.site_labels(base.model(), item.form))
            else:
                labels = [s for _, s in hforms.parts(item.form) if s is not None]
                ops = site_ops([base.model()], labels) if labels else set()
            self._ops[item.base, item.form] = (form_kind(item.form), frozenset(ops or base.ops()))
        kind, ops = self._ops[item.base, item.form]
        return {(op, kind, item.pass_id) for op in ops}

    def labels(self, base: Base, form: str) -> tuple[str, ...]:
        """The site labels ``form``'s rewrite changes in ``base`` (built once; none when it does not build)."""
        if (base.id, form) not in self._labels and form in base.applied:  # built by Base.forms already
            self._labels[base.id, form] = tuple(base.applied[form])
        if (base.id, form) not in self._labels and variation.is_variation(form):
            self._labels[base.id, form] = tuple(variation.site_labels(base.model(), form))
        if (base.id, form) not in self._labels:
            try:
                built = hforms.build(base.model(), form)
            except Exception:  # noqa: BLE001 - a rewrite that cannot read this base: it changes nothing here
                built = None
            self._labels[base.id, form] = tuple(built[1]) if built else ()
        return self._labels[base.id, form]

    def mark(self, item: Item, triples: Iterable[Triple] | None = None, base_fails: bool = False) -> None:
        """Record ``item`` as tried (its triples recomputed unless given, e.g. from a saved state);
        ``base_fails``: its base does not run, so no other item of that base is picked."""
        self.done.add(item.key)
        self.picked.add(item.base)
        if variation.is_variation(item.form):
            fam = variation.family(item.form)
            self.families[fam] = self.families.get(fam, 0) + 1
        if self._map is not None:
            self.pairs_tried.update(self._map.pairs(item))
        if base_fails:
            self.dead.add(item.base)
        self.tried.update(tuple(t) for t in (triples if triples is not None else self.triples(item)))

    def is_dead(self, base_id: str) -> bool:
        """Whether no item of ``base_id`` is to be picked: marked so, or picked before and it does
        not run (``runs``; asked lazily, the same answer as asking when it was picked)."""
        if base_id in self.dead:
            return True
        if self._runs is not None and base_id in self.picked and not self._runs(base_id):
            self.dead.add(base_id)
            return True
        return False

    def next(self, step: int) -> Item | None:
        """The item for ``step``, or None when every item of the space has been tried. With variations on,
        every :data:`VARIATION_EVERY`-th step looks at variation forms first, every other step at rewrite
        forms first (then at every form when none is left)."""
        if not self.variations:
            return self._next(step)
        self._only = "vary" if step % VARIATION_EVERY == VARIATION_EVERY - 1 else "rewrite"
        try:
            item = self._next(step)
        finally:
            self._only = None
        return item if item is not None else self._next(step)

    def _next(self, step: int) -> Item | None:
        rng = random.Random(f"{self.seed}:{step}")
        if self._map is not None and (item := self._map.untried(self, rng)) is not None:
            return item
        order = self.bases if len(self.bases) <= SAMPLE else rng.sample(self.bases, SAMPLE)
        best = self._best(order, rng)
        if best is None and len(self.bases) > SAMPLE:  # the sample is used up: look at every base
            best = self._best(self.bases, rng)
        return best

    def _balance(self, form: str) -> tuple[int, ...]:
        """On a variation step, the family tried least first (a family that applies to nearly every base,
        the elem kinds, would otherwise take most variation steps); ``()`` on other steps."""
        return (-self.families.get(variation.family(form), 0),) if self._vary_step else ()

    def _best(self, bases: Sequence[Base], rng: random.Random) -> Item | None:
        best, best_score = None, None
        for base in bases:
            if self.is_dead(base.id):
                continue
            for form in self.forms(base):
                depth = form_depth(form)
                for p in self.passes_of(base.id):
                    item = Item(base.id, form, p)
                    if item.key in self.done:
                        continue
                    triples = self.triples(item)
                    score = (*self._balance(form), len(triples - self.tried) / len(triples) / depth, rng.random())
                    if best_score is None or score > best_score:
                        best, best_score = item, score
        return best


class _MapView:
    """The coverage map as the scheduler reads it: entry → the hunt's bases that trigger it (with a
    pass of their own that runs it), and the hunt's passes that run it."""

    def __init__(self, cmap, by_id, passes: Sequence[str], passes_of: Callable[[str], Sequence[str]]):
        from passcheck.coverage.entry import PassScope

        scope = PassScope(cmap.entries.values())
        self.entries: dict[str, tuple[list[str], list[str]]] = {}
        self.ops: dict[str, frozenset[str]] = {}  # entry → the op types it acts on (empty: unknown)
        for key, entry in cmap.entries.items():
            runs = [p for p in passes if scope.runs(entry, p)]
            bases = [b for b in cmap.bases_of(key) if b in by_id and set(runs) & set(passes_of(b))]
            if bases and runs:
                self.entries[key] = (bases, runs)
                self.ops[key] = entry_ops(entry, [e.effect for e in cmap.evidence.get(key, ())])
        self.by_base: dict[str, list[str]] = {}
        for key, (bases, _) in self.entries.items():
            for b in bases:
                self.by_base.setdefault(b, []).append(key)
        self.exhausted: set[tuple[str, str | None]] = set()  # (entry, kind of form looked at: Scheduler._only)

    def pairs(self, item: Item) -> set[tuple[str, str]]:
        """The (entry, spelling) pairs ``item`` tries."""
        kind = form_kind(item.form)
        return {(k, kind) for k in self.by_base.get(item.base, ()) if item.pass_id in self.entries[k][1]}

    def untried(self, sched: Scheduler, rng: random.Random) -> Item | None:
        """An item trying a pair not tried yet, from the entry with the fewest spellings tried, then
        the fewest bases: of that entry's candidates (on :data:`SAMPLE` of its bases), the nearest
        spelling (:mod:`.nearness`; a single rewrite before a pair, the op schema's own spellings
        first), then the one the triple rule scores best."""
        tried: dict[str, int] = {}
        for k, _ in sched.pairs_tried:
            tried[k] = tried.get(k, 0) + 1
        live = [k for k in self.entries if (k, sched._only) not in self.exhausted and (k, None) not in self.exhausted]
        order = sorted(live, key=lambda k: (tried.get(k, 0), len(self.entries[k][0]), rng.random()))
        for key in order:
            bases, runs = self.entries[key]
            best, best_score = None, None
            live_bases = [b for b in bases if not sched.is_dead(b)]
            for bid in rng.sample(live_bases, min(SAMPLE, len(live_bases))):
                base = sched.by_id[bid]
                own = set(sched.passes_of(bid))
                for form in sched.forms(base):
                    if (key, form_kind(form)) in sched.pairs_tried:
                        continue
                    depth = form_depth(form)
                    near = None
                    for p in runs:
                        if p not in own:
                            continue
                        item = Item(bid, form, p)
                        if item.key in sched.done:
                            continue
                        if near is None:  # nearest first, single rewrites before pairs, the schema's own first
                            near = (
                                *sched._balance(form),
                                nearness(base.model(), sched.labels(base, form), self.ops[key]),
                                -depth,
                                not variation.is_variation(form) and schema_spelling(form),
                            )
                        triples = sched.triples(item)
                        score = (*near, len(triples - sched.tried) / len(triples) / depth, rng.random())
                        if best_score is None or score > best_score:
                            best, best_score = item, score
            if best is not None:
                return best
            if len(live_bases) <= SAMPLE:  # no candidate of this step's kind of form is left (both: None)
                self.exhausted.add((key, sched._only))
        return None


def form_kind(form: str) -> str:
    """The rewrite kind of a rewrite form, the variation kind (``vary:…``) of a variation form."""
    return variation.kind(form) if variation.is_variation(form) else hforms.kind(form)


def form_depth(form: str) -> int:
    """How many rewrites ``form`` applies (a variation form: 1)."""
    return 1 if variation.is_variation(form) else len({r for r, _ in hforms.parts(form)})
