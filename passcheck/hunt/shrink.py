"""Shrink a hunt finding to a minimal pair: fewest rewrite parts, then fewest sites, then fewest
nodes, every candidate re-checked the way the finding was found (gate, then the pass, then the
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
from collections.abc import Callable
from typing import TYPE_CHECKING

from passcheck.hunt import forms as hforms
from passcheck.hunt.probe import Setting, probe
from passcheck.reduce.ddmin import ddmin

if TYPE_CHECKING:
    import onnx

    from passcheck.records import Finding

#: The rewritten form's name in a shrunk pair (and in the saved case module).
UNCOMMON = "uncommon"


@dataclasses.dataclass
class Shrunk:
    """The smallest pair found: base ``common``, its rewrite ``uncommon`` (form id ``form``, sites
    ``labels``), the finding it still shows, whether every step finished, candidates checked."""

    common: "onnx.ModelProto"
    uncommon: "onnx.ModelProto"
    form: str
    labels: list[str]
    finding: "Finding"
    finished: bool
    tests: int


class _OutOfTime(Exception):
    pass


def named(model: "onnx.ModelProto") -> "onnx.ModelProto":
    """A copy of ``model`` in which every main-graph node has a unique name (``n<index>_<OpType>``)."""
    import onnx

    out = onnx.ModelProto()
    out.CopyFrom(model)
    taken = {n.name for n in out.graph.node if n.name}
    for i, n in enumerate(out.graph.node):
        if not n.name:
            name = f"n{i}_{n.op_type}"
            while name in taken:
                name += "_"
            n.name = name
            taken.add(name)
    return out


class Shrinker:
    """Checks candidate pairs for one finding (``pass_id``, ``oracle``, ``kind``) under ``setting``.

    Args:
        executor: an :class:`~passcheck.passes.isolation.IsolatedExecutor`.
        deadline: ``time.monotonic()`` past which the smallest pair so far is returned.
        max_tests: candidate checks allowed.
    """

    def __init__(self, setting: Setting, pass_id: str, oracle: str, kind: str, executor, deadline: float, max_tests: int = 80):
        self.setting, self.pass_id, self.oracle, self.kind = setting, pass_id, oracle, kind
        self.ex, self.deadline, self.max_tests = executor, deadline, max_tests
        self.tests = 0
        self.last: tuple | None = None  # (base, form, mutant, labels, finding) of the last candidate that held

    def holds(self, base: "onnx.ModelProto", form: str) -> bool:
        """``form`` applies to ``base`` and the pair shows the finding."""
        if self.tests >= self.max_tests or time.monotonic() > self.deadline:
            raise _OutOfTime
        self.tests += 1
        try:
            built = hforms.build(base, form)
        except Exception:  # noqa: BLE001 - a rewrite that cannot read a cut model: not a candidate
            return False
        if built is None:
            return False
        mutant, labels = built
        outcome = probe(self.setting, base, UNCOMMON, mutant, self.pass_id, self.ex)
        hit = next((f for f in outcome.findings if (f.pass_id, f.oracle, f.kind) == (self.pass_id, self.oracle, self.kind)), None)
        if hit is not None:
            self.last = (base, form, mutant, labels, hit)
        return hit is not None

    def shrink(self, base: "onnx.ModelProto", form: str) -> Shrunk | None:
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
        except _OutOfTime:
            finished = False
        if self.last is None:
            return None
        b, f, mutant, labels, hit = self.last
        return Shrunk(b, mutant, f, list(labels), hit, finished, self.tests)

    def _fewest_parts(self, base, form: str) -> str:
        parts = hforms.parts(form)
        if len({r for r, _ in parts}) < 2:
            return form
        for rid in dict.fromkeys(r for r, _ in parts):
            alone = "+".join(f"{r}@{s}" if s is not None else r for r, s in parts if r == rid)
            if self.holds(base, alone):
                return alone
        return form

    def _fewest_sites(self, base, form: str) -> str:
        parts = hforms.parts(form)
        if len(parts) != 1 or parts[0][1] is not None or not hforms.has_sites(parts[0][0]):
            return form
        rid = parts[0][0]
        labels = hforms.sites(base, rid)
        if len(labels) < 2:
            return form
        spell: Callable[[list[str]], str] = lambda chosen: "+".join(f"{rid}@{s}" for s in chosen)  # noqa: E731
        for s in labels:  # one site alone, the usual answer
            if self.holds(base, spell([s])):
                return spell([s])
        keep, _ = ddmin(labels, lambda chosen: self.holds(base, spell(chosen)), self.deadline)
        return spell(keep)

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
