"""The search space of a hunt: base models (forms of hand-written and generated cases) × forms
(rewrites at depth 1–2, all at once or at one site; and, unless turned off, the base's neighbours:
variation forms ``vary:<kind>@<site>``, :mod:`.variation`, and rewrites of a neighbour where it opened or changed
a site, ``vary:<kind>@<site>><rewrite>@<site>``, :mod:`.compose`) × passes.

An *item* is one ``(base, form, pass)``; the scheduler picks items, :mod:`.probe` runs them.
"""

from __future__ import annotations

import dataclasses
import functools
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from passcheck.mutations import forms as hforms
from passcheck.mutations import withheld

if TYPE_CHECKING:
    import onnx

    from passcheck.cases import Case


@dataclasses.dataclass(frozen=True)
class Item:
    """One thing to try: ``base`` (``case-id:form``) rewritten as ``form``, under ``pass_id``."""

    base: str
    form: str
    pass_id: str

    @property
    def key(self) -> str:
        return f"{self.base}|{self.form}|{self.pass_id}"


@dataclasses.dataclass
class Base:
    """One form of one case, the model a rewrite starts from."""

    case: Case
    form: str
    _model: Any = None
    _forms: list[str] | None = None
    _ops: tuple[str, ...] | None = None
    #: form → the labels its rewrite changes, for the all-at-once forms (known once :meth:`forms` ran).
    applied: dict[str, list[str]] = dataclasses.field(default_factory=dict)
    _variations: list[str] | None = None
    #: variation kind (with its prefix) → its sites on this base, drawn in batches (:meth:`rotated`; round 13d).
    _pools: dict = dataclasses.field(default_factory=dict)
    #: pass → this base's own cells under it (what a neighbour's findings are compared with).
    cells: dict[str, list] = dataclasses.field(default_factory=dict)
    #: pass → the forms :meth:`guided` gave under it.
    _guided: dict[str, list[str]] = dataclasses.field(default_factory=dict)
    #: variation form → its composed forms (:meth:`compositions`); the sites of every rewrite on the named base.
    _composed: dict[str, list[str]] = dataclasses.field(default_factory=dict)
    _sites: dict | None = None
    #: the composed forms at a site the neighbour opened (not one of the rewrite's on this base), the first of each
    #: rewrite in a neighbour (:func:`.compose.compositions`' ``opened``).
    fresh: set[str] = dataclasses.field(default_factory=set)
    #: the composed forms at a touched site whose rewrite carries the neighbour's change (:func:`.compose.carries`).
    carried: set[str] = dataclasses.field(default_factory=set)
    #: the composed forms of :attr:`fresh` whose rewrite has no site on this base at all.
    unlocked: set[str] = dataclasses.field(default_factory=set)
    #: rewrite form → its inferred types on the node-named base (:func:`.compose.carries`' ``kept``).
    _kept: dict = dataclasses.field(default_factory=dict)
    #: variation form → whether the neighbour passes the variation gate (:func:`.search.valid_neighbour`).
    valid: dict[str, bool] = dataclasses.field(default_factory=dict)

    @functools.cached_property
    def id(self) -> str:  # read millions of times a hunt (memo keys over every base): spelt once (round 10e)
        return f"{self.case.id}:{self.form}"

    def model(self) -> onnx.ModelProto:
        if self._model is None:
            self._model = self.case.build(self.form)
        return self._model

    def ops(self) -> tuple[str, ...]:
        """The op types of the main graph (from the ``op:`` tags of a generated case, without building it)."""
        if self._ops is None:
            tagged = sorted(t[3:] for t in self.case.tags if t.startswith("op:"))
            self._ops = tuple(tagged) if tagged else tuple(sorted({n.op_type for n in self.model().graph.node}))
        return self._ops

    def forms(self, seed: int) -> list[str]:
        """The forms of this base (see :func:`passcheck.mutations.forms.enumerate_forms`), sampled with a
        generator seeded by ``seed`` and the base id (the same on every run), the single-site forms one per site
        kind first (:meth:`_single_sites`), then its withheld forms
        (:func:`passcheck.mutations.withheld.forms`: each rewrite with the output dims withheld on both sides)."""
        if self._forms is None:
            try:
                model = self.model()
            except Exception:  # noqa: BLE001 - a base this onnx cannot build has no forms
                self._forms = []
            else:
                made = hforms.enumerate_forms(
                    model, random.Random(f"{seed}:{self.id}"), max_sites=0, labels=self.applied
                )
                whole = [f for f in made if f in self.applied]
                self._forms = whole + self._single_sites(model, whole, seed) + made[len(whole) :]
                self._forms += withheld.forms(self._forms)
        return self._forms

    def _single_sites(self, model: onnx.ModelProto, whole: Sequence[str], seed: int) -> list[str]:
        """The single-site forms of the rewrites ``whole`` (those that apply, their sites in :attr:`applied`): at
        most :data:`.site_kind.MAX_SITES` of each rewrite with more than one site, one per site kind first
        (:func:`.site_kind.sample`, a generator seeded by ``seed``, the base id and the rewrite)."""
        from passcheck.hunt import site_kind
        from passcheck.mutations.sites import site_signatures

        out: list[str] = []
        sigs = ranks = None
        for rid in whole:
            labels = self.applied[rid]
            if len(labels) <= 1 or not hforms.has_sites(rid):
                continue
            if sigs is None:
                sigs, ranks = site_signatures(model), site_kind.types(model)
            kinds = {x: site_kind.kind(rid, x, sigs, ranks) for x in labels}
            rng = random.Random(f"{seed}:{self.id}:{rid}")
            out += [f"{rid}@{x}" for x in site_kind.sample(labels, kinds, rng)]
        return out

    def guided(self, seed: int, pass_id: str, acted) -> list[str]:
        """:meth:`forms` with each rewrite's single sites chosen where ``pass_id`` acted on this base
        (``acted``: a :class:`passcheck.hunt.guide.Acted`; :func:`passcheck.hunt.guide.guided_forms`)."""
        if pass_id not in self._guided:
            from passcheck.hunt.guide import guided_forms

            forms = self.forms(seed)
            self._guided[pass_id] = (
                guided_forms(self.model(), forms, acted, f"{seed}:{self.id}:{pass_id}") if forms else []
            )
        return self._guided[pass_id]

    def variations(self, seed: int) -> list[str]:
        """The variation form ids of this base (its neighbours, :func:`passcheck.hunt.variation.neighbours`),
        sampled with a generator seeded by ``seed`` and the base id."""
        if self._variations is None:
            from passcheck.hunt import variation

            try:
                model = self.model()
                self._variations = variation.neighbours(
                    model, random.Random(f"{seed}:{self.id}:vary"), self.case.bindings, pools=self._pools
                )
            except Exception:  # noqa: BLE001 - a base this onnx cannot build (or read) has no neighbours
                self._variations = []
        return self._variations

    def offered(self) -> dict[str, int]:
        """Each neighbour kind this base offers (with its prefix: ``vary:value-zero``) → how many sites it has here,
        once :meth:`variations` has listed them; ``{}`` before (asking builds nothing)."""
        return {k: p.size for k, p in self._pools.items() if p.size} if self._variations is not None else {}

    def rotated(self, seed: int, kind: str, n: int) -> list[str]:
        """The variation form ids of batch ``n`` ≥ 1 of ``kind``'s sites on this base (``vary:value-zero``; batch 0
        is the sample :meth:`variations` lists): sites no earlier batch holds, drawn with the kind's generator
        (:class:`.rotation.Sites`); ``[]`` once the base's sites of the kind are exhausted, or for a kind it does not
        offer. A function of ``seed``, the base and ``kind``: the scheduler keeps how many batches it listed."""
        self.variations(seed)
        pool = self._pools.get(kind)
        return [f"{kind}@{s}" for s in pool.batch(n)] if pool is not None else []

    def compositions(self, seed: int, vform: str, only: frozenset[str] | None = None) -> list[str]:
        """The rewrites of neighbour ``vform`` at sites it opened or changed (:func:`.compose.compositions`), sampled
        with a generator seeded by ``seed``, the base id and ``vform``; the first opened site of each rewrite also in
        :attr:`fresh`, those carrying the change in :attr:`carried`. ``only``: the rewrite ids that may be composed
        (a hunt's ``--rewrite`` pin; a hunt asks with one set throughout)."""
        if vform not in self._composed:
            from passcheck.hunt import compose
            from passcheck.mutations.forms import named

            try:
                if self._sites is None:
                    self._sites = compose.sites_of(named(self.model()), only)
                rng = random.Random(f"{seed}:{self.id}:{vform}")
                fresh, touched = compose.compositions(
                    self.model(),
                    vform,
                    rng,
                    self._sites,
                    carried=self.carried,
                    opened=self.fresh,
                    kept=self._kept,
                    unlocked=self.unlocked,
                    only=only,
                )
                self._composed[vform] = fresh + touched
            except Exception:  # noqa: BLE001 - a neighbour this onnx cannot build (or read) has no rewrites
                self._composed[vform] = []
        return self._composed[vform]


def bases(patterns: Sequence[str], generated: bool) -> list[Base]:
    """Every form of every case matching ``patterns`` that runs here; with no pattern, the
    hand-written library (its gated families claimed: :meth:`~passcheck.cases.CaseRegistry.claim_library`) and
    ``--cases-from`` modules, and the generated set when ``generated``.
    Sorted by id.

    Raises:
        UnknownIdError: a pattern matches no case.
    """
    from passcheck._versions import tool_version
    from passcheck.cases import registry

    reg = registry()
    if not patterns:
        reg.claim_library()  # the gated library families too (passcheck.cases.sources.GatedModule)
    chosen = reg.select(patterns) if patterns else reg.select([]) + (reg.select(["generated/*"]) if generated else [])
    version = tool_version("onnx")
    out = []
    for case in dict((c.id, c) for c in chosen).values():
        if case.skip_reason(version):
            continue
        out += [Base(case, f) for f in case.forms]
    return sorted(out, key=lambda b: b.id)
