"""One thing a pass can do (a catalogue entry) and the evidence that a base made it happen.

An entry's ``key`` is ``tool:kind:name`` (``onnxruntime:rule:ConvBNFusion``,
``onnx-shape-inference:inference:Add@14``, ``onnx-version-converter:adapter:Add:13->14``); every
map, cache and JSON record keys on it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any

#: The tools the catalogue covers, in report order.
TOOLS = (
    "onnxruntime",
    "onnxscript",
    "onnx-shape-inference",
    "onnx-version-converter",
    "ort-symbolic-shape-infer",
    "onnx-ir",
    "onnx-inliner",
    "ort-transformers",
    "onnxslim",
    "onnxoptimizer",
    "ort-precision",
)


@dataclasses.dataclass(frozen=True)
class Entry:
    """One catalogue entry.

    Attributes:
        tool: one of :data:`TOOLS`.
        kind: ``transformer``, ``rule``, ``fusion``, ``fold``, ``inference``, ``data-propagation``,
            ``adapter``, ``handler``, ``pass`` (an onnx-ir pass class), ``inline`` or ``function``
            (the inliner: local functions, a schema's function body).
        name: the tool's own name (a transformer or rule name, ``Op@since_version``, ``Op:from->to``).
        passes: the pass ids that run it (``ort:basic`` …): the passes a hunt item must use to exercise it.
        scope: where it sits in the tool (an onnxruntime level, a domain, an onnxscript rule set).
        source: where the name was read (the installed tool's log, registry or schemas; a table read from its sources).
    """

    tool: str
    kind: str
    name: str
    passes: tuple[str, ...]
    scope: str = ""
    source: str = ""

    @property
    def key(self) -> str:
        return f"{self.tool}:{self.kind}:{self.name}"

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, **dataclasses.asdict(self), "passes": list(self.passes)}


def key(tool: str, kind: str, name: str) -> str:
    """The key of the entry ``(tool, kind, name)`` (see :class:`Entry`)."""
    return f"{tool}:{kind}:{name}"


@dataclasses.dataclass(frozen=True)
class Evidence:
    """That base ``base`` (``case-id:form``) triggered entry ``entry`` (a key), and the effect
    observed (``effect``: one line a reader can check by re-running the tool on that base)."""

    entry: str
    base: str
    effect: str

    def to_json(self) -> dict[str, str]:
        return dataclasses.asdict(self)


#: Distribution a pass declares in ``PassAdapter.tools`` → the catalogue tools it stands for.
CATALOGUE_OF = {
    "onnxruntime": ("onnxruntime",),
    "onnxscript": ("onnxscript",),
    "onnx": ("onnx-shape-inference", "onnx-version-converter"),
    "onnxslim": ("onnxslim",),
    "onnxoptimizer": ("onnxoptimizer",),
}


class PassScope:
    """Which entries a pass runs: the passes each entry names; a pass no entry names (a ``cmd:``,
    plugin or test pass) runs every entry of the tools it declares (``PassAdapter.tools``), or of
    every tool when it declares none the catalogue knows."""

    def __init__(self, entries: Iterable[Entry]):
        self.known = {p for e in entries for p in e.passes}
        self._declared: dict[str, set[str]] = {}

    def runs(self, entry: Entry, pass_id: str) -> bool:
        if pass_id in self.known:
            return pass_id in entry.passes
        return entry.tool in (self._tools(pass_id) or TOOLS)

    def unscoped(self, pass_id: str) -> bool:
        """Whether ``pass_id`` is named by no entry and declares no tool the catalogue knows (it
        counts as running every entry)."""
        return pass_id not in self.known and not self._tools(pass_id)

    def tools(self, entries: Iterable[Entry], passes: Iterable[str]) -> tuple[str, ...]:
        """The tools of :data:`TOOLS` (in that order) some entry of ``entries`` is run by one of
        ``passes`` in: all of them when one of ``passes`` is :meth:`unscoped` (it counts as running
        every entry)."""
        passes = list(passes)
        if any(self.unscoped(p) for p in passes):
            return TOOLS
        used = {e.tool for e in entries if any(self.runs(e, p) for p in passes)}
        return tuple(t for t in TOOLS if t in used)

    def _tools(self, pass_id: str) -> set[str]:
        if pass_id not in self._declared:
            try:
                from passcheck.passes import get_pass

                tools = {t for d in get_pass(pass_id).tools for t in CATALOGUE_OF.get(d, ())}
            except Exception:  # noqa: BLE001 - a pass id the registry cannot make here: assume nothing about it
                tools = set()
            self._declared[pass_id] = tools
        return self._declared[pass_id]
