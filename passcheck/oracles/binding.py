"""Binding maps and symbol occurrences (seed 000, "Setup" and "Order-independence").

Rather than binding in execution order and reporting the first mismatch, passcheck collects
every occurrence of every symbol in the run and then decides, so the verdict and the list of
violations do not depend on the order values were checked in.
"""

from __future__ import annotations

import dataclasses
import re
from collections import defaultdict

from passcheck.runtime.plan import ASSERTION, PRECONDITION  # noqa: E402,F401 - the roles, defined with the scan


@dataclasses.dataclass(frozen=True)
class Occurrence:
    """One axis annotated with a symbol: ``value`` axis ``axis`` had ``size`` at run time."""

    symbol: str
    value: str
    axis: int
    size: int
    role: str

    def to_json(self) -> dict:
        return dataclasses.asdict(self)


class BindingMap:
    """Collects symbol occurrences of one inference run and resolves them.

    ``resolve()`` gives the binding β: a symbol bound by the preconditions takes the size the
    inputs gave it (the inputs are the caller's responsibility); otherwise the size most
    occurrences agree on (ties: the smallest).
    """

    def __init__(self, unknown: re.Pattern[str] | None = None) -> None:
        self.occurrences: dict[str, list[Occurrence]] = defaultdict(list)
        self.unknown = unknown

    def add(self, occ: Occurrence) -> None:
        """Record ``occ``, unless its symbol fully matches ``unknown`` (a spelling of "unknown
        dim", e.g. ``?``: such a dim asserts nothing, like a dim with neither field)."""
        if self.unknown is not None and self.unknown.fullmatch(occ.symbol):
            return
        self.occurrences[occ.symbol].append(occ)

    def sizes(self, symbol: str) -> set[int]:
        return {o.size for o in self.occurrences[symbol]}

    def resolve(self) -> dict[str, int]:
        beta = {}
        for sym, occs in sorted(self.occurrences.items()):
            pre = [o.size for o in occs if o.role == PRECONDITION]
            pool = pre or [o.size for o in occs]
            beta[sym] = min(set(pool), key=lambda s: (-pool.count(s), s))
        return beta

    def conflicts(self) -> dict[str, list[Occurrence]]:
        """Symbols whose occurrences disagree, each with every occurrence, sorted by (value, axis).

        Sorted, so the result does not depend on the order values were checked in.
        """
        return {
            s: sorted(occs, key=lambda o: (o.value, o.axis, o.size, o.role))
            for s, occs in sorted(self.occurrences.items())
            if len({o.size for o in occs}) > 1
        }
