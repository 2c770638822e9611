"""The choice of the next item: a pass by its share of the budget's time, then, on that pass,
toward untried (catalogue entry, spelling) pairs, then untried (op type, rewrite kind, pass) triples.

**Time shared between the passes.** Each step first picks the pass whose time, with one more item,
is the least relative to its share (the time of an item being its pass's expected seconds,
:mod:`.cost`: a fixed cost model, so the choice stays a function of the seed and the items tried;
counting the next item keeps a slow pass from overshooting its share by an item at the start).
The default passes (:data:`~passcheck.passes.DEFAULT_PASSES`) share at least half of the time
together: every pass weighs the same unless that leaves the defaults less than half, then the
defaults share one half and the other passes the other. A pass with no untried item left drops
out. **Declared passes first within a case**: when the item picked would give its pass a second
item of a case while a pass the case declares (``Case.passes``, within its relevant set) has none
of that case yet, an item of that declared pass on the case is taken instead.

**On the chosen pass**, with a coverage map (:mod:`passcheck.coverage`), a step first looks for a
pair not yet tried: an entry some base triggers (an onnxruntime rule, an onnxscript rule, an
inference function, an adapter …), which the pass runs, with a spelling (the rewrite kind of a
form) no item has tried under it. A pass that declares no tool the catalogue knows (``onnxsim``,
``onnxoptimizer``, a ``cmd:`` pass: ``PassScope.unscoped``; onnxslim has entries since session 28) counts as one
pseudo-entry per base (acting on the op types of the entries the base triggers), not as running
every entry. Entries with the fewest spellings tried come
first, then those the fewest bases trigger (a pattern one base reaches is the one a blind search
misses), ties broken by a hash of (seed, step, entry). Of an entry's untried spellings, the nearest
to what the entry acts on comes first (:mod:`.nearness`: a rewrite of the entry's own node inside
its op schema, then of that node otherwise, of a value it reads or writes, elsewhere), then by the
triple rule below. When every pair is tried (or there is no map), the triple rule alone applies.

**What the pass's entries match, first** (session 26). A variation step ranks a neighbour kind never tried under
the pass before one only new to its base (each kind gets one item per pass before the frequent kinds repeat). A
rewrite step ranks first the first item under the pass of a rewrite whose sites are no nodes
(:func:`.entry_sites.op_free`: an IR freedom any base has, which op novelty never ranks), while such items are no
more than the pass's other rewrite items; then a base's *entry sites* (:meth:`Scheduler.entry_sites`): per rewrite,
a site where its signature writes an op the entries the base triggers under the pass act on (observed, or spelt by
the entry's name: :func:`.entry_sites.named_ops`), offered beside the base's sampled sites and, not tried yet, a
pair of its own under every entry. These keys come before the nearness and triple keys of both rules.

The triple rule draws a sample of the bases the pass is relevant to, lists their untried items on
the pass and takes the one with the largest share of untried triples (op type, rewrite kind, pass, site kind: what
the rewrite's site signature records at a single site with the rank and element type of what it names,
:func:`site_kinds`) (halved for a depth-2 form,
so single rewrites come first; a share, so a base with many op types does not crowd out the
others), ties broken by a generator seeded by (seed, step, pass); a sample holding no candidate is followed by
the other bases in a seeded order, a group of as many live ones at a time (:meth:`Scheduler._walk`). With a time
budget, a step still choosing when it ends raises :class:`.budget.Spent`. A base's items draw only from
its own passes (``passes_of``, its relevant set without ``--pass``: :mod:`.passes`). The choice
depends only on the seed, the step, the map it is given (a hunt's grows with the steps,
:mod:`.lazymap`) and the items already tried (every generator is seeded per step and per pass or
entry, so a cached "nothing left here" changes no draw), so a run is reproducible and a resumed run
continues as an uninterrupted one.

With variations on (``hunt`` without ``--no-variation``), each base's neighbours (:mod:`.variation`: form
ids ``vary:<kind>@<site>``, the kind in the triples and pairs as a rewrite kind is) are candidates too:
every :data:`VARIATION_EVERY`-th step looks at them alone first, and every other step at the rewrite forms alone
first (either kind of step takes the other kind's forms only when none of its own is left). On a variation step
a neighbour of a kind its base has not been tried with yet under the step's pass comes before another site of a
kind it has (novel per pass: a kind tried on a base under one pass is still new under another), then the
variation family (value, shape, int, attr, elem, opt, expose, fanout, cast, transpose, bind, feed) with the
fewest items tried before the others: a base's dozen neighbours span its kinds before any repeats, so the
families that apply to fewer bases (the run conditions) are not left behind those that apply to nearly all.
**Rare kinds** (:mod:`.vary_rare`: a kind whose precondition fewer bases meet than one per sample, such as
``value-floor-edge`` on Resize scales) are not left to the sample: they count as one more family, and while
their first items under a pass (another site of a rare kind counts under the other sites' share below) are no more
than that family's even share, a variation step first takes the rarest kind not yet tried under its pass that a
base of the pass offers.
**Other sites** of a kind already tried on a base: the neighbours after the first of a kind on a base and pass are
not new there, so without a share of their own they would wait until every base's kinds were used up (a hunt of
pattern-ort-qdq drew one site of ``elem-split-float16`` on a Conv base and not the other in 906 neighbours). They
count as one more family too (:data:`SITES`, every such neighbour tried, however it was drawn) and, while within that
family's even share, a variation step after the rare kinds' share takes one: reaching op types its kind has not
been tried on under the pass first, then of the kind tried at the fewest sites under the pass (over every base: a
kind few bases offer has few sites tried, and those are the ones a sample of bases reaches least), then of the
(base, kind) tried at the fewest sites.
**Sites rotate** (round 13d, M188): a base lists :data:`.variation.PER_KIND` sampled sites of each kind
(:meth:`.space.Base.variations`); once every listed site of a kind on a base has an item under a pass, the next batch
of that kind's sites not listed yet (:meth:`.space.Base.rotated`) joins the base's list (:meth:`Scheduler.listed`),
until the base's sites of the kind are exhausted. The batches listed are the scheduler's (a function of the seed and
the items marked, in order), so a resumed hunt, whose scheduler marks the saved items again, lists the same ones.
**Kinds never drawn** (round 13h, M204; round 14d, M225): a kind the listed bases offer at many sites may still have
no item under a pass after minutes (each variation step reaches one kind, and the pair rule, the units, the aimed and
rare kinds share those steps). Once every rewrite the pass's entries offer has an item under it
(:meth:`Scheduler.rewrites_drawn`), one rewrite step in four, while such a kind is left, takes a neighbour of the
never-drawn kind with the most sites over the bases listed so far (:meth:`Scheduler._undrawn_item`, :mod:`.undrawn`).
**A case's forms share its variation steps** (session 24): when the pair or triple rule picks a neighbour of a
base that has had more variation items under the pass than another form of its case, the step goes to the forms of
that case with the fewest (the triple rule over them, :meth:`Scheduler._sibling_first`): the case keeps the step, and
its uncommon forms, the ones passcheck exists for, get as many as its common one (a neighbour invalid on one form may
be valid on another).
**Invalid neighbours** (session 24): a neighbour that is no valid model (``mark(valid=False)``: the variation gate
every shard asks alike, :func:`.search.valid_neighbour`) judged nothing, so its triples are not marked tried (the
same kind at the same op of a sibling form stays new) and its rewrites are no candidates; the same neighbour
(kind and site) on the other forms of its case comes first on the next variation steps of the pass (after the rare
kinds' share: :meth:`Scheduler._retried`), where it may be valid.
A pass, or a case's declared pass, is used up only when neither kind is left.
**Rewrites of a neighbour** (``compose``, :mod:`.compose`: a rewrite at a site a neighbour opened or changed, judged
as the pair (neighbour, rewritten neighbour)) are candidates under a pass once the neighbour's own item under it has
been picked; one step in :data:`COMPOSE_EVERY` that is no variation step looks at them first (two tiers before
the others, taking turns: a site the neighbour opened, the first of its rewrite there, and a rewrite carrying the
change, :func:`.compose.carries`; the opened tier first on even composition steps, the carrying one on odd ones,
since every drawn neighbour opens sites and a tier always first left the other none; then a composed kind not tried
on the base under the pass, then the triple rule), and is a rewrite step when none is left.

**Sites where the pass acts** (with ``acted``, :mod:`.guide`): a base's single-site rewrite forms under a
pass are, for each rewrite, the sites touching what the pass removed, replaced or retyped on that base
(inside the pattern, then its boundary; a third of them at the pattern's inputs, round 14h), not the base's
seeded sample, once an item of the base and pass
has been picked; the first such item, when it is a single-site form, takes the first of those sites of its
rewrite (the set asked for then). The set is a function of the base and the pass, so the choice still
depends only on the seed, the step and the items tried.

**Bases a pass takes** (:mod:`.pass_range`; round 9e, M92, round 11h, M142–M143): a pass whose adapter states up front
which bases it takes (an ai.onnx opset range as data, a version converter's precondition) draws no item of a base
outside that (every cell of the pass would be ``unavailable``); the bases found outside are left out of the later
steps' samples.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from types import MappingProxyType

from passcheck.hunt import budget, chain, compose, entry_sites, site_kind, undrawn, variation
from passcheck.hunt.cost import item_seconds
from passcheck.hunt.nearness import entry_ops, nearness, schema_spelling
from passcheck.hunt.signature import site_ops
from passcheck.hunt.space import Base, Item
from passcheck.mutations import forms as hforms
from passcheck.mutations.registry import REWRITES
from passcheck.mutations.sites import site_signatures

#: Bases drawn per step (each has tens of forms × the passes: plenty of untried items to choose from).
SAMPLE = 8
#: With variations on, one step in this many draws a variation form, the others a rewrite form (a base has
#: tens of rewrite forms and a dozen neighbours: without a share the neighbours would be a small part of the
#: items). One in four: at one in two a 5-minute hunt's rewrite signatures fell from 34 to 12 (docs/hunt.md).
VARIATION_EVERY = 4
#: With compositions on, one step in this many (one that is no variation step) draws a rewrite of a neighbour
#: tried before (:mod:`.compose`), when there is one; else it is a rewrite step.
COMPOSE_EVERY = 8
#: The form lists a step looks at, in this order (:meth:`Scheduler.forms`): ``own`` (the base's rewrite forms),
#: ``vary`` (its neighbours), ``composed`` (their rewrites), keyed by (the kind of form the step looks at alone:
#: ``Scheduler._only``, None for every kind; whether the hunt takes the bases' own rewrite forms: not with
#: ``vary_kinds`` and no ``rewrites``, where a rewrite step looks at the neighbours instead).
LOOKS_AT: dict[tuple[str | None, bool], tuple[str, ...]] = {
    (None, True): ("own", "vary", "composed"),
    ("rewrite", True): ("own",),
    ("vary", True): ("vary",),
    ("compose", True): ("composed",),
    (None, False): ("vary", "composed"),
    ("rewrite", False): ("vary",),
    ("vary", False): ("vary",),
    ("compose", False): ("composed",),
}
#: With variations on, a pass's first items of the rare rewrite units (:mod:`.rare_rewrites`) are at most one in
#: this many of its plain rewrite items: a rewrite step takes one while that holds.
RARE_REWRITE_EVERY = 4
#: With variations on, one variation step in this many (not the first) offers first an untried unit of a generic
#: neighbour kind: its kind and the rank and element type of what it changes (:mod:`.neighbour_units`; round 8e, M68).
UNIT_EVERY = 3
#: With variations on, the rewrite steps ``step % OP_EVERY == OP_EVERY - 2`` offer first the op type the pass's items
#: have touched least, with a generic rewrite at a site on it (:meth:`Scheduler._op_item`; round 8e, M69).
OP_EVERY = 8
#: With compositions on, the composition steps ``(step // COMPOSE_EVERY) % MOVED_EVERY == 0`` offer first a rewrite of a
#: neighbour whose item found a new signature (:meth:`Scheduler._moved_item`; round 9e, M90): at most half of them.
MOVED_EVERY = 2
#: With compositions on, the composition steps ``(step // COMPOSE_EVERY) % CHAIN_EVERY == CHAIN_EVERY - 1`` (none of
#: them a moved step) offer first a chained neighbour (:meth:`Scheduler._chain_item`; round 10a, M96).
CHAIN_EVERY = 4
#: First links a chain step lists at most (their second links are built once each, :func:`.chain.seconds`).
CHAIN_LOOK = 3
#: The bases tagged with an element type whose neighbours are listed for its units (a seeded sample; all when fewer).
UNIT_LOOK = 4
#: With a coverage map, the variation steps ``(step // VARIATION_EVERY) % AIM_VARY_EVERY == AIM_AT`` and the rewrite
#: steps ``step % AIM_REWRITE_EVERY == AIM_REWRITE_AT`` offer first a form whose sites touch an op type the pass reads,
#: on a base holding it (:meth:`Scheduler._aimed_item`; round 10e, M106).
AIM_AT = 1
AIM_REWRITE_AT = 2
#: The aimed share (aim31, M115): one variation step in ``AIM_VARY_EVERY`` and one step in ``AIM_REWRITE_EVERY``. An
#: aimed step draws on the bases holding the read op its pass's items touched least: single-op generated bases for
#: the most part, where a broad pass acts little, in place of an ordinary draw (the map's untried pairs, the triple
#: rule) that stays on the bases where the pass acts. At one in 3 and one in 8 (M106's first share) side-by-side
#: 3-minute ``ort:basic`` hunts found 71 signatures against 121 with no aimed step; at one in 6 and one in 32 three
#: side-by-side pairs found 220 against 250 (root causes 119 against 130), and R98's broad hunt still found it
#: (docs/recall.md, round 10e, "Tuning the aimed share"). A multiple of :data:`UNIT_EVERY` keeps the aimed
#: variation steps off the unit steps.
AIM_VARY_EVERY = 6
AIM_REWRITE_EVERY = 32
#: With variations on, the rewrite steps ``step % UNDRAWN_REWRITE_EVERY == UNDRAWN_REWRITE_AT`` (none of them a
#: composition, op or aimed step) offer first a neighbour of the kind with the most sites on the bases listed so far
#: among the kinds never drawn under the pass, once every rewrite the pass's entries offer has an item under it
#: (:meth:`Scheduler._undrawn_item`, :meth:`Scheduler.rewrites_drawn`; round 13h, M204; round 14d, M225). No
#: variation step: with a third of them (M204's) the planted-spelling hunt missed a rewrite on 8 of 18 (seed, pass)
#: against 5 without, its own seed 6 included (docs/recall.md, round 14d).
UNDRAWN_REWRITE_EVERY = 4
UNDRAWN_REWRITE_AT = 0
#: Op types an aimed step looks at before it gives up (each lists the forms of :data:`SAMPLE` bases holding it).
AIM_LOOK = 3
#: Bases whose forms (rewrite forms, or neighbours) an aimed step lists for the first time, at most; the others of
#: its sample count only when listed before. Listing a base's rewrite forms applies every rewrite to it (~0.2 s at
#: load 15): with all 8 listed, a 3-minute broad hunt spent 34 s of its budget there (96 items instead of 229).
AIM_BUILD = 2
#: (op type, rewrite or variation kind, pass, site kind, the base form's shape facts): what an item covers
#: (:meth:`Scheduler.triples`; the fifth since session 27, round 7h).
Triple = tuple[str, str, str, str, str]
#: The pseudo-family the rare kinds' items are counted in too (:meth:`Scheduler._rare_item`).
RARE = "rare"
#: The pseudo-family of the neighbours at another site of a kind already tried on their base and pass
#: (:meth:`Scheduler._site_item`).
SITES = "sites"
#: The site kind of an all-at-once form or a neighbour (every site of its rewrite, or a change of its own).
ALL_SITES = "*"


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
        cost: Callable[[str], float] = item_seconds,
        variations: bool = False,
        acted: Callable[[str, str], object] | None = None,
        vary_kinds: Sequence[str] = (),
        rewrites: Sequence[str] = (),
        compose: bool = False,
    ):
        """``runs``: base id → whether that base runs on its feeds, asked (once a base has been
        picked) when the base is a candidate again; a base that does not is not picked again.
        ``passes_of``: base id → the passes its items draw from (its relevant set,
        :mod:`.passes`; ``passes`` holds all of them); None: every base draws from ``passes``.
        ``cost``: pass id → expected seconds per item (:func:`.cost.item_seconds`).
        A variation item draws from its base's passes.
        ``variations``: each base's neighbours (variation forms, :mod:`.variation`) are candidates too.
        ``vary_kinds``: with ``variations``, fnmatch globs of variation kinds (without ``vary:``): the
        neighbours of a matching kind are the only candidates, no rewrite form is (empty: no restriction).
        ``rewrites``: fnmatch globs of rewrite ids: the rewrite forms with a matching rewrite are the only rewrite
        candidates, and no neighbour is one unless ``vary_kinds`` names it (empty: no restriction); ``ID:NAME``
        also names the part in the sampled and composed forms (:func:`names_part`), e.g. ``neutral-op:split-third``
        (the rare-rewrite and undrawn-site paths test the id half only).
        ``acted``: (base id, pass) → where the pass acted on the base (:class:`.guide.Acted`), asked once an
        item of that base and pass has been picked: its single-site forms under the pass are then those
        :func:`.guide.guided_forms` ranks first; None: the sampled sites alone.
        ``compose``: with ``variations``, the rewrites of a neighbour (:mod:`.compose`) are candidates too, under a
        pass once the neighbour's own item under it has been picked (every shard and a resumed hunt see the same
        picks); ``vary_kinds`` and ``rewrites`` filter their two parts."""
        self.bases, self.passes, self.seed = list(bases), list(dict.fromkeys(passes)), seed
        self.variations = variations
        self.compose = compose and variations
        self.composed_of: dict[tuple[str, str], set[str]] = {}  # (base, pass) → the composed kinds tried there
        self._neighbour: dict[tuple[str, str], object] = {}  # (base, variation form) → the neighbour model
        self.vary_kinds = tuple(vary_kinds)
        self.rewrites = tuple(rewrites)
        self._rids = tuple(g.partition(":")[0] for g in self.rewrites)  # the rewrite-id halves of ``rewrites``
        self._named = [rid for rid in REWRITES if _matches(rid, self._rids)]  # the rewrites ``rewrites`` names
        self._rewritable: dict[str, bool] = {}  # base → whether one of them applies (:meth:`_may_rewrite`)
        self._only: str | None = None  # "vary" / "rewrite": this step looks at those forms alone (first)
        self._carry_first = False  # this composition step ranks the carrying tier before the opened one
        self.families: dict[str, int] = {}  # variation family → items tried (value, shape, attr, elem, bind, feed)
        self.kinds_of: dict[tuple[str, str], set[str]] = {}  # (base, pass) → the variation kinds tried there
        self.kinds_on: dict[str, set[str]] = {}  # pass → the variation kinds (no prefix) tried under it
        self._sites: dict[tuple, int] = {}  # (base, pass, kind) → its sites tried; (pass, kind) → on every base
        self._rounds: dict[tuple[str, str], int] = {}  # (base, kind) → its site batches listed after the first (M188)
        self._extra: dict[str, list[str]] = {}  # base → the neighbours of those batches, in the order listed
        self._rare = None  # the rare kinds (:class:`.vary_rare.Rare`), found on the first variation step
        self._rare_rw = None  # the rare rewrites (:class:`.rare_rewrites.RareRewrites`), found on first need
        self.rare_units_on: dict[str, set[tuple[str, str]]] = {}  # pass → the rare rewrite units tried under it
        self._rare_elems: dict[str, dict[str, int]] = {}  # pass → element type → its plain rewrite items
        self._rare_picked: set[str] = set()  # item keys the rare rewrite share picked (kept at their site)
        self._declared_types: dict[str, dict[str, str]] = {}  # base → site_kind.types(infer=False)
        self.units_on: dict[str, set[tuple[str, str]]] = {}  # pass → the generic neighbour units (kind, elem) tried
        self._tagged: dict[str, list[Base]] | None = None  # element type → the bases tagged with it (_tags)
        self._tag_sites: dict[str, list[tuple[str, str, str, str]]] = {}  # elem → (kind, unit, base, form) sampled
        self._vary_elems: dict[str, dict[str, int]] = {}  # pass → element type → the neighbour items holding it
        self._kind_elems: dict[tuple[str, str], dict[str, int]] = {}  # (pass, kind) → element type → its items there
        self._touched: dict[str, dict[str, int]] = {}  # pass → op type → the items whose triples name it
        self._kind_n: dict[str, dict[str, int]] = {}  # pass → rewrite kind → its plain rewrite items
        self._declares: dict[str, bool] = {}  # pass → whether it states the bases it takes (pass_range)
        self._range: dict[tuple[str, str], bool] = {}  # (base, pass) → whether the pass takes the base
        self.out_of_range: dict[str, set[str]] = {}  # pass → the bases met that it states it does not take
        self.moved_on: dict[str, list[tuple[str, str]]] = {}  # pass → (base, neighbour) that found a new signature
        self.wrote_on: dict[str, list[tuple[str, str]]] = {}  # pass → (base, neighbour) it wrote a new op on
        self._chains: dict[tuple[str, str], list[str]] = {}  # (base, first link) → its chained forms (.chain)
        self._declared: dict[str, list[tuple[str, str]]] = {}  # pass → (base, input-declaring first link) (.chain)
        self._declared_seen: set[tuple[str, str]] = set()  # (base, pass) whose declaring first links are listed
        self._chain_n: dict[str, dict[tuple[str, str], int]] = {}  # pass → (base, first link) → its chain items
        self._chain_pairs: dict[str, dict[str, int]] = {}  # pass → chained kind → its items
        self._comp_pairs: dict[str, dict[tuple[str, str], int]] = {}  # pass → (neighbour kind, rewrite) → items
        self._moved_n: dict[str, dict[tuple[str, str], int]] = {}  # pass → (base, neighbour) → its composed items
        self._moved_forms: dict[tuple[str, str], list[str]] = {}  # (base, neighbour) → its rewrites, one per rewrite
        self._op_pairs: dict[str, dict[tuple[str, str], int]] = {}  # pass → (op type, kind) → its items (op_pairs)
        self._base_reads: dict[tuple[str, str], tuple] = {}  # (op, base) → op_reads.reads of the base
        self._reads: dict[tuple[str, str, str], bool] = {}  # (op, base, form) → it changes a type the op reads
        self._op_forms: dict[tuple[str, str, str], list[str]] = {}  # (op, probe, pass) → generic forms on the op
        self._aim_ops: dict[str, dict[str, int]] = {}  # pass → op type it reads → its items touching it (M106)
        self._aim_kinds: dict[str, dict[str, int]] = {}  # pass → form kind → its items touching an op it reads
        self._aim_forms: dict[tuple[str, str, str, bool], list[str]] = {}  # (op, base, pass, vary) → forms at op
        #: the time budget's end (:func:`time.monotonic`; None: none): a step still choosing then raises
        #: :class:`.budget.Spent` (set by :func:`.search.hunt`; round 11d, M129)
        self.until: float | None = None
        self._runs = runs
        self._of = passes_of
        self._cost = cost
        self.picked: set[str] = set()
        self.picked_on: set[tuple[str, str]] = set()  # (base, pass) with an item picked
        self._acted = acted
        self.by_id = {b.id: b for b in self.bases}
        self.share = shares(self.passes)
        self.spent: dict[str, float] = dict.fromkeys(self.passes, 0.0)  # pass → expected seconds of its items
        self.of_case: dict[tuple[str, str], int] = {}  # (case id, pass) → items
        self._pool: dict[str, list[Base]] = {p: [] for p in self.passes}  # pass → the bases it is relevant to
        self._cases: dict[str, list[Base]] = {}  # case id → its bases
        for b in self.bases:
            self._cases.setdefault(b.case.id, []).append(b)
            for p in self.passes_of(b.id):
                self._pool.setdefault(p, []).append(b)
        self.pairs_tried: set[tuple[str, str]] = set()  # (entry key, rewrite kind)
        self._map = _MapView(cmap, self.by_id, self.passes, self.passes_of) if cmap is not None else None
        self.tried: set[Triple] = set()
        self.done: set[str] = set()
        self.dead: set[str] = set()  # bases that do not run on their feeds: no item of theirs can be judged
        self.used_up: set[str] = set()  # passes without an untried item (only ever grows)
        self._case_used_up: set[tuple[str, str]] = set()  # (case id, pass) without an untried item
        self._ops: dict[tuple[str, str], tuple[str, frozenset[str], tuple[str, ...]]] = {}  # (kind, ops, site kinds)
        self._sigs: dict[str, dict[str, tuple]] = {}  # base → its site signatures
        self._rank_of: dict[str, dict[str, str]] = {}  # base → its site ranks
        self._facts: dict[str, str] = {}  # base → the shape facts its form states (site_kind.shape_facts)
        self._labels: dict[tuple[str, str], tuple[str, ...]] = {}  # (base, form) → the labels its rewrite changed
        self._entry_bases: dict[str, list[Base]] = {}  # pass → the bases of its entries (rewrites_drawn)
        self.invalid: set[tuple[str, str]] = set()  # (base, variation form) of the neighbours that are no valid model
        self._vary_n: dict[tuple[str, str], int] = {}  # (base, pass) → its variation items
        self._retry: list[Item] = []  # an invalid neighbour's id on the other forms of its case, in the order met
        self.rewrites_on: dict[str, set[str]] = {}  # pass → the rewrite kinds of its plain rewrite items
        self._firsts: dict[str, list[int]] = {}  # pass → [its op-free first-of-kind items, its other rewrite items]
        self._entry_sites: dict[tuple[str, frozenset[str]], list[str]] = {}  # (base, entry ops) → entry_sites
        # what the per-step ranking of every listed form reads again on each step, kept for this hunt only (round 23u):
        self._triples: dict[tuple[str, str, str], frozenset[Triple]] = {}  # (base, form, pass) → triples(item)
        self._form_facts: dict[str, tuple[int, str | None]] = {}  # form → (form_depth, its op-free first kind)
        self._entry_at: dict[tuple[str, str], list[str]] | None = None  # (base, pass) → entry_sites, in one _best

    def passes_of(self, base_id: str) -> Sequence[str]:
        """The passes the items of base ``base_id`` draw from."""
        return self.passes if self._of is None else self._of(base_id)

    def draws(self, base_id: str, pass_id: str) -> bool:
        """Whether items of base ``base_id`` are drawn under ``pass_id``: one of its passes (:meth:`passes_of`), and
        a base the pass states it takes (:meth:`_in_range`)."""
        return pass_id in self.passes_of(base_id) and self._in_range(self.by_id[base_id], pass_id)

    def _in_range(self, base: Base, pass_id: str) -> bool:
        """Whether ``pass_id`` takes ``base`` by what its adapter states up front (:func:`.pass_range.refuses`: its
        declared opset range, a converter's precondition; round 9e, M92, round 11h, M142), asked once per base and
        pass; always True for a pass that states nothing. A base refused is counted in :attr:`out_of_range` (the
        summary says how many)."""
        from passcheck.hunt import pass_range

        if pass_id not in self._declares:
            self._declares[pass_id] = pass_range.declares(pass_id)
        if not self._declares[pass_id]:
            return True
        key = (base.id, pass_id)
        if key not in self._range:
            budget.check(self.until)  # a base's first answer builds its model
            try:
                model = base.model()
            except Exception:  # noqa: BLE001 - a base this onnx cannot build: left to the usual paths
                self._range[key] = True
            else:
                self._range[key] = pass_range.refuses(pass_id, model) is None
            if not self._range[key]:
                self.out_of_range.setdefault(pass_id, set()).add(base.id)
        return self._range[key]

    def forms(self, base: Base, pass_id: str | None = None) -> list[str]:
        """The candidate forms of ``base`` at this step, the lists :data:`LOOKS_AT` names in its order: its
        rewrite forms (under ``pass_id``, guided by where it acted on the base once an item of the two was
        picked: ``acted`` in the constructor), its variation forms when turned on, the rewrites of its
        neighbours tried under ``pass_id`` (:mod:`.compose`); each list is made only when looked at."""
        looks = LOOKS_AT[self._only, not (self.vary_kinds and not self.rewrites)]
        vary = self._vary(base) if "vary" in looks or "composed" in looks else []
        made = {
            "own": lambda: self._own(base, pass_id),
            "vary": lambda: vary,
            "composed": lambda: self._composed(base, vary, pass_id),
        }
        return [f for name in looks for f in made[name]()]

    def _vary(self, base: Base) -> list[str]:
        """``base``'s variation forms when turned on (alone with ``rewrites`` unless ``vary_kinds`` is given too),
        of the kinds ``vary_kinds`` names."""
        vary = self.listed(base) if self.variations and (self.vary_kinds or not self.rewrites) else []
        if self.vary_kinds:
            vary = [f for f in vary if _matches(variation.kind(f)[len(variation.PREFIX) :], self.vary_kinds)]
        return vary

    def listed(self, base: Base) -> list[str]:
        """``base``'s neighbours listed so far: its sampled ones (:meth:`.space.Base.variations`), then the site
        batches rotated in since (module docs, "Sites rotate")."""
        return base.variations(self.seed) + self._extra.get(base.id, [])

    def _rotate(self, item: Item) -> None:
        """After ``item`` (a neighbour, not chained, of a known base) is marked: when every listed neighbour of its
        kind on its base has an item under its pass, list the kind's next batch of sites there (none left: nothing)."""
        base = self.by_id[item.base]
        kind = variation.kind(item.form)
        same = [f for f in self.listed(base) if variation.kind(f) == kind]
        if any(Item(base.id, f, item.pass_id).key not in self.done for f in same):
            return
        n = self._rounds.get((base.id, kind), 0) + 1
        if new := [f for f in base.rotated(self.seed, kind, n) if f not in same]:
            self._rounds[base.id, kind] = n
            self._extra.setdefault(base.id, []).extend(new)

    def _own(self, base: Base, pass_id: str | None) -> list[str]:
        """``base``'s own rewrite forms (guided under ``pass_id`` once an item of the two was picked), those of
        the rewrites ``rewrites`` names; none when none of them applies to it (its neighbours' may)."""
        if self.rewrites and not self._may_rewrite(base):
            return []
        own = base.forms(self.seed)
        if self._acted is not None and pass_id is not None and (base.id, pass_id) in self.picked_on:
            own = base.guided(self.seed, pass_id, self._acted(base.id, pass_id))
        if pass_id is not None and (at := self.entry_sites(base, pass_id)):
            own = own + [f for f in at if f not in own]
        if self.rewrites:
            own = [f for f in own if any(names_part(r, label, self.rewrites) for r, label in hforms.parts(f))]
        return own

    def _composed(self, base: Base, vary: Sequence[str], pass_id: str | None) -> list[str]:
        """The rewrites of ``base``'s neighbours ``vary`` whose own item under ``pass_id`` has been picked, their
        rewrite part matching ``rewrites`` when given (:mod:`.compose`)."""
        if not self.compose or pass_id is None:
            return []
        out = []
        for v in vary:
            if Item(base.id, v, pass_id).key in self.done and (base.id, v) not in self.invalid:
                out += base.compositions(self.seed, v, frozenset(self._named) if self.rewrites else None)
        if self.rewrites:
            parts = (hforms.parts(compose.split(f)[1]) for f in out)
            out = [f for f, p in zip(out, parts) if any(names_part(r, label, self.rewrites) for r, label in p)]
        return out

    def entry_ops(self, base_id: str, pass_id: str) -> frozenset[str]:
        """The op types the catalogue entries ``base_id`` triggers and ``pass_id`` runs act on (empty: no map): those
        observed (:func:`.nearness.entry_ops`) and those their names spell (:func:`.entry_sites.named_ops`)."""
        if self._map is None:
            return frozenset()
        keys = [k for k in self._map.by_base.get(base_id, ()) if pass_id in self._map.entries[k][1]]
        named = (entry_sites.named_ops(k) for k in keys if " @ " not in k)  # not an unscoped pass's pseudo-entry
        return frozenset().union(*(self._map.ops.get(k, frozenset()) for k in keys), *named)

    def near_ops(self, base_id: str, pass_id: str) -> frozenset[str]:
        """The op types ``base_id`` lacks that would complete a pattern an entry ``pass_id`` runs spells by name
        (:func:`.entry_sites.near_ops`; empty: no map)."""
        if self._map is None:
            return frozenset()
        return entry_sites.near_ops(self._map.spelt.get(pass_id, ()), self._base_ops(base_id))

    def _base_ops(self, base_id: str) -> frozenset[str]:
        """The op types ``base_id`` holds (:func:`.preconditions.ops_of`: none for a base this onnx cannot build)."""
        from passcheck.hunt.preconditions import ops_of

        return frozenset(ops_of(self.by_id[base_id]))

    def entry_sites(self, base: Base, pass_id: str) -> list[str]:
        """``base``'s single-site forms at which a rewrite writes an op the entries it triggers under ``pass_id``
        act on (:func:`.entry_sites.entry_sites`: the neutral Pad that crops in front of a Conv for a Pad → Conv
        fusion), the seeded sample of its sites aside; built once per base and set of ops."""
        triggered = self.entry_ops(base.id, pass_id)
        near = self.near_ops(base.id, pass_id) - triggered
        ops = triggered | near
        if not ops:
            return []
        if (base.id, ops) not in self._entry_sites:
            try:
                base.forms(self.seed)  # fills base.applied
                got = entry_sites.entry_sites(
                    base.model(), base.applied, ops, random.Random(f"{self.seed}:{base.id}:entry"), near
                )
            except Exception:  # noqa: BLE001 - a base this onnx cannot build has no forms
                got = []
            self._entry_sites[base.id, ops] = got
        return self._entry_sites[base.id, ops]

    def _op_free_first(self, form: str, pass_id: str) -> bool:
        """On a rewrite step, whether ``form`` is the first item under ``pass_id`` of a rewrite whose sites are no
        nodes (:func:`.entry_sites.op_free`), while such first items are no more than the pass's other rewrite
        items: a freedom of the IR that any base has is one of ~160 rewrites for the triple rule, whose op novelty
        never ranks it, so it gets one early item per pass (``deep-identity-chain``: round 5b)."""
        firsts, others = self._firsts.get(pass_id, [0, 0])
        if firsts > others:
            return False
        kind = self._form_of(form)[1]
        return kind is not None and kind not in self.rewrites_on.get(pass_id, ())

    def _form_of(self, form: str) -> tuple[int, str | None]:
        """``form``'s depth (:func:`form_depth`) and, for a plain rewrite form of one rewrite whose sites are no nodes
        (:func:`.entry_sites.op_free`), its kind (else None): functions of the form alone, spelt once per hunt."""
        if (got := self._form_facts.get(form)) is None:
            kind = None
            if not variation.is_variation(form) and not compose.is_composed(form):
                rids = {r for r, _ in hforms.parts(form)}
                if len(rids) == 1 and entry_sites.op_free(next(iter(rids))):
                    kind = hforms.kind(form)
            got = self._form_facts[form] = (form_depth(form), kind)
        return got

    def neighbour(self, base: Base, vform: str):
        """``base``'s neighbour ``vform`` (built once; None when it does not build)."""
        if (base.id, vform) not in self._neighbour:
            built = variation.build(base.model(), vform, labelled=True)  # the composed sites' labels
            self._neighbour[base.id, vform] = None if built is None else built[0]
        return self._neighbour[base.id, vform]

    def _may_rewrite(self, base: Base) -> bool:
        """Whether a rewrite ``rewrites`` names applies to ``base`` (asked once per base, before its forms are
        enumerated: a base none applies to has no candidate rewrite form, and enumerating every rewrite's forms
        of every base costs a restricted hunt as much as an unrestricted one)."""
        if base.id not in self._rewritable:
            try:
                model = base.model()
            except Exception:  # noqa: BLE001 - a base this onnx cannot build has no forms (Base.forms)
                self._rewritable[base.id] = False
            else:
                self._rewritable[base.id] = any(hforms.applies(model, rid) for rid in self._named)
        return self._rewritable[base.id]

    def _signatures(self, base: Base) -> dict[str, tuple]:
        """``base``'s site signatures (:func:`passcheck.mutations.sites.site_signatures`), built once."""
        if base.id not in self._sigs:
            self._sigs[base.id] = site_signatures(base.model())
        return self._sigs[base.id]

    def _ranks(self, base: Base) -> dict[str, str]:
        """``base``'s site ranks and element types (:func:`.site_kind.types`), built once."""
        if base.id not in self._rank_of:
            self._rank_of[base.id] = site_kind.types(base.model())
        return self._rank_of[base.id]

    def shape_facts(self, base: Base) -> str:
        """The shape facts ``base``'s form states (:func:`.site_kind.shape_facts`), read once; ``?`` for a base
        this onnx cannot build."""
        if base.id not in self._facts:
            try:
                self._facts[base.id] = site_kind.shape_facts(base.model())
            except Exception:  # noqa: BLE001 - a base this onnx cannot build states nothing (Base.forms)
                self._facts[base.id] = "?"
        return self._facts[base.id]

    @property
    def _vary_step(self) -> bool:
        return self._only == "vary"

    def declared(self, base: Base) -> list[str]:
        """The passes ``base``'s case declares (``Case.passes``) that its items draw from."""
        own = set(self.passes_of(base.id))
        return [p for p in dict.fromkeys(base.case.passes) if p in own]

    def triples(self, item: Item) -> frozenset[Triple]:
        """The (op type, rewrite or variation kind, pass, site kind, shape facts) tuples ``item`` covers: the ops at
        its site, or every op of its base. The site kind (:func:`site_kinds`) is what the rewrite's site signature
        records at each site of a single-site form (:meth:`~passcheck.mutations._base.Rewrite.signature`: the
        node's op type and its readers', a value's producer and readers), ``*`` for an all-at-once form or a
        neighbour: a rewrite tried at one kind of site of an op is still new at its other kinds. The shape facts
        (:meth:`shape_facts`) are those the base's form states: a rewrite tried on a case's ``common`` form is still
        new on its ``anonymous`` one (a pass reads other facts there), not on a form stating the same facts.
        A function of the item alone, kept per item for the hunt (a frozenset: the ranking reads it on every step)."""
        if (got := self._triples.get((item.base, item.form, item.pass_id))) is not None:
            return got
        if (item.base, item.form) not in self._ops:
            base = self.by_id[item.base]
            if compose.is_composed(item.form):  # the rewrite's site in the neighbour, its site kind there
                ops, where = self._composed_sites(base, item.form)
            elif variation.is_chained(item.form):  # each link's ops in the model it changes
                ops = variation.site_ops(base.model(), item.form)
                where = (ALL_SITES,)
            elif variation.is_variation(item.form):
                ops = site_ops([base.model()], variation.site_labels(base.model(), item.form))
                where: tuple[str, ...] = (ALL_SITES,)
            else:
                labels = [s for _, s in hforms.parts(item.form) if s is not None]
                ops = site_ops([base.model()], labels) if labels else set()
                where = site_kinds(base, item.form, self._signatures, self._ranks)
                rids = [r for r, _ in hforms.parts(item.form)]
                if not labels and len(rids) == 1 and len(changed := self.labels(base, item.form)) == 1:
                    # a rewrite with one site here: the all-at-once form is that single site (its kind, round 7h)
                    where = (site_kind.kind(rids[0], changed[0], self._signatures(base), self._ranks(base)),)
            facts = self.shape_facts(base)
            self._ops[item.base, item.form] = (form_kind(item.form), frozenset(ops or base.ops()), where, facts)
        kind, ops, where, facts = self._ops[item.base, item.form]
        got = frozenset((op, kind, item.pass_id, w, facts) for op in ops for w in where)
        self._triples[item.base, item.form, item.pass_id] = got
        return got

    def _composed_sites(self, base: Base, form: str) -> tuple[set[str], tuple[str, ...]]:
        """The op types at composed ``form``'s rewrite site in its neighbour and that site's kind there."""
        vform, rform = compose.split(form)
        neighbour = self.neighbour(base, vform)
        if neighbour is None:
            return set(), (ALL_SITES,)
        labels = [s for _, s in hforms.parts(rform) if s is not None]
        twin = Base(base.case, base.form, _model=neighbour)
        return (site_ops([neighbour], labels) if labels else set()), site_kinds(
            twin, rform, lambda b: site_signatures(b.model()), lambda b: site_kind.types(b.model())
        )

    def labels(self, base: Base, form: str) -> tuple[str, ...]:
        """The site labels ``form``'s rewrite changes in ``base`` (built once; none when it does not build)."""
        if (base.id, form) not in self._labels and form in base.applied:  # built by Base.forms already
            self._labels[base.id, form] = tuple(base.applied[form])
        if (base.id, form) not in self._labels and variation.is_variation(form):
            self._labels[base.id, form] = tuple(variation.site_labels(base.model(), form))
        if (base.id, form) not in self._labels and compose.is_composed(form):
            self._labels[base.id, form] = tuple(s for _, s in hforms.parts(compose.split(form)[1]) if s is not None)
        if (base.id, form) not in self._labels:
            try:
                built = hforms.build(base.model(), form)
            except Exception:  # noqa: BLE001 - a rewrite that cannot read this base: it changes nothing here
                built = None
            self._labels[base.id, form] = tuple(built[1]) if built else ()
        return self._labels[base.id, form]

    def mark(
        self,
        item: Item,
        triples: Iterable[Triple] | None = None,
        base_fails: bool = False,
        valid: bool = True,
        moved: bool = False,
        wrote: bool = False,
    ) -> None:
        """Record ``item`` as tried (its triples recomputed unless given, e.g. from a saved state);
        ``base_fails``: its base does not run, so no other item of that base is picked. ``valid``: False for a
        neighbour (or a rewrite of one) that is no valid model (:func:`.search.valid_neighbour`): it judged
        nothing, so its triples stay untried (the same neighbour on a sibling form where it is valid is still
        new) and no rewrite of it is a candidate. ``moved``: the item found a signature the hunt did not hold (an
        unsharded hunt's record says so): a valid neighbour that moved its pass, alone or under a rewrite, is
        composed first on the moved composition steps (:meth:`_moved_item`). ``wrote``: the pass wrote an op on the
        neighbour it wrote on neither the base nor the neighbour (:func:`.vary_probe.wrote`): a valid neighbour that
        moved its pass so, or by a new signature, is a first link of the chain steps (:meth:`_chain_item`). A
        chained neighbour is neither (depth 2). A variation item's base offers its neighbours that declare the inputs
        (:func:`.chain.declares`) as first links under the pass, whether or not they were drawn (round 11g, M141)."""
        self.done.add(item.key)
        chained = variation.is_chained(item.form)
        if not chained and variation.is_variation(item.form) and item.base in self.by_id:
            self._declare_firsts(item.base, item.pass_id)
        if valid and not chained and variation.is_variation(item.form) and (moved or wrote):
            if (item.base, item.form) not in self.wrote_on.get(item.pass_id, ()):
                self.wrote_on.setdefault(item.pass_id, []).append((item.base, item.form))
        if chained:
            first = variation.links(item.form)[0]
            used = self._chain_n.setdefault(item.pass_id, {})
            used[item.base, first] = used.get((item.base, first), 0) + 1
            pairs = self._chain_pairs.setdefault(item.pass_id, {})
            pairs[variation.kind(item.form)] = pairs.get(variation.kind(item.form), 0) + 1
        if moved and valid and not chained and (variation.is_variation(item.form) or compose.is_composed(item.form)):
            vform = compose.split(item.form)[0] if compose.is_composed(item.form) else item.form
            if (item.base, vform) not in self.moved_on.get(
                item.pass_id, ()
            ):  # its neighbour, or a rewrite of it, moved
                self.moved_on.setdefault(item.pass_id, []).append((item.base, vform))
        if not valid and (variation.is_variation(item.form) or compose.is_composed(item.form)):
            self.invalid.add((item.base, compose.split(item.form)[0]))
            if item.base in self.by_id and not compose.is_composed(item.form):
                self._retry += [
                    Item(b.id, item.form, item.pass_id)
                    for b in self._cases[self.by_id[item.base].case.id]
                    if b.id != item.base and item.form in self.listed(b)
                ]
        self.picked.add(item.base)
        self.picked_on.add((item.base, item.pass_id))
        if compose.is_composed(item.form):
            self.composed_of.setdefault((item.base, item.pass_id), set()).add(compose.kind(item.form))
            used = self._moved_n.setdefault(item.pass_id, {})
            used[item.base, compose.split(item.form)[0]] = used.get((item.base, compose.split(item.form)[0]), 0) + 1
            pairs = self._comp_pairs.setdefault(item.pass_id, {})
            pair = _composed_pair(item.form)
            pairs[pair] = pairs.get(pair, 0) + 1
        elif not variation.is_variation(item.form):
            kinds = self.rewrites_on.setdefault(item.pass_id, set())
            rids = {r for r, _ in hforms.parts(item.form)}
            first = len(rids) == 1 and entry_sites.op_free(next(iter(rids))) and hforms.kind(item.form) not in kinds
            self._firsts.setdefault(item.pass_id, [0, 0])[0 if first else 1] += 1
            kinds.add(hforms.kind(item.form))
            counts = self._kind_n.setdefault(item.pass_id, {})
            counts[hforms.kind(item.form)] = counts.get(hforms.kind(item.form), 0) + 1
            if self.variations and len(rids) == 1 and item.base in self.by_id:
                self._mark_rare_unit(item, next(iter(rids)))
        if variation.is_variation(item.form) and not chained:  # a chain has its own step, not the families' shares
            fam = variation.family(item.form)
            self.families[fam] = self.families.get(fam, 0) + 1
            kind = variation.kind(item.form)
            if kind in self.kinds_of.get((item.base, item.pass_id), ()):
                self.families[SITES] = self.families.get(SITES, 0) + 1
            self._sites[item.pass_id, kind] = self._sites.get((item.pass_id, kind), 0) + 1
            self._sites[item.base, item.pass_id, kind] = self._sites.get((item.base, item.pass_id, kind), 0) + 1
            self.kinds_of.setdefault((item.base, item.pass_id), set()).add(kind)
            self._vary_n[item.base, item.pass_id] = self._vary_n.get((item.base, item.pass_id), 0) + 1
            bare = variation.kind(item.form)[len(variation.PREFIX) :]
            if bare in self.rare.meeting and bare not in self.kinds_on.get(item.pass_id, ()):
                # a rare kind's first item under the pass: its other sites count under SITES, not here
                self.families[RARE] = self.families.get(RARE, 0) + 1
            self.kinds_on.setdefault(item.pass_id, set()).add(bare)
            if item.base in self.by_id:
                self._mark_unit(item, bare)
                self._rotate(item)
        self.spent[item.pass_id] = self.spent.get(item.pass_id, 0.0) + self._cost(item.pass_id)
        case = self.by_id[item.base].case.id if item.base in self.by_id else item.base.rsplit(":", 1)[0]
        self.of_case[case, item.pass_id] = self.of_case.get((case, item.pass_id), 0) + 1
        if self._map is not None:
            self.pairs_tried.update(self._map.pairs(item))
        if base_fails:
            self.dead.add(item.base)
        got = triples
        if got is None and valid:
            got = self.triples(item)
        elif got is None:  # an invalid neighbour touched its ops all the same
            try:
                got = self.triples(item) if item.base in self.by_id else set()
            except Exception:  # noqa: BLE001 - a neighbour that does not build names no op
                got = set()
        reads = self._map.reads.get(item.pass_id) if self._map is not None else None
        if reads and not compose.is_composed(item.form) and (hit := {t[0] for t in got} & reads):
            aimed = self._aim_ops.setdefault(item.pass_id, {})
            for op in hit:
                aimed[op] = aimed.get(op, 0) + 1
            kinds = self._aim_kinds.setdefault(item.pass_id, {})
            kinds[form_kind(item.form)] = kinds.get(form_kind(item.form), 0) + 1
        on = self._touched.setdefault(item.pass_id, {})
        held = self._op_pairs.setdefault(item.pass_id, {})
        for op in {t[0] for t in got}:
            on[op] = on.get(op, 0) + 1
            held[op, form_kind(item.form)] = held.get((op, form_kind(item.form)), 0) + 1
        if valid:
            self.tried.update(tuple(t) for t in got)

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
        kinds = ["vary"] if step % VARIATION_EVERY == VARIATION_EVERY - 1 else ["rewrite"]
        if self.compose and kinds == ["rewrite"] and step % COMPOSE_EVERY == COMPOSE_EVERY - 3:
            kinds = ["compose", "rewrite"]  # a rewrite step when no composed item is left
            self._carry_first = (step // COMPOSE_EVERY) % 2 == 1
        for kind in kinds:
            self._only = kind
            try:
                item = self._next(step)
            finally:
                self._only = None
            if item is not None:
                return item
        if (item := self._next(step)) is None and self.compose:  # the space spent: the chains left are items too
            item = next((i for p in self.passes if (i := self._chain_item(p, step, anywhere=True)) is not None), None)
        return item

    def _next(self, step: int) -> Item | None:
        order = sorted(
            (p for p in self.passes if p not in self.used_up and self._pool.get(p)),
            key=lambda p: ((self.spent.get(p, 0.0) + self._cost(p)) / self.share[p], self.passes.index(p)),
        )
        for p in order:
            if (item := self._next_on(p, step)) is not None:
                return self._guided_site(self._declared_first(item, step))
            if self._only is None:  # a step looking at one kind of form alone saw only that kind
                self.used_up.add(p)
        return None

    def _next_on(self, pass_id: str, step: int) -> Item | None:
        """The item for ``step`` on ``pass_id`` (on a variation step a generic neighbour's unit on its steps, then a
        rare kind in its share first; on a rewrite step a rare op on its steps, then a rare rewrite unit in its share;
        then pairs, then triples), or None: none left."""
        if self._vary_step and (item := self._unit_item(pass_id, step)) is not None:
            return item
        if self._only in ("vary", "rewrite") and (item := self._aimed_item(pass_id, step)) is not None:
            return item
        if self._vary_step and (item := self._rare_item(pass_id, step)) is not None:
            return item
        if self._only == "rewrite" and (item := self._op_item(pass_id, step)) is not None:
            return item
        if self._only == "compose" and (item := self._chain_item(pass_id, step)) is not None:
            return item
        if self._only == "compose" and (item := self._moved_item(pass_id, step)) is not None:
            return item
        if self._only == "compose" and (item := self._chain_item(pass_id, step, declared=True)) is not None:
            return item  # a declared input's chain: after the moved neighbours' compositions (M141)
        if self._only == "rewrite" and (item := self._rare_rewrite_item(pass_id, step)) is not None:
            return item
        if self._vary_step and (item := self._retried(pass_id)) is not None:
            return item
        if self._only == "rewrite" and (item := self._undrawn_item(pass_id, step)) is not None:
            return item  # after the op and rare rewrite steps
        if self._vary_step and (item := self._site_item(pass_id, step)) is not None:
            return item
        if self._map is not None and (item := self._map.untried(self, step, pass_id)) is not None:
            return self._sibling_first(item, step)
        rng = random.Random(f"{self.seed}:{step}:{pass_id}")
        pool = self._pool[pass_id]
        if self._declares.get(pass_id):  # the bases found outside what the pass takes are no sample (M143)
            pool = [b for b in pool if self._range.get((b.id, pass_id), True)]
        if self._only == "compose":  # only a base with a neighbour tried under the pass has a composed form
            pool = [b for b in pool if self._vary_n.get((b.id, pass_id))]
        best = self._best(pool if len(pool) <= SAMPLE else rng.sample(pool, SAMPLE), rng, pass_id)
        if best is None and len(pool) > SAMPLE:  # the sample is used up: the other bases, a group at a time
            best = self._walk(pool, rng, pass_id)
        return None if best is None else self._sibling_first(best, step)

    def _walk(self, pool: Sequence[Base], rng: random.Random, pass_id: str) -> Item | None:
        """When a step's sample of :data:`SAMPLE` bases gives no item: the bases of ``pool`` in an order drawn from
        ``rng``, of those ``pass_id`` draws (:meth:`draws`) and that run, the first group of :data:`SAMPLE` with a
        candidate, its best by :meth:`_best` (the rule of the sample); None when no base of ``pool`` has one.
        Before (round 11d, M130) the whole pool was ranked at once, listing the forms of every base (11,308 with
        onnx 1.23.2): on a pass drawing few bases (onnxscript's converter takes opset 18..23 models only, most
        samples hold none) a step took minutes."""
        order = list(pool)
        rng.shuffle(order)
        group: list[Base] = []
        for base in order:
            budget.check(self.until)
            if self.is_dead(base.id) or not self.draws(base.id, pass_id):
                continue
            group.append(base)
            if len(group) == SAMPLE:
                if (best := self._best(group, rng, pass_id)) is not None:
                    return best
                group = []
        return self._best(group, rng, pass_id) if group else None

    def _undrawn_item(self, pass_id: str, step: int) -> Item | None:
        """On the rewrite steps ``step % UNDRAWN_REWRITE_EVERY == UNDRAWN_REWRITE_AT`` once every rewrite the pass's
        entries offer has an item under it (:meth:`rewrites_drawn`; round 13h, M204; round 14d, M225), a neighbour of
        the kind never drawn under ``pass_id`` that has the most sites (:meth:`.space.Base.offered`: every site, not
        the listed sample) on the bases of its pool whose neighbours are listed so far (:func:`.undrawn.undrawn_kinds`);
        of its listed neighbours there, one with new triples first, then on a base whose case declares the pass, then
        on the base offering the most sites of it, ties by a generator seeded by (seed, step, pass). Listing builds
        nothing: a base not listed yet offers nothing here. None on other steps, when every offered kind has an item
        under the pass, and with ``rewrites`` and no ``vary_kinds``. Not on a variation step: each of those reaches a
        kind already, and a share of them moved the rewrite steps after them (a variation item changes the guided
        forms, the touched ops and the case counts the rewrite steps read): the planted-spelling hunt then missed a
        rewrite on more seeds; nor on a rewrite step before the rewrites are drawn, where round 13h's quarter missed
        one on every seed 1-6 (docs/recall.md, rounds 13h and 14d)."""
        if not self.variations or (self.rewrites and not self.vary_kinds) or self._vary_step:
            return None
        if step % UNDRAWN_REWRITE_EVERY != UNDRAWN_REWRITE_AT:
            return None
        if not self.rewrites_drawn(pass_id):  # the rewrite search keeps its steps till then
            return None
        listed = (
            (b.id, kinds)
            for b in self._pool.get(pass_id, ())
            if (kinds := b.offered()) and not self.is_dead(b.id) and self.draws(b.id, pass_id)
        )
        allowed = (lambda k: _matches(k, self.vary_kinds)) if self.vary_kinds else (lambda k: True)
        order = undrawn.undrawn_kinds(listed, self.kinds_on.get(pass_id, set()), allowed, lambda k: _tie(self.seed, k))
        rng = random.Random(f"{self.seed}:{step}:{pass_id}:undrawn")

        def rank(i: Item, at: Mapping[str, int]) -> tuple:  # new triples, a base whose case declares the pass, sites
            return (bool(self.triples(i) - self.tried), pass_id in self.declared(self.by_id[i.base]), at[i.base])

        for kind, at in order:
            todo = [
                Item(b, f, pass_id)
                for b in at
                for f in self.listed(self.by_id[b])
                if variation.kind(f) == kind and Item(b, f, pass_id).key not in self.done
            ]
            if todo:
                return max(todo, key=lambda i: (*rank(i, at), rng.random()))
        return None

    def rewrites_drawn(self, pass_id: str) -> bool:
        """Whether every rewrite the pass's entries offer has a plain rewrite item under ``pass_id``
        (:func:`.undrawn.rewrites_drawn`): the rewrites that apply to the bases listed so far (their forms
        enumerated: :attr:`.space.Base.applied`) among the bases of the map's entries the pass runs (its pool without
        a map or entries), those ``rewrites`` names. True when the hunt takes no rewrite form (``vary_kinds`` and no
        ``rewrites``); False while no such base is listed."""
        if self.vary_kinds and not self.rewrites:
            return True
        if pass_id not in self._entry_bases:
            keys = self._map.by_pass.get(pass_id, ()) if self._map is not None else ()
            ids = dict.fromkeys(b for k in keys for b in self._map.entries[k][0])
            self._entry_bases[pass_id] = [self.by_id[b] for b in ids] or list(self._pool.get(pass_id, ()))
        allowed = (lambda r: _matches(r, self._rids)) if self.rewrites else (lambda r: True)
        applied = (b.applied for b in self._entry_bases[pass_id] if b.applied)
        return undrawn.rewrites_drawn(applied, self.rewrites_on.get(pass_id, ()), allowed)

    @property
    def rare(self):
        """The rare neighbour kinds of the bases (:class:`.vary_rare.Rare`), found on first need."""
        if self._rare is None:
            from passcheck.hunt.vary_rare import Rare

            self._rare = Rare.of(self.bases, SAMPLE, self.seed)
        return self._rare

    def _rare_item(self, pass_id: str, step: int) -> Item | None:
        """On a variation step, while the rare kinds (:mod:`.vary_rare`) have had no more variation items than
        one family's even share (they count as one more family), an item of the rarest kind not yet tried under
        ``pass_id`` that a base of its pool offers; else None (always with ``rewrites`` and no ``vary_kinds``:
        then no neighbour is a candidate, as :meth:`forms` says)."""
        if self.rewrites and not self.vary_kinds:
            return None
        if not self._below_share(RARE):
            return None
        done = self.kinds_on.get(pass_id, set())
        for kind in self.rare.meeting:
            if kind in done or (self.vary_kinds and not _matches(kind, self.vary_kinds)):
                continue
            tail = f"{variation.PREFIX}{kind}@"
            rng = random.Random(f"{self.seed}:{step}:{pass_id}:{kind}")
            drawn = self.rare.offering(kind, lambda b: self.draws(b.id, pass_id))  # others build nothing
            live = [b for b in drawn if not self.is_dead(b.id)]
            todo = [
                Item(b.id, f, pass_id)
                for b in live
                for f in b.variations(self.seed)
                if f.startswith(tail) and Item(b.id, f, pass_id).key not in self.done
            ]
            if todo:
                return max(todo, key=lambda i: (len(self.triples(i) - self.tried) > 0, rng.random()))
        return None

    @property
    def rare_rewrites(self):
        """The rare rewrites of the bases and their units (:class:`.rare_rewrites.RareRewrites`), found on first
        need."""
        if self._rare_rw is None:
            from passcheck.hunt.rare_rewrites import RareRewrites

            self._rare_rw = RareRewrites.of(self.bases, SAMPLE, self.seed)
        return self._rare_rw

    def elems_of(self, item: Item) -> str:
        """The element type text (:func:`.rare_rewrites.elems`, of the declared types) of plain rewrite item
        ``item``'s sites: its site's, or, all at once, every site's it changes; ``?`` when none is known."""
        from passcheck.hunt.rare_rewrites import elems

        base = self.by_id[item.base]
        labels = [s for _, s in hforms.parts(item.form) if s is not None] or list(self.labels(base, item.form))
        if base.id not in self._declared_types:  # the declared types, as the units read them (no inference)
            self._declared_types[base.id] = site_kind.types(base.model(), infer=False)
        types = self._declared_types[base.id]
        return ",".join(sorted({e for label in labels for e in elems(label, types).split(",") if e != "?"})) or "?"

    def unit_of(self, item: Item, rid: str) -> tuple[str, str] | None:
        """The rare rewrite unit (rewrite id, the element types it writes: :func:`.rare_rewrites.written`) plain
        rewrite item ``item`` of rewrite ``rid`` tries, or None when ``rid`` is not rare (:mod:`.rare_rewrites`)."""
        from passcheck.hunt.rare_rewrites import written

        if rid not in self.rare_rewrites.meeting:
            return None
        labels = [s for _, s in hforms.parts(item.form) if s is not None]
        return rid, written(self.by_id[item.base].model(), rid, labels[0] if labels else None)

    def _mark_rare_unit(self, item: Item, rid: str) -> None:
        """Count the element types of plain rewrite item ``item``'s sites (:meth:`elems_of`) under its pass, and, for
        a rare rewrite ``rid``, its unit (:meth:`unit_of`) as tried there."""
        try:
            text = self.elems_of(item)
        except Exception:  # noqa: BLE001 - a base this onnx cannot build has no element types
            return
        on = self._rare_elems.setdefault(item.pass_id, {})
        for e in text.split(","):
            on[e] = on.get(e, 0) + 1
        try:
            unit = self.unit_of(item, rid)
        except Exception:  # noqa: BLE001 - a rewrite that raises on this base writes nothing here
            unit = None
        if unit is not None:
            self.rare_units_on.setdefault(item.pass_id, set()).add(unit)

    def _rare_rewrite_item(self, pass_id: str, step: int) -> Item | None:
        """On a rewrite step, while the rare rewrite units tried under ``pass_id`` are at most one in
        :data:`RARE_REWRITE_EVERY` of its plain rewrite items, an item of an untried unit (:mod:`.rare_rewrites`): of
        a rare rewrite with no unit tried under the pass first, rarest first (ties by id), then, of its units, the
        one writing an element type the pass's plain rewrite items' sites have held least, then the one with the fewest
        sites; of :data:`SAMPLE` of its sites, one whose triples are new first, ties by a generator seeded by (seed,
        step, pass, unit).
        None when the share is full or no unit is left (always with ``vary_kinds`` and no ``rewrites``: no rewrite
        form is a candidate then)."""
        if self.vary_kinds and not self.rewrites:
            return None
        tried = self.rare_units_on.get(pass_id, set())
        if len(tried) * RARE_REWRITE_EVERY > sum(self._firsts.get(pass_id, [0, 0])):
            return None
        rare = self.rare_rewrites
        used = {rid for rid, _ in tried}
        on = self._rare_elems.get(pass_id, {})
        for rid in sorted(rare.meeting, key=lambda r: (r in used, len(rare.meeting[r]), r)):
            if self.rewrites and not _matches(rid, self._rids):
                continue
            units = rare.units(rid)
            order = sorted(units, key=lambda e: (min(on.get(x, 0) for x in e.split(",")), len(units[e]), e))
            for elem in order:
                if (rid, elem) in tried:
                    continue
                todo = [
                    Item(b, f, pass_id)
                    for b, f in units[elem]
                    if b in self.by_id and self.draws(b, pass_id) and not self.is_dead(b)
                ]
                todo = [i for i in todo if i.key not in self.done]
                if todo:
                    rng = random.Random(f"{self.seed}:{step}:{pass_id}:{rid}:{elem}")
                    todo = rng.sample(todo, min(SAMPLE, len(todo)))  # a sample's triples, not every site's
                    item = max(todo, key=lambda i: (len(self.triples(i) - self.tried) > 0, rng.random()))
                    self._rare_picked.add(item.key)
                    return item
        return None

    def held(self, pass_id: str) -> dict[str, int]:
        """Element type → how many of ``pass_id``'s items held it at their site: its plain rewrite items
        (:meth:`elems_of`) and its neighbour items (the unit's, :mod:`.neighbour_units`)."""
        out = dict(self._rare_elems.get(pass_id, {}))
        for e, n in self._vary_elems.get(pass_id, {}).items():
            out[e] = out.get(e, 0) + n
        return out

    def _mark_unit(self, item: Item, kind: str) -> None:
        """Count neighbour item ``item``'s unit (kind ``kind``, no ``vary:``; :func:`.neighbour_units.unit`) as tried
        under its pass and the element types it changes as held there."""
        from passcheck.hunt import neighbour_units

        try:
            base = self.by_id[item.base]
            text = neighbour_units.unit(base.model(), item.form, self._ranks(base))
        except Exception:  # noqa: BLE001 - a base this onnx cannot build changes no typed value
            return
        on = self._vary_elems.setdefault(item.pass_id, {})
        own = self._kind_elems.setdefault((item.pass_id, kind), {})
        for e in neighbour_units.elems(text):
            self.units_on.setdefault(item.pass_id, set()).add((kind, e))
            on[e] = on.get(e, 0) + 1
            own[e] = own.get(e, 0) + 1

    def _unit_item(self, pass_id: str, step: int) -> Item | None:
        """On the variation steps ``(step // VARIATION_EVERY) % UNIT_EVERY == UNIT_EVERY - 1``, an item of an untried
        unit of a generic neighbour kind (:mod:`.neighbour_units`: the kind and an element type of what it changes):
        the kind with the smallest share of its element types tried under ``pass_id`` first (then a hash of (seed,
        kind)); of its untried element types, the one the kind's items under the pass have held least, then the one
        fewest bases are tagged with (the type a sample of bases meets least: STRING, 78 of ~11,300 with onnx
        1.23.2), then the one all the pass's items have held least (:meth:`held`); of the 8 widest of its sites
        (:meth:`unit_sites`, :meth:`_width`), one with new triples first, then the widest, ties by a generator seeded
        by (seed, step, pass, kind, element type). The pick keeps its site. None on other steps, when none is left,
        and with ``rewrites`` and no ``vary_kinds`` (no neighbour is a candidate then)."""
        if not self.variations or (step // VARIATION_EVERY) % UNIT_EVERY != UNIT_EVERY - 1:
            return None
        if self.rewrites and not self.vary_kinds:
            return None
        from passcheck.hunt import neighbour_units
        from passcheck.hunt.preconditions import Preconditions
        from passcheck.hunt.vary_rare import precondition

        units = Preconditions.of(self.bases, self.seed).units
        tagged = self._tags()
        tried = self.units_on.get(pass_id, set())
        held = self.held(pass_id)
        kinds = [k for k in units if precondition(k) is None and (not self.vary_kinds or _matches(k, self.vary_kinds))]
        of = {k: set(tagged) | {e for u in units[k] for e in neighbour_units.elems(u)} for k in kinds}
        kinds = [k for k in kinds if of[k]]  # a kind whose units name no element type (a node site: "?") has none

        def kind_order(k: str) -> tuple:
            return (sum((k, e) in tried for e in of[k]) / max(len(of[k]), 1), _tie(self.seed, k))  # none: no type

        for k in sorted(kinds, key=kind_order):
            own = self._kind_elems.get((pass_id, k), {})
            left = sorted(
                (e for e in of[k] if (k, e) not in tried),
                key=lambda e: (own.get(e, 0), len(tagged.get(e, ())), held.get(e, 0), e),
            )
            for e in left:
                todo = [
                    Item(b, f, pass_id)
                    for b, f in self.unit_sites(k, e)
                    if b in self.by_id and self.draws(b, pass_id) and not self.is_dead(b)
                ]
                todo = [i for i in todo if i.key not in self.done]
                if todo:
                    rng = random.Random(f"{self.seed}:{step}:{pass_id}:{k}:{e}")
                    rng.shuffle(todo)
                    wide = {i.key: self._width(i) for i in todo}
                    todo = sorted(todo, key=lambda i: -wide[i.key])[:SAMPLE]  # stable: the shuffle breaks ties
                    item = max(todo, key=lambda i: (len(self.triples(i) - self.tried) > 0, wide[i.key], rng.random()))
                    self._rare_picked.add(item.key)
                    return item
        return None

    def _width(self, item: Item) -> int:
        """How many values neighbour ``item`` changes on its base (:func:`.neighbour_units.site_values`): of a unit's
        sites the widest come first, as a base's all-at-once rewrite forms come before its single sites
        (``input-constant@graph`` freezes every input: a folder computes a node only when all its inputs are known,
        :mod:`.vary_frozen`); 0 for a base this onnx cannot build."""
        from passcheck.hunt import neighbour_units

        try:
            return len(neighbour_units.site_values(self.by_id[item.base].model(), item.form))
        except Exception:  # noqa: BLE001 - a base this onnx cannot build changes nothing
            return 0

    def _tags(self) -> dict[str, list[Base]]:
        """Element type name (``STRING``) → the bases a generated case's ``dtype:`` tag (its main type variable's type)
        says hold it, read once from the tags (no model built)."""
        if self._tagged is None:
            self._tagged = {}
            for b in self.bases:
                for t in b.case.tags:
                    if t.startswith("dtype:"):
                        self._tagged.setdefault(t[len("dtype:") :].upper(), []).append(b)
        return self._tagged

    def unit_sites(self, kind: str, elem: str) -> list[tuple[str, str]]:
        """The (base id, variation form) sites of the generic neighbour unit (``kind``, element type ``elem``): those
        of the probes (:attr:`.preconditions.Preconditions.units`) and, of a seeded sample of :data:`UNIT_LOOK` of the
        bases tagged with ``elem`` (:meth:`_tags`), the neighbours of ``kind`` changing a value of that type (their
        neighbours listed once per element type)."""
        from passcheck.hunt import neighbour_units
        from passcheck.hunt.preconditions import Preconditions

        units = Preconditions.of(self.bases, self.seed).units.get(kind, {})
        out = [x for u, got in units.items() if elem in neighbour_units.elems(u) for x in got]
        if elem not in self._tag_sites:
            pool = self._tags().get(elem, [])
            rng = random.Random(f"{self.seed}:{elem}:units")
            found = []
            for b in sorted(rng.sample(pool, min(UNIT_LOOK, len(pool))), key=lambda b: b.id):
                try:
                    for f in b.variations(self.seed):
                        text = neighbour_units.unit(b.model(), f, self._ranks(b))
                        found.append((variation.kind(f)[len(variation.PREFIX) :], text, b.id, f))
                except Exception:  # noqa: BLE001 - a base this onnx cannot build offers no neighbour
                    continue
            self._tag_sites[elem] = found
        out += [(b, f) for k, text, b, f in self._tag_sites[elem] if k == kind and elem in neighbour_units.elems(text)]
        return list(dict.fromkeys(out))

    def _op_item(self, pass_id: str, step: int) -> Item | None:
        """On the rewrite steps ``step % OP_EVERY == OP_EVERY - 2``, an item on the op type ``pass_id``'s items have
        touched least (the op types of their triples), ties by the fewest bases holding it, then by name: on a probe
        base of the op (:func:`.preconditions.probe_set`), a form of one generic rewrite (no observed precondition:
        it needs no particular op) whose sites touch the op (:func:`passcheck.signature.site_ops`). Of those, the
        (op, rewrite kind) pair
        the pass's items have held least first (:meth:`op_pairs`; round 9e, M89: a second visit of the op covers
        another of its rewrites instead of repeating one), then one changing the type of a value the op reads
        (:meth:`_reads_changed`: what its inference and its kernel are a function of), then one with new triples,
        then the kind with the fewest items under the pass, ties by a generator seeded by (seed, step, pass, op).
        The pick keeps its site. A rare op is met by a sample of the bases about as often as it is held
        (OneHotEncoder by 3 of ~11,000), and a generic rewrite is ranked by no op. None on other steps, when no op
        has a candidate left, and with ``vary_kinds`` and no ``rewrites`` (no rewrite form is a candidate)."""
        if not self.variations or step % OP_EVERY != OP_EVERY - 2:
            return None
        if self.vary_kinds and not self.rewrites:
            return None
        from passcheck.hunt import preconditions

        pre = preconditions.Preconditions.of(self.bases, self.seed)
        probed = preconditions.probe_set(self.bases)
        touched = self._touched.get(pass_id, {})
        counts = self._kind_n.get(pass_id, {})
        pairs = self.op_pairs(pass_id)
        for op in sorted(probed.by_op, key=lambda o: (touched.get(o, 0), probed.holding.get(o, 0), o)):
            todo = []
            for b in probed.by_op[op]:
                if not self.draws(b.id, pass_id) or self.is_dead(b.id):
                    continue
                todo += [Item(b.id, f, pass_id) for f in self._generic_on(op, b, pass_id, pre)]
            todo = [i for i in todo if i.key not in self.done]
            if todo:
                rng = random.Random(f"{self.seed}:{step}:{pass_id}:{op}")
                item = max(
                    todo,
                    key=lambda i: (
                        -pairs.get((op, form_kind(i.form)), 0),
                        self._reads_changed(op, i),
                        len(self.triples(i) - self.tried) > 0,
                        -counts.get(form_kind(i.form), 0),
                        rng.random(),
                    ),
                )
                self._rare_picked.add(item.key)
                return item
        return None

    def _aimed_item(self, pass_id: str, step: int) -> Item | None:
        """On the aimed steps (one variation step in :data:`AIM_VARY_EVERY`, one step in :data:`AIM_REWRITE_EVERY`), an
        item whose sites touch an op type ``pass_id`` reads (:func:`.aim.pass_reads`, from the catalogue entries it
        runs; round 10e, M106): the op its items have touched least first (counted in :meth:`mark`), then the one
        fewest bases hold, then by name, of the ops some base the pass draws holds (M116: an op no such base holds is
        passed over, not looked at; before, three such ops, each held by one or two bases the pass does not draw, took
        every look of every aimed step of ``onnx:infer-shapes-data-prop-strict``); on a seeded sample of
        :data:`SAMPLE` bases holding it (:func:`.aim.holding`),
        a neighbour (variation step) or single rewrite (rewrite step) whose site labels name the op
        (:func:`passcheck.signature.site_ops`); of those, the kind the pass's items touching a read op have held
        least, then new triples, ties by a generator seeded by (seed, step, pass, op); of the sample, at most
        :data:`AIM_BUILD` bases whose forms were not listed before are listed. A kind drawn with an even
        share over every base meets the few bases where it changes what the pass matches (``input-apart`` at a
        ScatterND rule, ``axes-move`` at a ReduceMean fusion, ``fanout-copy`` at a node the float16 conversion
        blocks) about as often as they are held; here it is drawn there. At most :data:`AIM_LOOK` op types are looked
        at per step. None on other steps, without a map (or for a pass no entry scopes), when none is left, and for
        the kind of form the hunt's pins leave out."""
        vary = self._vary_step
        if vary and (not self.variations or (step // VARIATION_EVERY) % AIM_VARY_EVERY != AIM_AT):
            return None
        if vary and self.rewrites and not self.vary_kinds:
            return None
        if not vary and (
            not self.variations or step % AIM_REWRITE_EVERY != AIM_REWRITE_AT or (self.vary_kinds and not self.rewrites)
        ):
            return None
        reads = self._map.reads.get(pass_id) if self._map is not None else None
        if not reads:
            return None
        from passcheck.hunt import aim

        held = aim.holding(self.bases)
        touched = self._aim_ops.get(pass_id, {})
        kinds = self._aim_kinds.get(pass_id, {})
        ops = sorted((o for o in reads if o in held), key=lambda o: (touched.get(o, 0), len(held[o]), o))
        built = looked = 0
        for op in ops:
            live = [b for b in held[op] if self.draws(b.id, pass_id) and not self.is_dead(b.id)]
            if not live:  # no base the pass draws holds op: not a look (M116)
                continue
            if looked >= AIM_LOOK:
                break
            looked += 1
            rng = random.Random(f"{self.seed}:{step}:{pass_id}:{op}:aim")
            todo = []
            for b in rng.sample(live, min(SAMPLE, len(live))):
                if not self._listed(b, vary):
                    if built >= AIM_BUILD:
                        continue
                    built += 1
                todo += [
                    i
                    for f in self._forms_at(op, b, pass_id, vary)
                    if (i := Item(b.id, f, pass_id)).key not in self.done
                ]
            if todo:
                item = max(
                    todo,
                    key=lambda i: (
                        -kinds.get(form_kind(i.form), 0),
                        len(self.triples(i) - self.tried) > 0,
                        rng.random(),
                    ),
                )
                self._rare_picked.add(item.key)
                return item
        return None

    @staticmethod
    def _listed(base: Base, vary: bool) -> bool:
        """Whether ``base``'s neighbours (``vary``) or rewrite forms have been listed already (a cost paid)."""
        return (base._variations if vary else base._forms) is not None

    def _forms_at(self, op: str, base: Base, pass_id: str, vary: bool) -> list[str]:
        """``base``'s neighbours (``vary``) or single rewrite forms whose site labels name op type ``op``
        (:meth:`labels`, :func:`passcheck.signature.site_ops`), built once per (op, base, pass, vary)."""
        key = (op, base.id, pass_id, vary)
        if key not in self._aim_forms:
            budget.check(self.until)
            try:
                forms = self._vary(base) if vary else [f for f in self._own(base, pass_id) if len(hforms.parts(f)) == 1]
                self._aim_forms[key] = self._touching(base, forms, op)
            except Exception:  # noqa: BLE001 - a base this onnx cannot build has no forms
                self._aim_forms[key] = []
        return self._aim_forms[key]

    def _touching(self, base: Base, forms: Iterable[str], op: str) -> list[str]:
        """Of ``forms`` of ``base``, those whose site labels (a rewrite form's own, else :meth:`labels`) name a node of
        op type ``op`` or a value it reads or writes (:func:`passcheck.signature.site_ops`)."""
        got = []
        for form in forms:
            own = [] if variation.is_variation(form) else [s for _, s in hforms.parts(form) if s is not None]
            labels = own or list(self.labels(base, form))
            if labels and op in site_ops([base.model()], labels):
                got.append(form)
        return got

    def _moved_item(self, pass_id: str, step: int) -> Item | None:
        """On every other composition step (``(step // COMPOSE_EVERY) % MOVED_EVERY == 0``: a bounded share), a rewrite
        of a neighbour that moved ``pass_id`` (:attr:`moved_on`: its item found a new signature; round 9e, M90): a
        defect shown only by two uncommon choices together (an omitted optional output on a node a frozen input made
        foldable) needs the second drawn on a first that changed what the pass does. Of the rewrites of the moved
        neighbour with the fewest composed items under the pass (the first moved of those) with one left
        (:meth:`moved_forms`: one site per rewrite with a site the neighbour opened or changed, not only the
        :data:`.compose.PER_NEIGHBOUR` sampled), the (neighbour kind, rewrite) pair the pass's
        composed items have held least first, then a rare rewrite (:mod:`.rare_rewrites`: the fewest bases meeting
        it), then new triples, ties by a generator seeded by (seed, step, pass). None on other steps or when none is
        left."""
        if (step // COMPOSE_EVERY) % MOVED_EVERY or not self.moved_on.get(pass_id):
            return None
        pairs = self._comp_pairs.get(pass_id, {})
        todo: list[Item] = []
        used = self._moved_n.get(pass_id, {})
        order = sorted(self.moved_on[pass_id], key=lambda bv: used.get(bv, 0))  # stable: the first moved, of the least
        for b, v in order:  # composed, with a rewrite left: one listing per step
            if (b, v) in self.invalid or self.is_dead(b) or not self.draws(b, pass_id):
                continue
            todo = [i for f in self.moved_forms(self.by_id[b], v) if (i := Item(b, f, pass_id)).key not in self.done]
            if todo:
                break
        if not todo:
            return None
        meeting = self.rare_rewrites.meeting
        rng = random.Random(f"{self.seed}:{step}:{pass_id}:moved")

        def rarity(form: str) -> int:
            rid = hforms.parts(compose.split(form)[1])[0][0]
            return len(meeting[rid]) if rid in meeting else len(self.bases) + 1

        return max(
            todo,
            key=lambda i: (
                -pairs.get(_composed_pair(i.form), 0),
                -rarity(i.form),
                len(self.triples(i) - self.tried) > 0,
                rng.random(),
            ),
        )

    def _chain_item(self, pass_id: str, step: int, anywhere: bool = False, declared: bool = False) -> Item | None:
        """On the composition steps ``(step // COMPOSE_EVERY) % CHAIN_EVERY == CHAIN_EVERY - 1`` (a bounded share, none
        a moved step), a chained neighbour (:mod:`.chain`; round 10a, M96) whose first link moved ``pass_id``
        (:attr:`wrote_on`: a new signature, or an op the pass wrote on that neighbour only): a defect needing two
        non-equivalent changes (a QDQ group and a Gemm ``alpha``) needs the second drawn on a first the pass acted on.
        Of the first links with the fewest chain items under the pass (the first met of those; at most
        :data:`CHAIN_LOOK` listed per step) with a chain left, the chained kind the pass has held least first, then
        new triples, ties by a generator seeded by (seed, step, pass). None on other steps or when none is left.
        ``declared``: the first links that declare the inputs instead (:meth:`_declared_todo`; the chain step takes
        them after the moved neighbours' compositions). ``anywhere``: on any step, both kinds of first link, every one
        looked at (:meth:`next` once no other item is left: a chain not yet drawn is an item of the space, so "every
        item tried" waits for it)."""
        if not anywhere and (step // COMPOSE_EVERY) % CHAIN_EVERY != CHAIN_EVERY - 1:
            return None
        look = None if anywhere else CHAIN_LOOK
        used = self._chain_n.get(pass_id, {})
        moved = [] if declared and not anywhere else self.wrote_on.get(pass_id, [])
        order = sorted(moved, key=lambda bv: used.get(bv, 0))  # stable: the first met of the least
        todo: list[Item] = []
        looked = 0
        for b, v in order:
            if (b, v) in self.invalid or self.is_dead(b) or not self.draws(b, pass_id) or not chain.model_only(v):
                continue
            if look is not None and looked >= look:
                break
            looked += 1
            todo = self._chain_todo(b, v, pass_id)
            if todo:
                break
        if not todo and (declared or anywhere):
            todo = self._declared_todo(pass_id, used, look)
        if not todo:
            return None
        pairs = self._chain_pairs.get(pass_id, {})
        rng = random.Random(f"{self.seed}:{step}:{pass_id}:chain")
        return max(
            todo,
            key=lambda i: (-pairs.get(variation.kind(i.form), 0), len(self.triples(i) - self.tried) > 0, rng.random()),
        )

    def _chain_todo(self, b: str, v: str, pass_id: str) -> list[Item]:
        """The untried, not invalid chained items of first link ``v`` of base ``b`` under ``pass_id`` (their second
        link's kind among the named ones, when kinds are named)."""
        forms = self.chains(self.by_id[b], v)
        if self.vary_kinds:  # the second link's kind named too
            forms = [f for f in forms if _matches(_second_kind(f), self.vary_kinds)]
        return [i for f in forms if (i := Item(b, f, pass_id)).key not in self.done and (b, f) not in self.invalid]

    def _declare_firsts(self, b: str, pass_id: str) -> None:
        """List base ``b``'s neighbours that declare the inputs (:func:`.chain.declares`) as first links under
        ``pass_id``, once per (base, pass)."""
        if (b, pass_id) in self._declared_seen:
            return
        self._declared_seen.add((b, pass_id))
        listed = self._declared.setdefault(pass_id, [])
        listed += [(b, v) for v in self.by_id[b].variations(self.seed) if chain.declares(v)]

    def _declared_todo(self, pass_id: str, used: dict[tuple[str, str], int], look: int | None) -> list[Item]:
        """Chained items of a first link that declares the inputs (round 11g, M141): such a neighbour seldom moves
        a pass alone (it is not in :attr:`wrote_on`), but opens value sites the base lacks (:mod:`.chain`). Of the
        listed first links with the fewest chain items, the first met with an item left; at most ``look`` first links'
        chains built per step (a first link that opens nothing costs one build, then nothing; None: no bound)."""
        built = 0
        for b, v in sorted(self._declared.get(pass_id, []), key=lambda bv: used.get(bv, 0)):
            if (b, v) in self.invalid or self.is_dead(b) or not self.draws(b, pass_id):
                continue
            if (b, v) not in self._chains:
                if look is not None and built >= look:
                    break
                built += 1
            if todo := self._chain_todo(b, v, pass_id):
                return todo
        return []

    def chains(self, base: Base, vform: str) -> list[str]:
        """The chained forms of first link ``vform`` of ``base`` (:func:`.chain.seconds`, seeded by (seed, base,
        first link)), built once."""
        key = (base.id, vform)
        if key not in self._chains:
            try:
                rng = random.Random(f"{self.seed}:{base.id}:{vform}:chain")
                self._chains[key] = chain.seconds(base.model(), vform, rng, base.case.bindings)
            except Exception:  # noqa: BLE001 - a neighbour this onnx cannot build has no second links
                self._chains[key] = []
        return self._chains[key]

    def moved_forms(self, base: Base, vform: str) -> list[str]:
        """The composed forms of neighbour ``vform`` of ``base``: one site per rewrite (``rewrites`` pins them) with a
        site the neighbour opened, else one it changed (:func:`.compose.site_split`; no carrying test, which builds
        and infers each rewrite of the neighbour), drawn by a generator seeded by (seed, base, neighbour), built
        once."""
        key = (base.id, vform)
        if key not in self._moved_forms:
            try:
                only = frozenset(self._named) if self.rewrites else None
                if base._sites is None:  # the base's sites, listed once for its compositions too (Base.compositions)
                    base._sites = compose.sites_of(hforms.named(base.model()), only)
                got = compose.site_split(base.model(), vform, base._sites, only)
                rng = random.Random(f"{self.seed}:{base.id}:{vform}:moved")
                sites = {} if got is None else {**got[3], **got[2]}  # a rewrite's fresh sites, else its touched ones
                self._moved_forms[key] = [
                    compose.spell(vform, f"{rid}@{rng.choice(at)}") for rid, at in sorted(sites.items())
                ]
            except Exception:  # noqa: BLE001 - a neighbour this onnx cannot build has no rewrites
                self._moved_forms[key] = []
        return self._moved_forms[key]

    def _reads_changed(self, op: str, item: Item) -> bool:
        """Whether ``item``'s form changes the type of a value a node of op type ``op`` reads on its base
        (:func:`.op_reads.changes_reads`), asked only of a form whose sites name such a value (the others keep every
        type the op reads) and once per (op, base, form)."""
        from passcheck.hunt import op_reads

        key = (op, item.base, item.form)
        if key not in self._reads:
            base = self.by_id[item.base]
            got = False
            try:
                model = base.model()
                read = {x for n in model.graph.node if n.op_type == op for x in n.input if x}
                if read & set(self.labels(base, item.form)):
                    build = variation.build if variation.is_variation(item.form) else hforms.build
                    built = build(model, item.form)
                    if (op, base.id) not in self._base_reads:  # the base's side, once per op and base
                        self._base_reads[op, base.id] = op_reads.reads(model, op)
                    got = built is not None and op_reads.changes_reads(
                        model, built[0], op, self._base_reads[op, base.id]
                    )
            except Exception:  # noqa: BLE001 - a form this onnx cannot build changes nothing it reads
                got = False
            self._reads[key] = got
        return self._reads[key]

    def op_pairs(self, pass_id: str) -> dict[tuple[str, str], int]:
        """(op type, rewrite or neighbour kind: :func:`form_kind`) → how many of ``pass_id``'s items held that pair
        (an item whose triples name the op, of that kind), counted in :meth:`mark`."""
        return self._op_pairs.get(pass_id, {})

    def _generic_on(self, op: str, base: Base, pass_id: str, pre) -> list[str]:
        """``base``'s forms of one rewrite with no precondition in ``pre.rewrites`` (rewrite id → op types) whose sites
        touch op type ``op``, built once per (op, base, pass). No neighbour: the op step is a rewrite step, and the
        neighbours keep their one step in :data:`VARIATION_EVERY`."""
        key = (op, base.id, pass_id)
        if key not in self._op_forms:
            try:
                generic = [
                    form
                    for form in self._own(base, pass_id)
                    if not variation.is_variation(form)
                    and len(hforms.parts(form)) == 1
                    and not {r for r, _ in hforms.parts(form)} & set(pre.rewrites)
                ]
                got = self._touching(base, generic, op)
            except Exception:  # noqa: BLE001 - a base this onnx cannot build has no forms
                got = []
            self._op_forms[key] = got
        return self._op_forms[key]

    def _below_share(self, pseudo: str) -> bool:
        """Whether the items counted in pseudo-family ``pseudo`` (:data:`RARE`, :data:`SITES`) are no more than
        one family's even share of the variation items (it counts as one more family)."""
        real = sum(n for f, n in self.families.items() if f not in (RARE, SITES))
        return self.families.get(pseudo, 0) * (len(variation.FAMILIES) + 1) <= real

    def _site_item(self, pass_id: str, step: int) -> Item | None:
        """On a variation step, while the neighbours at another site of a kind already tried on their base and
        ``pass_id`` (:data:`SITES`) are within one family's even share, such a neighbour: a kind tried at one
        site of a base is no longer new there (:meth:`_balance`), so its other sites, which may reach other
        nodes of the pattern, would wait until every base's kinds are used up. Of the candidates, one reaching
        op types its kind has not been tried on under the pass first, then the kind, then the (base, kind),
        tried at the fewest sites, ties by a generator seeded by (seed, step, pass); None when none is left or
        the share is full (or no neighbour is a candidate: ``rewrites`` without ``vary_kinds``)."""
        if (self.rewrites and not self.vary_kinds) or not self._below_share(SITES):
            return None
        rng = random.Random(f"{self.seed}:{step}:{pass_id}:{SITES}")
        best, best_score = None, None
        for (bid, p), kinds in self.kinds_of.items():
            if p != pass_id or bid not in self.by_id or self.is_dead(bid):
                continue
            for f in self.listed(self.by_id[bid]):
                kind = variation.kind(f)
                bare = kind[len(variation.PREFIX) :]
                if kind not in kinds or (self.vary_kinds and not _matches(bare, self.vary_kinds)):
                    continue
                if (item := Item(bid, f, p)).key in self.done:
                    continue
                score = (
                    bool(self.triples(item) - self.tried),
                    -self._sites.get((p, kind), 0),
                    -self._sites.get((bid, p, kind), 0),
                    rng.random(),
                )
                if best_score is None or score > best_score:
                    best, best_score = item, score
        return best

    def _declared_first(self, item: Item, step: int) -> Item:
        """``item``, or an item of a pass its case declares that has none of the case yet when
        ``item`` would be its pass's second of the case (see module docs)."""
        base = self.by_id[item.base]
        case = base.case.id
        if not self.of_case.get((case, item.pass_id)):
            return item
        for d in self.declared(base):
            if self.of_case.get((case, d)) or (case, d) in self._case_used_up:
                continue
            if (
                (same := Item(item.base, item.form, d)).key not in self.done
                and not self.is_dead(item.base)
                and self.draws(item.base, d)
            ):
                return same
            rng = random.Random(f"{self.seed}:{step}:{case}:{d}")
            if (other := self._best(self._cases[case], rng, d)) is not None:
                return other
            if self._only is None:
                self._case_used_up.add((case, d))
        return item

    def _guided_site(self, item: Item) -> Item:
        """``item``, or, when it is a single-site form of a base and pass with no item picked yet, the site of
        the same rewrite :meth:`forms` offers under the pass first (where the pass acts, asked now)."""
        plain = not variation.is_variation(item.form) and not compose.is_composed(item.form)
        parts = hforms.parts(item.form) if plain else ()
        if self._acted is None or len(parts) != 1 or parts[0][1] is None or item.key in self._rare_picked:
            return item
        if (item.base, item.pass_id) in self.picked_on:
            return item
        base = self.by_id[item.base]
        rid = parts[0][0]
        guided = base.guided(self.seed, item.pass_id, self._acted(item.base, item.pass_id))
        if item.form in guided:  # a site it offers too (no set, or no site of the rewrite touches it: the sample)
            return item
        for form in guided:
            if form.startswith(rid + "@") and hforms.parts(form)[0][0] == rid:
                if (other := Item(item.base, form, item.pass_id)).key not in self.done:
                    return other
        return item

    def _balance(self, base_id: str, form: str, pass_id: str) -> tuple[int, ...]:
        """On a variation step, a kind not yet tried on the base under ``pass_id`` first (novel per pass: a kind
        tried under one pass is still untried under the others), then the family tried least (a family that
        applies to nearly every base, the elem kinds, would otherwise take most variation steps); on a composition
        step, the two tiers (a rewrite at a site its neighbour opened, the first of its rewrite there, one with no
        site on the base at all first; one carrying
        the neighbour's change, :func:`.compose.carries`) in turn, opened first on one composition step and carrying
        first on the next, then a composed kind not tried on the base under ``pass_id``; ``()`` on other steps."""
        if self._only == "compose":  # the two tiers in this step's order, then a kind not tried on the base and pass
            base = self.by_id[base_id]
            tiers = ((form in base.fresh) + (form in base.unlocked), form in base.carried)
            return (
                *(tiers[::-1] if self._carry_first else tiers),
                compose.kind(form) not in self.composed_of.get((base_id, pass_id), ()),
            )
        if self._only == "rewrite":  # an op-free rewrite's first item on the pass, then a site where an entry acts
            return (self._op_free_first(form, pass_id), form in self._entry_sites_now(base_id, pass_id))
        if not self._vary_step:
            return ()
        kind = variation.kind(form)
        first = kind[len(variation.PREFIX) :] not in self.kinds_on.get(pass_id, ())  # the kind's first on the pass
        fresh = kind not in self.kinds_of.get((base_id, pass_id), ())
        return (first, fresh, -self.families.get(variation.family(form), 0))

    def _retried(self, pass_id: str) -> Item | None:
        """On a variation step, the first neighbour left on ``pass_id`` of those queued when the same neighbour
        (kind and site) was invalid on another form of its case: the forms of a case differ in what a neighbour
        needs (a rank raised where BatchNormalization reads the channels is invalid, behind a Reshape it is not),
        and an invalid neighbour costs the gate alone."""
        for item in self._retry:
            if item.pass_id != pass_id or item.key in self.done or self.is_dead(item.base):
                continue
            if self.vary_kinds and not _matches(variation.kind(item.form)[len(variation.PREFIX) :], self.vary_kinds):
                continue
            return item
        return None

    def _sibling_first(self, item: Item, step: int) -> Item:
        """On a variation step, ``item`` (a neighbour the pair or triple rule chose), or the best item
        (:meth:`_best`) of the forms of its case that have had the fewest variation items under its pass when
        its own base has had more: the case keeps its step, its forms share it (see module docs)."""
        if not self._vary_step or not variation.is_variation(item.form) or compose.is_composed(item.form):
            return item
        p = item.pass_id
        forms = [
            b for b in self._cases[self.by_id[item.base].case.id] if self.draws(b.id, p) and not self.is_dead(b.id)
        ]
        least = min(self._vary_n.get((b.id, p), 0) for b in forms)
        if self._vary_n.get((item.base, p), 0) <= least:
            return item
        behind = [b for b in forms if self._vary_n.get((b.id, p), 0) == least]
        other = self._best(behind, random.Random(f"{self.seed}:{step}:{p}:sibling"), p)
        return item if other is None else other

    def _best(self, bases: Sequence[Base], rng: random.Random, pass_id: str) -> Item | None:
        self._entry_at = {}  # nothing this ranking reads changes while it runs: each base's entry sites asked once
        try:
            return self._ranked(bases, rng, pass_id)
        finally:
            self._entry_at = None

    def _ranked(self, bases: Sequence[Base], rng: random.Random, pass_id: str) -> Item | None:
        best, best_score = None, None
        for base in bases:
            budget.check(self.until)
            if self.is_dead(base.id) or not self.draws(base.id, pass_id):
                continue
            for form in self.forms(base, pass_id):
                item = Item(base.id, form, pass_id)
                if item.key in self.done:
                    continue
                depth = self._form_of(form)[0]
                triples = self.triples(item)
                novel = len(triples - self.tried) / len(triples) / depth
                score = (*self._balance(base.id, form, pass_id), novel, rng.random())
                if best_score is None or score > best_score:
                    best, best_score = item, score
        return best

    def _entry_sites_now(self, base_id: str, pass_id: str) -> list[str] | set[str]:
        """:meth:`entry_sites` of ``base_id`` under ``pass_id``; within one :meth:`_best` (where neither the map's rows
        in view nor the base change) asked once per base, as a set."""
        if self._entry_at is None:
            return self.entry_sites(self.by_id[base_id], pass_id)
        if (got := self._entry_at.get((base_id, pass_id))) is None:
            got = self._entry_at[base_id, pass_id] = set(self.entry_sites(self.by_id[base_id], pass_id))
        return got


def shares(passes: Sequence[str]) -> dict[str, float]:
    """Each pass's share of the budget's time (they sum to 1): the same for every pass, unless
    that leaves the default passes less than half together; then the defaults share 1/2 and the
    others 1/2 (see module docs)."""
    from passcheck.passes import DEFAULT_PASSES

    n = len(passes)
    defaults = [p for p in passes if p in DEFAULT_PASSES]
    if not defaults or 2 * len(defaults) >= n:
        return dict.fromkeys(passes, 1 / n) if n else {}
    others = n - len(defaults)
    return {p: 0.5 / len(defaults) if p in DEFAULT_PASSES else 0.5 / others for p in passes}


def _tie(*parts: object) -> int:
    """A tie-break drawn from ``parts`` alone (no shared generator state)."""
    return int.from_bytes(hashlib.blake2b(repr(parts).encode(), digest_size=8).digest(), "big")


class _MapView:
    """The coverage map as the scheduler reads it: entry → the hunt's bases that trigger it (with a
    pass of their own that runs it), and the hunt's passes that run it; an unscoped pass (see
    module docs) has a pseudo-entry ``<pass> @ <base>`` per base instead, acting on the op types of
    the entries the base triggers (its spellings nearest to those come first)."""

    #: scoped pass → the op types it reads (:func:`.aim.pass_reads`: every catalogue entry it runs; round 10e, M106)
    reads: Mapping[str, frozenset[str]] = MappingProxyType({})
    #: scoped pass → the op types each entry it runs spells by name, two or more (:func:`.entry_sites.near_ops`)
    spelt: Mapping[str, list[frozenset[str]]] = MappingProxyType({})

    def __init__(self, cmap, by_id, passes: Sequence[str], passes_of: Callable[[str], Sequence[str]]):
        from passcheck.coverage.entry import PassScope
        from passcheck.hunt.aim import reads_by_pass

        scope = PassScope(cmap.entries.values())
        unscoped = [p for p in passes if scope.unscoped(p)]
        scoped = [p for p in passes if p not in unscoped]
        self.entries: dict[str, tuple[list[str], list[str]]] = {}
        self.ops: dict[str, frozenset[str]] = {}  # entry → the op types it acts on (empty: unknown)
        ran: dict[str, list[str]] = {}  # entry → the scoped passes that run it
        for key, entry in cmap.entries.items():
            runs = ran[entry.key] = [p for p in scoped if scope.runs(entry, p)]
            bases = [b for b in cmap.bases_of(key) if b in by_id and set(runs) & set(passes_of(b))]
            if bases and runs:
                self.entries[key] = (bases, runs)
                self.ops[key] = entry_ops(entry, [e.effect for e in cmap.evidence.get(key, ())])
        acts: dict[str, set[str]] = {}  # base → the op types of the entries it triggers
        for key, entry in cmap.entries.items():
            ops = self.ops.get(key)
            for b in cmap.bases_of(key):
                if b in by_id:
                    if ops is None:
                        ops = entry_ops(entry, [e.effect for e in cmap.evidence.get(key, ())])
                    acts.setdefault(b, set()).update(ops)
        for p in unscoped:
            for b in sorted(acts):
                if p in passes_of(b):
                    self.entries[f"{p} @ {b}"] = ([b], [p])
                    self.ops[f"{p} @ {b}"] = frozenset(acts[b])
        self.by_base: dict[str, list[str]] = {}
        self.by_pass: dict[str, list[str]] = {}
        for key, (bases, runs) in self.entries.items():
            for b in bases:
                self.by_base.setdefault(b, []).append(key)
            for p in runs:
                self.by_pass.setdefault(p, []).append(key)
        #: (entry, pass, kind of form looked at: Scheduler._only) without a candidate left (kind None: both)
        self.exhausted: set[tuple[str, str, str | None]] = set()
        # pass_reads of each scoped pass, the entries walked once (M200)
        self.reads = {p: frozenset() for p in scoped} | reads_by_pass(cmap.entries.values(), ran, cmap.evidence)
        # the op sets each pass's entries spell by name (M192), from the same walk's ``ran``
        self.spelt: dict[str, list[frozenset[str]]] = {p: [] for p in scoped}
        for e in cmap.entries.values():
            if (passes := ran.get(e.key)) and len(o := entry_sites.named_ops(e.name)) > 1:
                for p in passes:
                    self.spelt[p].append(o)

    def pairs(self, item: Item) -> set[tuple[str, str]]:
        """The (entry, spelling) pairs ``item`` tries."""
        kind = form_kind(item.form)
        return {(k, kind) for k in self.by_base.get(item.base, ()) if item.pass_id in self.entries[k][1]}

    def untried(self, sched: Scheduler, step: int, pass_id: str) -> Item | None:
        """An item on ``pass_id`` trying a pair not tried yet, from the entry with the fewest
        spellings tried, then the fewest bases: of that entry's candidates (on :data:`SAMPLE` of
        its bases), the nearest spelling (:mod:`.nearness`; a single rewrite before a pair, the op
        schema's own spellings first), then the one the triple rule scores best."""
        tried: dict[str, int] = {}
        for k, _ in sched.pairs_tried:
            tried[k] = tried.get(k, 0) + 1
        gone = {(k, p) for k, p, only in self.exhausted if only in (None, sched._only)}
        live = [k for k in self.by_pass.get(pass_id, ()) if (k, pass_id) not in gone]
        order = sorted(live, key=lambda k: (tried.get(k, 0), len(self.entries[k][0]), _tie(sched.seed, step, k)))
        for key in order:
            rng = random.Random(f"{sched.seed}:{step}:{key}")
            bases = self.entries[key][0]
            best, best_score = None, None
            live_bases = [b for b in bases if not sched.is_dead(b) and sched.draws(b, pass_id)]
            for bid in rng.sample(live_bases, min(SAMPLE, len(live_bases))):
                budget.check(sched.until)
                base = sched.by_id[bid]
                at = None  # its entry sites, asked only for a rewrite form of a pair tried (M131)
                for form in sched.forms(base, pass_id):
                    if (key, form_kind(form)) in sched.pairs_tried:
                        if at is None and not variation.is_variation(form) and not compose.is_composed(form):
                            at = sched.entry_sites(base, pass_id)
                        if form not in (at or ()):  # an entry site: a pair of its own (its rewrite tried under
                            continue  # the entry at another site); a neighbour or a composed form is none
                    item = Item(bid, form, pass_id)
                    if item.key in sched.done:
                        continue
                    depth = form_depth(form)
                    balance = sched._balance(bid, form, pass_id)
                    if best_score is not None and balance < best_score[: len(balance)]:
                        rng.random()  # scores below the best whatever follows: its draw only, not its labels
                        continue  # (building a pair form to read its labels is most of a step's CPU)
                    near = (  # nearest first, single rewrites before pairs, the schema's own first
                        *balance,
                        nearness(base.model(), sched.labels(base, form), self.ops[key]) if self.ops[key] else 0,
                        -depth,
                        not variation.is_variation(form) and not compose.is_composed(form) and schema_spelling(form),
                    )
                    triples = sched.triples(item)
                    score = (*near, len(triples - sched.tried) / len(triples) / depth, rng.random())
                    if best_score is None or score > best_score:
                        best, best_score = item, score
            if best is not None:
                return best
            if len(live_bases) <= SAMPLE:
                self.exhausted.add((key, pass_id, sched._only))
        return None


def site_kinds(
    base: Base,
    form: str,
    signatures: Callable[[Base], dict[str, tuple]],
    ranks: Callable[[Base], dict[str, str]] | None = None,
) -> tuple[str, ...]:
    """The site kinds of rewrite form ``form`` on ``base``: for each part with a site label, what its rewrite's
    site signature records there with the rank and element type of what the label names (:func:`.site_kind.kind`,
    text so a saved state keeps it; ``ranks``: base → :func:`.site_kind.types`; None: the signature alone);
    :data:`ALL_SITES` for a form with no site label (every site at once)."""
    out = []
    for rid, label in hforms.parts(form):
        if label is None:
            continue
        out.append(site_kind.kind(rid, label, signatures(base), ranks(base) if ranks is not None else {}))
    return tuple(dict.fromkeys(out)) or (ALL_SITES,)


def _second_kind(form: str) -> str:
    """The kind (no ``vary:``) of chained ``form``'s second link."""
    return variation.kind(variation.links(form)[1])[len(variation.PREFIX) :]


def _composed_pair(form: str) -> tuple[str, str]:
    """(neighbour kind without ``vary:``, rewrite id) of composed ``form``."""
    vform, rform = compose.split(form)
    return variation.kind(vform)[len(variation.PREFIX) :], hforms.parts(rform)[0][0]


def form_kind(form: str) -> str:
    """The rewrite kind of a rewrite form, the variation kind (``vary:…``) of a variation form, ``vary:…>…`` of a
    rewrite of a neighbour (:func:`.compose.kind`)."""
    if compose.is_composed(form):
        return compose.kind(form)
    return variation.kind(form) if variation.is_variation(form) else hforms.kind(form)


def form_depth(form: str) -> int:
    """How many rewrites ``form`` applies (a variation form: 1; a rewrite of a neighbour: 2)."""
    if compose.is_composed(form):
        return 2
    return 1 if variation.is_variation(form) else len({r for r, _ in hforms.parts(form)})


def names_part(rewrite_id: str, label: str | None, globs: Sequence[str]) -> bool:
    """Whether a form's part (its rewrite id, its site label or None) is one a ``--rewrite`` glob names: ``ID`` (an
    fnmatch glob of the id, any site), or ``ID:NAME``, the id's sites whose label ends in ``:NAME`` (fnmatch): one
    neutral operator (``neutral-op@x->n4:split-third``, :mod:`passcheck.mutations.neutral_ops`)."""
    from fnmatch import fnmatchcase

    for g in globs:
        rid, colon, name = g.partition(":")
        if fnmatchcase(rewrite_id, rid) and (
            not colon or (label is not None and ":" in label and fnmatchcase(label.rpartition(":")[2], name))
        ):
            return True
    return False


def _matches(kind: str, globs: Sequence[str]) -> bool:
    """Whether ``kind`` (a variation kind without its prefix, or a rewrite id) matches one of the fnmatch ``globs``."""
    from fnmatch import fnmatchcase

    return any(fnmatchcase(kind, g) for g in globs)
