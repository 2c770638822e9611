"""One thing a pass can do (a catalogue entry) and the evidence that a base made it happen.

An entry's ``key`` is ``tool:kind:name`` (``onnxruntime:rule:ConvBNFusion``,
``onnx-shape-inference:inference:Add@14``, ``onnx-version-converter:adapter:Add:13->14``); every
map, cache and JSON record keys on it.
"""

from __future__ import annotations

import dataclasses
from typing import Any

#: The tools the catalogue covers, in report order.
TOOLS = ("onnxruntime", "onnxscript", "onnx-shape-inference", "onnx-version-converter", "ort-symbolic-shape-infer")


@dataclasses.dataclass(frozen=True)
class Entry:
    """One catalogue entry.

    Attributes:
        tool: one of :data:`TOOLS`.
        kind: ``transformer``, ``rule``, ``fusion``, ``fold``, ``inference``, ``data-propagation``,
            ``adapter`` or ``handler``.
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
