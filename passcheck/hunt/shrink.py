"""Shrink a hunt finding to a minimal pair: fewest rewrite parts, then fewest sites, then fewest
nodes (last, the Constant nodes the rewrite added become initializers), every candidate re-checked the way the finding
was found (gate, then the pass, then the
same pass / oracle / kind blamed on the rewrite; see :mod:`.probe`).

Nodes are cut from the base with :func:`passcheck.reduce.cut.cut` (values a kept node reads but
no kept node writes become initializers or typed graph inputs) and the rewrite is applied again
to the cut base, so the pair always differs by the rewrite alone. Site labels stay valid across
cuts because every node is named first. Delta debugging is :func:`passcheck.reduce.ddmin.ddmin`.
Bounded by a deadline and a number of candidate checks; the smallest pair so far is returned.
"""

from __future__ import annotations

import dataclasses
import time
from typing import TYPE_CHECKING

from passcheck.hunt.probe import Setting, probe
from passcheck.mutations import forms as hforms
from passcheck.mutations import withheld
from passcheck.mutations.forms import named
from passcheck.reduce.ddmin import ddmin

if TYPE_CHECKING:
    import onnx

    from passcheck.records import Finding

#: The rewritten form's name in a shrunk pair (and in the saved case module).
UNCOMMON = "uncommon"
#: The last step's rewrite: Constant nodes the rewrite added → initializers.
SPELLING = "constant-to-initializer"


@dataclasses.dataclass
class Shrunk:
    """The smallest pair found: base ``common``, its rewrite ``uncommon`` (form id ``form``, sites
    ``labels``), the finding it still shows, whether every step finished, candidates checked."""

    common: onnx.ModelProto
    uncommon: onnx.ModelProto
    form: str
    labels: list[str]
    finding: Finding
    finished: bool
    tests: int
    kind: str = ""  # the rewrite kind of ``form`` (without the Constant → initializer spelling step)


class _OutOfTime(Exception):
    pass


class Shrinker:
    """Checks candidate pairs for one finding (``pass_id``, ``oracle``, ``kind``) under ``setting``.

    Args:
        executor: an :class:`~passcheck.passes.isolation.IsolatedExecutor`.
        deadline: ``time.monotonic()`` past which the smallest pair so far is returned.
        max_tests: candidate checks allowed.
    """

    def __init__(
        self, setting: Setting, pass_id: str, oracle: str, kind: str, executor, deadline: float, max_tests: int = 80
    ):
        self.setting, self.pass_id, self.oracle, self.kind = setting, pass_id, oracle, kind
        self.ex, self.deadline, self.max_tests = executor, deadline, max_tests
        self.tests = 0
        self.last: tuple | None = None  # (base, form, mutant, labels, finding) of the last candidate that held

    def holds(self, base: onnx.ModelProto, form: str) -> bool:
        """``form`` applies to ``base`` and the pair shows the finding."""
        if self.tests >= self.max_tests or time.monotonic() > self.deadline:
            raise _OutOfTime
        self.tests += 1
        try:
            built = withheld.pair(base, form)  # a withheld form: both sides without the output dims
        except Exception:  # noqa: BLE001 - a rewrite that cannot read a cut model: not a candidate
            return False
        if built is None:
            return False
        base, mutant, labels = built
        outcome = probe(self.setting, base, UNCOMMON, mutant, self.pass_id, self.ex)
        hit = next(
            (f for f in outcome.findings if (f.pass_id, f.oracle, f.kind) == (self.pass_id, self.oracle, self.kind)),
            None,
        )
        if hit is not None:
            self.last = (base, form, mutant, labels, hit)
        return hit is not None

    def shrink(self, base: onnx.ModelProto, form: str) -> Shrunk | None:
        """The smallest pair showing the finding, from ``base`` rewritten as ``form``; None when
        even that pair does not show it under this setting (e.g. its case fed custom inputs).
        Every step only ever keeps a smaller candidate that holds, so the last one that held is
        the smallest, also when the deadline cuts a step short."""
        finished = True
        try:
            start = named(base)
            if self.holds(start, form):
                base = start
            elif not self.holds(base, form):
                return None
            form = self._fewest_parts(base, form)
            form = self._fewest_sites(base, form)
            self._fewest_nodes(base, form)
            self._constants_as_initializers(*self.last[:2])
        except _OutOfTime:
            finished = False
        if self.last is None:
            return None
        b, f, mutant, labels, hit = self.last
        return Shrunk(
            b, mutant, f, list(labels), hit, finished, self.tests, hforms.kind(f.split(f"+{SPELLING}@", 1)[0])
        )

    def _constants_as_initializers(self, base, form: str) -> None:
        """The Constant nodes the rewrite added (a value, not a computation: Unsqueeze axes, say)
        spelled as initializers, when the pair still shows the finding: fewer nodes, the same
        rewrite (the sites and the kind leave this step out)."""
        from passcheck.mutations.registry import REWRITES

        if any(REWRITES[r].inverse == SPELLING or r == SPELLING for r, _ in hforms.parts(form)):
            return  # the Constant nodes are what the rewrite is about
        built = hforms.build(base, form)
        if built is None:
            return
        g = base.graph
        known = {o for n in g.node for o in n.output} | {t.name for t in g.initializer} | {v.name for v in g.input}
        new_nodes = {
            label
            for i, n in enumerate(built[0].graph.node)
            if n.op_type == "Constant" and n.output[0] not in known
            for label in (n.name, f"#{i}:Constant")
        }
        added = [
            s for s in hforms.sites(built[0], SPELLING) if s in new_nodes
        ]  # made by the rewrite, not rewritten by it
        if added and self.holds(base, hforms.spell([*hforms.parts(form), *((SPELLING, s) for s in added)])):
            b, f, mutant, labels, hit = self.last
            self.last = (b, f, mutant, [x for x in labels if x not in added], hit)

    def _fewest_parts(self, base, form: str) -> str:
        """One rewrite of a depth-2 form alone, when it shows the finding by itself. A withholding part
        (:mod:`passcheck.mutations.withheld`) stays: it sets how both sides are declared, the pair's spelling is
        the other part."""
        parts = hforms.parts(form)
        own = list(dict.fromkeys(r for r, _ in parts if not withheld.withholding(r)))
        if len(own) < 2:
            return form
        for rid in own:
            alone = hforms.spell([p for p in parts if p[0] == rid or withheld.withholding(p[0])])
            if self.holds(base, alone):
                return alone
        return form

    def _fewest_sites(self, base, form: str) -> str:
        """Each all-at-once part of a rewrite with sites narrowed to the fewest sites (one site
        alone first, the usual answer; else delta debugging). Parts are narrowed from the last, so
        the sites of a part are those of the model the earlier parts wrote."""
        parts = list(hforms.parts(form))
        for i in reversed(range(len(parts))):
            rid, label = parts[i]
            if label is not None or not hforms.has_sites(rid):
                continue
            before = hforms.build(base, hforms.spell(parts[:i])) if i else (base, [])
            labels = hforms.sites(before[0], rid) if before is not None else []
            if len(labels) < 2:
                continue
            head, tail = parts[:i], parts[i + 1 :]

            def at(chosen: list[str], head=head, tail=tail, rid=rid) -> str:
                return hforms.spell([*head, *((rid, s) for s in chosen), *tail])

            chosen = next((s for s in labels if self.holds(base, at([s]))), None)
            keep = (
                [chosen] if chosen is not None else ddmin(labels, lambda c: self.holds(base, at(c)), self.deadline)[0]
            )
            parts = [*head, *((rid, s) for s in keep), *tail]
        return hforms.spell(parts)

    def _fewest_nodes(self, base, form: str):
        from passcheck.reduce.cut import constant_values, cut, key, value_types

        keys = [key(n) for n in base.graph.node]
        if len(keys) < 2:
            return base
        types, consts = self._call(value_types, base), self._call(constant_values, base)

        def holds(keep: list[str]) -> bool:
            cand = cut(base, set(keep), types, consts)
            return cand is not None and self.holds(cand, form)

        ddmin(keys, holds, self.deadline)

    def _call(self, fn, model) -> dict:
        try:
            return self.ex.call(fn, model)
        except Exception:  # noqa: BLE001 - without types / constants fewer cuts are valid: same rules
            return {}
