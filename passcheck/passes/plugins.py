"""Pass adapters shipped by other packages, through the ``passcheck.passes`` entry-point group.

A package declares, in its ``pyproject.toml``::

    [project.entry-points."passcheck.passes"]
    "mytool:optimize" = "mytool_passcheck:MyToolAdapter"

The object named may be a :class:`~passcheck.passes.PassAdapter` instance, a subclass
(instantiated without arguments) or a callable returning one adapter or an iterable of adapters.
Each adapter is reachable by its own ``id``. Entry points are read once, on the first lookup of
an id passcheck does not ship. A plugin that cannot be loaded, or that returns no adapter, is
kept as an adapter that is always ``unavailable`` with the error as reason (the entry point's
name as id), so ``list --passes`` shows it and a run names it; it never stops passcheck.
"""

from __future__ import annotations

from importlib import metadata

from passcheck.passes._base import PassAdapter

GROUP = "passcheck.passes"


class BrokenPlugin(PassAdapter):
    """Stands for an entry point that did not give a usable adapter: always unavailable."""

    def __init__(self, name: str, value: str, reason: str):
        self.id = name
        self.reason = f"plugin {name} = {value} could not be loaded: {reason}"
        self.doc = f"(broken plugin: {value})"

    def unavailable_reason(self) -> str | None:
        return self.reason

    def apply(self, model, workdir):  # never reached: run() stops at unavailable_reason
        raise RuntimeError(self.reason)


def load(taken: frozenset[str] | set[str] = frozenset()) -> dict[str, PassAdapter]:
    """Every adapter the installed packages declare, by id, in entry-point order. An id already
    in ``taken`` (passcheck's own, or an earlier plugin's) is not replaced: the later one is kept
    as a :class:`BrokenPlugin` under ``<entry name>#<n>`` saying so."""
    found: dict[str, PassAdapter] = {}
    for ep in metadata.entry_points(group=GROUP):
        for adapter in _adapters(ep):
            if adapter.id in taken or adapter.id in found:
                clash = f"{ep.name}#{len(found)}"
                found[clash] = BrokenPlugin(clash, ep.value, f"its pass id {adapter.id!r} is already taken")
            else:
                found[adapter.id] = adapter
    return found


def _adapters(ep) -> list[PassAdapter]:
    try:
        obj = ep.load()
        if isinstance(obj, type) and issubclass(obj, PassAdapter):
            obj = obj()
        elif not isinstance(obj, PassAdapter) and callable(obj):
            obj = obj()
        items = [obj] if isinstance(obj, PassAdapter) else list(obj)
        bad = [type(a).__name__ for a in items if not isinstance(a, PassAdapter) or not getattr(a, "id", "")]
        if bad or not items:
            raise TypeError(f"expected PassAdapter instances with an id, got {', '.join(bad) or 'nothing'}")
        return items
    except Exception as exc:  # noqa: BLE001 - another package's bug must not stop passcheck
        return [BrokenPlugin(ep.name, ep.value, f"{type(exc).__name__}: {exc}")]
