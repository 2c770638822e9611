"""A memo of one value per list of :class:`~.space.Base` objects, matched by the objects' identity, not their ids.

A :class:`~.space.Base` carries a hunt's own state: its forms and neighbours sampled with the hunt's seed
(:meth:`~.space.Base.forms`, :meth:`~.space.Base.variations`), the sites drawn in batches so far, its own cells,
the forms guided by what a pass acted on. Every hunt builds its bases anew (:func:`.space.bases`), with the same ids
as the last hunt over the same cases. A memo keyed by the ids (as :func:`.preconditions.probe_set`,
:func:`.aim.holding`, ``RareRewrites.of`` and ``Rare.of`` were until session 44) hands a second hunt in the same
process the *first* hunt's Base objects: the scheduler then lists forms sampled with the first hunt's seed and draws
batches the first hunt advanced, and the second hunt's items depend on the hunts run before it (round 23a: seed 2
after seed 1 differs from seed 2 alone at its sixth item). Matched by identity, a memo answers only for the very
objects it was made from; holding them keeps their ``id()`` from being reused while it is kept.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Generic, TypeVar

T = TypeVar("T")


class BasesMemo(Generic[T]):
    """The value made last, for the same Base objects (by identity, in order) and the same ``extra`` key."""

    def __init__(self) -> None:
        self._bases: tuple = ()
        self._extra: Hashable = None
        self._value: T | None = None
        self._made = False

    def get(self, bases: Sequence[object], extra: Hashable, make: Callable[[], T]) -> T:
        """``make()``, or the value it gave at the last call when ``bases`` are the same objects in the same order and
        ``extra`` is equal (``extra``: what else the value is a function of, e.g. the seed). Never raises but what
        ``make`` raises (then nothing is kept)."""
        if not (self._made and extra == self._extra and _same(bases, self._bases)):
            self._made = False
            value = make()
            self._bases, self._extra, self._value, self._made = tuple(bases), extra, value, True
        return self._value  # type: ignore[return-value]

    def clear(self) -> None:
        """Forget the value and release the objects it holds."""
        self._bases, self._extra, self._value, self._made = (), None, None, False


def _same(a: Sequence[object], b: Sequence[object]) -> bool:
    return len(a) == len(b) and all(x is y for x, y in zip(a, b, strict=True))
