"""A model's spelling without empty trailing slots (IR.md §Optional Inputs and Outputs: an optional input or
output is omitted either by leaving it off the end of the list or by writing the empty name ``""``; the two
spellings are one model).

The equivalence gate judges a mutant through this spelling when a tool refuses, fails on or crashes on the mutant
itself (:func:`passcheck.mutations.equivalence.verify_equivalent`): IR.md makes the two one model, so what the
tool does to the ``""`` spelling alone is the tool's finding (the ``input`` cell reports it), not a rewrite bug.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations._graph_edit import trim_trailing_empty
from passcheck.mutations._scopes import scopes

if TYPE_CHECKING:
    import onnx


def without_trailing_empty_slots(model: onnx.ModelProto) -> onnx.ModelProto | None:
    """A copy of ``model`` with every node's trailing ``""`` inputs and outputs dropped (every scope: main graph,
    subgraphs, function bodies), or None when no node has one (the copy would be ``model``). Interior ``""`` slots
    are kept: only a trailing slot can be left off the end (IR.md §Optional Inputs and Outputs)."""
    import onnx

    out = onnx.ModelProto()
    out.CopyFrom(model)
    cut = False
    for scope in scopes(out):
        for n in scope.body.node:
            cut = trim_trailing_empty(n.input) | cut
            cut = trim_trailing_empty(n.output) | cut
    return out if cut else None
