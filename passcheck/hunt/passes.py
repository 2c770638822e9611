"""Which passes a hunt base's items draw from (its *relevant set*), when no ``--pass`` is given.

A case's relevant set is, in this order: the defaults (:data:`~passcheck.passes.DEFAULT_PASSES`),
the passes the case declares (``Case.passes``: a rule or fusion case names the pass that applies its
rule, :func:`passcheck.cases.rules.target_passes`), then every other registered pass
(:func:`registered`: fixed, ``--cases-from`` and plugin passes, and the parametrized ids the installed tools
list one by one: ``onnxoptimizer:pass-NAME``, ``ort-transformers:TYPE``) that runs a
catalogue entry the case's first form triggers in the coverage map (the entry names the pass, or
the pass declares the entry's tool or none the catalogue knows: :class:`~passcheck.coverage.entry.PassScope`).
A registered pass that runs no entry any observed case triggers (*unreached*: onnx_ir's
``TopologicalSortPass`` acts on nodes out of order, ``RemoveInitializersFromInputsPass`` on initializers
listed as inputs, ``LiftConstantsToInitializersPass`` on Constant nodes, which no case's common form has
but the hunt's rewrites spell) is in the set of every observed case: no evidence says which base it acts
on, and without a share it would never be searched (a case whose row is not observed yet keeps its
defaults and declared passes). Once a row triggers one of its entries it is scoped like the others.
Every form of a case shares its set (the forms spell one computation). A pass whose tool is missing
here (:meth:`~passcheck.passes.PassAdapter.unavailable_reason`) is left out and reported with the
cases that wanted it, never dropped silently. Without a coverage map (``--no-coverage``) the
set is the defaults and the declared passes. A case tagged :data:`~passcheck.case_model.DECLARED_ONLY` (a base
only some passes can judge) draws from its declared passes alone, with ``--pass`` too (those of them named), and
from the passes that declare they treat its op by type (:func:`treats_op`, M465).
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
from collections.abc import Iterable, Sequence
from typing import Any

from passcheck.case_model import DECLARED_ONLY

#: How a case came to want a pass (see :attr:`PassPlan.wanted`).
DECLARED, CATALOGUE, UNREACHED, BY_TYPE = "declared", "catalogue", "unreached", "by-type"


@dataclasses.dataclass
class PassPlan:
    """The passes of a hunt's items.

    Attributes:
        passes: every pass searched, in scheduling order (the defaults first).
        of_case: case id → its relevant set (absent: every pass of :attr:`passes`).
        unavailable: pass id → why it cannot run here, for the passes some case wanted.
        wanted: pass id → (how, case ids) for those unavailable passes: ``declared`` by the cases,
            else reached through their ``catalogue`` entries.
        explicit: the passes were named with ``--pass`` (every base gets all of them).
        unreached: the registered passes no observed case's entries reach, searched on every
            observed case (see module docs).
    """

    passes: list[str]
    of_case: dict[str, tuple[str, ...]] = dataclasses.field(default_factory=dict)
    unavailable: dict[str, str] = dataclasses.field(default_factory=dict)
    wanted: dict[str, tuple[str, list[str]]] = dataclasses.field(default_factory=dict)
    explicit: bool = False
    unreached: tuple[str, ...] = ()

    def of(self, base_id: str) -> tuple[str, ...]:
        """The passes of base ``base_id`` (``case-id:form``)."""
        return self.of_case.get(base_id.rsplit(":", 1)[0], tuple(self.passes))

    def digest(self) -> str | None:
        """A short digest of the per-case sets (None for ``--pass``): a resumed hunt must draw the same."""
        if self.explicit:
            return None
        text = json.dumps(sorted(self.of_case.items()), separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def cases_of(self, pass_id: str) -> int | None:
        """How many cases draw from ``pass_id`` (None for ``--pass``: every case)."""
        if self.explicit:
            return None
        return sum(pass_id in s for s in self.of_case.values())

    def unavailable_lines(self) -> list[str]:
        """The passes some case wanted that cannot run here (``passcheck hunt`` prints them): one line per reason.

        A reason one pass alone has gives that pass's line (how its cases came to want it, how many, the first
        three); the passes that share a reason (every ``onnxoptimizer:pass-NAME`` when onnxoptimizer is not
        installed) share one line: the reason once, the passes, the union of the cases that wanted them.
        """
        by_why: dict[str, list[str]] = {}
        for p, why in self.unavailable.items():
            by_why.setdefault(why, []).append(p)
        out = []
        for why, group in by_why.items():
            if len(group) == 1:
                (p,) = group
                how, cases = self.wanted[p]
                what = {
                    DECLARED: "declared by",
                    CATALOGUE: "reached through the catalogue entries of",
                    UNREACHED: "no entry reached: searched on all observed cases, wanted by",
                }[how]
                out.append(
                    f"pass {p} not searched, it cannot run here ({why}): {what} {len(cases)} cases ({_first(cases)})"
                )
                continue
            cases = list(dict.fromkeys(c for p in group for c in self.wanted[p][1]))
            out.append(
                f"{len(group)} passes not searched, they cannot run here ({why}): {_first(group, 4)}; "
                f"wanted by {len(cases)} cases ({_first(cases)})"
            )
        return out


def _first(names: Sequence[str], n: int = 3) -> str:
    """The first ``n`` of ``names``, comma-separated, with ``…`` when there are more."""
    return ", ".join(names[:n]) + (", …" if len(names) > n else "")


def explicit(passes: Sequence[str], bases: Iterable[Any] = ()) -> PassPlan:
    """The plan of ``--pass``: every base draws from ``passes`` (deduplicated, in order), a case of ``bases``
    tagged :data:`~passcheck.case_model.DECLARED_ONLY` from those of them it declares only."""
    plan = PassPlan(list(dict.fromkeys(passes)), explicit=True)
    for b in bases:
        if DECLARED_ONLY in b.case.tags:
            plan.of_case[b.case.id] = tuple(p for p in plan.passes if p in b.case.passes or treats_op(p, b.case))
    return plan


def treats_op(pass_id: str, case) -> bool:
    """Whether pass ``pass_id`` declares it treats the op of the schema-built ``case`` by type alone (M465): the
    case's ``op:<type>`` tag (:mod:`passcheck.generate.build`) is in the adapter's
    :attr:`~passcheck.passes.PassAdapter.by_type` (the float16 conversion's block list and always-float inputs,
    the quantizers' registries). Such a pass reads the op's inputs by position from a table keyed by op type
    alone (``float16.ALWAYS_FLOAT_INPUTS``: ``{"Resize": [2]}``), while the schema's input list is per version
    (Operators.md Resize-10: ``X, scales``; Resize-11+: ``X, roi, scales, sizes``): a base of an older version of
    the op — an adapter-source base the gate keeps for the converters only
    (:data:`~passcheck.case_model.DECLARED_ONLY`) — is where such a table is wrong. False for a case with no op
    tag, a pass that treats nothing by type, or one the registry cannot make here."""
    ops = {t.split(":", 1)[1] for t in case.tags if t.startswith("op:")}
    return bool(ops and ops & _by_type(pass_id))


@functools.cache
def _by_type(pass_id: str) -> frozenset[str]:
    """The op types pass ``pass_id`` declares it treats by type (empty when the registry cannot make it here)."""
    from passcheck.passes import get_pass

    try:
        return frozenset(get_pass(pass_id).by_type)
    except Exception:  # noqa: BLE001 - a pass the registry cannot make here treats nothing here
        return frozenset()


def passes_of(plan: PassPlan):
    """What the search asks for a base's passes under ``plan``: :meth:`PassPlan.of`, or None when every base draws
    from every pass (``--pass`` and no case limited to its declared passes)."""
    return None if plan.explicit and not plan.of_case else plan.of


def relevant(bases: Iterable[Any], cmap=None, available=None) -> PassPlan:
    """The relevant set of every case of ``bases`` (:class:`~passcheck.hunt.space.Base`; see module docs).

    Args:
        cmap: the hunt's :class:`~passcheck.coverage.map.CoverageMap` (bases keyed ``case-id:form``),
            or None: the defaults and the declared passes only.
        available: pass id → why it cannot run here or None (default: the adapter's
            :meth:`~passcheck.passes.PassAdapter.unavailable_reason`; a parametrized id the
            registry rejects counts as unavailable with its error).
    """
    from passcheck.passes import DEFAULT_PASSES

    why_not = available or _why_not
    cases = {b.case.id: b.case for b in bases}
    candidates = [p for p in registered() if p not in DEFAULT_PASSES]
    reached = _reached(cases, cmap, candidates) if cmap is not None else {}
    hit = {p for ps in reached.values() for p in ps}
    seen = {b.rsplit(":", 1)[0] for b in cmap.bases} if cmap is not None else set()
    unreached = [p for p in candidates if p not in hit] if seen & set(cases) else []
    plan = PassPlan([], unreached=tuple(unreached))
    reasons: dict[str, str | None] = {}
    for cid in sorted(cases):
        wanted: dict[str, str] = {}
        only = DECLARED_ONLY in cases[cid].tags
        for p in (*(() if only else DEFAULT_PASSES), *cases[cid].passes):
            wanted.setdefault(p, DECLARED)
        for p in candidates if only else ():  # M465: a pass that treats the op by type judges its old versions
            if treats_op(p, cases[cid]):
                wanted.setdefault(p, BY_TYPE)
        own = set(reached.get(cid, ())) if not only else set()
        for p in candidates if not only else ():  # the registry's order, reached or not
            if p in own or (cid in seen and p in unreached):
                wanted.setdefault(p, CATALOGUE if p in own else UNREACHED)
        chosen = []
        for p, how in wanted.items():
            if p not in reasons:
                reasons[p] = why_not(p)
            if reasons[p] is None:
                chosen.append(p)
                continue
            plan.unavailable[p] = reasons[p]
            prev = plan.wanted.get(p, (how, []))
            plan.wanted[p] = (DECLARED if DECLARED in (how, prev[0]) else how, [*prev[1], cid])
        plan.of_case[cid] = tuple(chosen)
    order = [*DEFAULT_PASSES, *registered()]
    used = {p for s in plan.of_case.values() for p in s}
    plan.passes = [p for p in dict.fromkeys([*order, *sorted(used)]) if p in used]
    plan.unreached = tuple(p for p in unreached if p in used)
    return plan


def registered() -> tuple[str, ...]:
    """Every pass an unguided hunt may search: the registry's fixed, registered and plugin ids, then the
    parametrized ids the installed tools list one by one (``onnxoptimizer:pass-NAME``, the offered
    ``ort-transformers:TYPE`` beyond the fixed ones: :func:`~passcheck.passes.parametrized_pass_ids`)."""
    from passcheck.passes import known_pass_ids, parametrized_pass_ids

    return tuple(dict.fromkeys((*known_pass_ids(), *parametrized_pass_ids())))


def _reached(cases, cmap, candidates: Sequence[str]) -> dict[str, list[str]]:
    """Case id → the ``candidates`` that run an entry its first form triggers in ``cmap``."""
    from passcheck.coverage.entry import PassScope

    scope = PassScope(cmap.entries.values())
    by_base = cmap.by_base()
    out: dict[str, list[str]] = {}
    for cid, case in cases.items():
        keys = by_base.get(f"{cid}:{next(iter(case.forms))}", ())
        entries = [cmap.entries[k] for k in keys if k in cmap.entries]
        out[cid] = [p for p in candidates if any(scope.runs(e, p) for e in entries)]
    return out


def _why_not(pass_id: str) -> str | None:
    from passcheck.passes import get_pass

    try:
        return get_pass(pass_id).unavailable_reason()
    except Exception as exc:  # noqa: BLE001 - a pass the registry cannot make here is not searched, and why
        return f"{type(exc).__name__}: {exc}"
