"""Binary search for the version where a finding appears (a regression) or goes away (a fix),
with untestable versions skipped as ``git bisect skip`` does: a version that cannot be installed
or run says nothing either way."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Literal

#: ``bad``: the finding is there; ``good``: the cell was judged in full and the finding is not
#: there; ``skip``: the version could not be tested (no wheel, the cell did not run).
State = Literal["bad", "good", "skip"]


@dataclasses.dataclass(frozen=True)
class Verdict:
    """What one probe found for one version (``versions``: the tools its environment resolved to)."""

    version: str
    state: State
    reason: str = ""
    versions: dict[str, str] = dataclasses.field(default_factory=dict)


@dataclasses.dataclass(frozen=True)
class Outcome:
    """The bisection's result.

    Attributes:
        direction: ``regression`` (good in the oldest, bad in the newest), ``fix`` (bad, then
            good), or ``none`` (no change of state in the range, or nothing testable).
        last_old: the newest version in the old state (last good of a regression, last bad of
            a fix); None when there is no change.
        first_new: the oldest version in the new state (first bad of a regression, first good
            of a fix).
        skipped_between: untestable versions between the two: the change may be in any of them.
        probes: every version tested, in the order tested.
        conclusion: one line for the user.
    """

    direction: Literal["regression", "fix", "none"]
    last_old: str | None
    first_new: str | None
    skipped_between: tuple[str, ...]
    probes: tuple[Verdict, ...]
    conclusion: str

    @property
    def first_bad(self) -> str | None:
        return self.first_new if self.direction == "regression" else None

    @property
    def last_good(self) -> str | None:
        return self.last_old if self.direction == "regression" else None


def bisect(versions: Sequence[str], probe: Callable[[str], Verdict]) -> Outcome:
    """Find where ``probe``'s state changes over ``versions`` (oldest first), assuming it changes
    once in the range.

    The newest version is probed first, then the oldest; the nearest testable version stands in
    for an untestable end. Between them, each step probes the untested version nearest the
    middle of the window; an untestable one narrows nothing and the next nearest is taken.
    About log2(n) + 2 probes for n versions when all are testable.

    Raises:
        ValueError: ``versions`` is empty.
    """
    if not versions:
        raise ValueError("no versions to bisect")
    seen: dict[int, Verdict] = {}

    def state(i: int) -> State:
        if i not in seen:
            seen[i] = probe(versions[i])
        return seen[i].state

    def done(direction, old, new, conclusion) -> Outcome:
        between = tuple(versions[i] for i in range(old + 1, new)) if old is not None and new is not None else ()
        order = tuple(seen.values())
        return Outcome(
            direction,
            versions[old] if old is not None else None,
            versions[new] if new is not None else None,
            between,
            order,
            conclusion,
        )

    hi = next((i for i in range(len(versions) - 1, -1, -1) if state(i) != "skip"), None)
    if hi is None:
        return done("none", None, None, "no version in the range could be tested")
    lo = next((i for i in range(hi) if state(i) != "skip"), None)
    end = seen[hi].state
    if lo is None:
        return done(
            "none",
            None,
            None,
            f"the finding is {_is(end)} in {versions[hi]}; no older version of the range could be tested",
        )
    if seen[lo].state == end:
        return done(
            "none",
            None,
            None,
            f"the finding is {_is(end)} in every tested version ({versions[lo]} and {versions[hi]}): no change in the range",
        )
    old = seen[lo].state
    while True:
        inner = [i for i in range(lo + 1, hi) if i not in seen]  # tested ones inside the window were skips
        if not inner:
            break
        mid = min(inner, key=lambda i: (abs(i - (lo + hi) / 2), i))
        s = state(mid)
        if s == old:
            lo = mid
        elif s == end:
            hi = mid
    direction = "regression" if old == "good" else "fix"
    words = ("first bad", "last good") if direction == "regression" else ("fixed in", "last bad")
    text = f"{direction}: {words[0]} {versions[hi]}, {words[1]} {versions[lo]}"
    if hi - lo > 1:
        text += f" (untestable between them: {', '.join(versions[lo + 1 : hi])}; the change may be in any of these)"
    return done(direction, lo, hi, text)


def _is(state: State) -> str:
    return "there" if state == "bad" else "absent"
