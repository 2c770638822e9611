"""The sites of one variation kind on one base, drawn in batches (round 13d, M188).

:func:`.variation.neighbours` lists at most :data:`.variation.PER_KIND` sites of each kind: the first batch. Once the
scheduler has tried a kind's listed sites on a base under a pass, it asks for the next batch (:meth:`Sites.batch`),
drawn from the sites not drawn yet with the same generator, so a later step of the kind takes new sites until the
base's sites of that kind are exhausted. The first batch is the sample :func:`.variation.neighbours` always drew (one
``random.sample`` of ``per`` sites), and batch ``n`` depends only on the kind's generator seed and the sites: every
base object, shard and resumed hunt draws the same batches.
"""

from __future__ import annotations

import random
from collections.abc import Sequence


class Sites:
    """The sites of one kind on one base (labels, as :func:`.variation.neighbours` lists them), drawn ``per`` at a
    time with ``rng`` (a generator of the kind's own, :func:`.variation.neighbours`). Batch 0 is the first sample;
    a batch past the last site is empty."""

    def __init__(self, sites: Sequence[str], rng: random.Random, per: int):
        self._rest = sorted(dict.fromkeys(sites))
        self._size = len(self._rest)
        self._rng = rng
        self._per = per
        self._drawn: list[list[str]] = []

    def batch(self, n: int) -> list[str]:
        """Batch ``n`` (≥ 0) of the sites, sorted: up to ``per`` sites no earlier batch holds; ``[]`` once every
        site has been drawn."""
        while len(self._drawn) <= n and self._rest:
            got = self._rng.sample(self._rest, min(self._per, len(self._rest)))
            self._rest = [s for s in self._rest if s not in got]
            self._drawn.append(sorted(got))
        return list(self._drawn[n]) if n < len(self._drawn) else []

    def withhold(self, sites) -> None:
        """Leave ``sites`` out of every batch after the first (they are listed beside it: a value an op version
        added, :func:`.variation._added_sites`)."""
        self.batch(0)
        gone = set(sites)
        self._rest = [s for s in self._rest if s not in gone]

    @property
    def size(self) -> int:
        """How many sites the kind has on the base, drawn or not."""
        return self._size

    @property
    def left(self) -> int:
        """How many sites no batch drawn so far holds."""
        return len(self._rest)
