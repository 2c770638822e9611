"""What a spelling kind returns and what it gets: a :class:`Pair` (forms of one computation that
differ in one spelling, each a :class:`~passcheck.generate.recipe.Node` with a shape mode and a
doc, ``common`` first) and the :class:`Ctx` of the schema beyond the node (the last opset at which
it holds, the op under the previous schema). The kinds are in :mod:`.spellings` (graph inputs,
opset stamp, element type) and :mod:`.node_spellings` (attributes and inputs of the node itself).
"""

from __future__ import annotations

import dataclasses

from passcheck.generate.recipe import Node


@dataclasses.dataclass
class Ctx:
    """What a kind needs beyond the node: the schema's opset range and its previous version."""

    last_opset: int  # the newest opset at which this schema still holds (capped by onnxruntime)
    previous: Node | None  # the op's recipe under the previous schema (at since_version - 1), if any


@dataclasses.dataclass
class Pair:
    """Forms of one computation: name → (node, shape mode, doc); the first is ``common``."""

    kind: str
    detail: str
    forms: dict[str, tuple[Node, str, str]]
    doc: str
    #: the spec says the forms compute the same (a spelling of one computation); False where whether
    #: they do is what the gate decides (an ``omitted`` parameter whose omission's meaning the domain
    #: table does not state): the generator's gate counts it as an opinion (:mod:`passcheck.generate.dissent`)
    alike: bool = True
