"""A hunt's budget: wall time (``90s``, ``10m``, ``1h``, a bare number is seconds) or a count of
items (``40items``)."""

from __future__ import annotations

import dataclasses
import re
import time

_UNITS = {"": 1.0, "s": 1.0, "m": 60.0, "h": 3600.0}


@dataclasses.dataclass(frozen=True)
class Budget:
    """Exactly one of ``seconds`` / ``items`` is set."""

    seconds: float | None = None
    items: int | None = None

    @classmethod
    def parse(cls, text: str) -> Budget:
        """Raises ValueError with what was expected."""
        m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*(s|m|h|items?)?\s*", text.lower())
        if not m or float(m.group(1)) <= 0:
            raise ValueError(f"expected a time like 90s, 10m, 1h or a count like 40items, got {text!r}")
        number, unit = float(m.group(1)), m.group(2) or ""
        if unit.startswith("item"):
            if number != int(number):
                raise ValueError(f"an item count is a whole number, got {text!r}")
            return cls(items=int(number))
        return cls(seconds=number * _UNITS[unit])

    def __str__(self) -> str:
        return f"{self.items} items" if self.items is not None else f"{self.seconds:g} s"


class Spent(Exception):
    """A time budget ran out inside a hunt step, while the scheduler was still choosing the step's item (listing
    bases' forms, building their models): the hunt ends there as at its check between items, and the step records
    no item, so a resumed hunt makes the same choice (round 11d, M129)."""


def check(until: float | None) -> None:
    """Raise :class:`Spent` when ``until`` (a :func:`time.monotonic` instant, None: no time budget) has passed."""
    if until is not None and time.monotonic() >= until:
        raise Spent


#: Seconds an item's pass and model runs get at most (``hunt --timeout`` default).
ITEM_TIMEOUT = 60.0
