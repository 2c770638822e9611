"""Units of a generic neighbour kind: the rank and element type of the values it changes (round 8e, M68).

A neighbour kind with no op precondition (:mod:`.preconditions`: seen on half the probes or more, such as
``input-constant``, ``default-fed``, ``expose``) applies to nearly every base, and its site kind in the hunt's
triples is ``*``: the element type of the value it changes never steered it. Yet what a pass does at the site is
typed by that value (IR.md "Tensor Element Types"; onnxscript's ``FoldConstantsPass`` converts each constant to a
numpy array by its ``dtype``, onnxruntime's ConstantFolding runs the CPU kernel registered for the type): freezing a
STRING graph input reaches a path of a folder that freezing a FLOAT one never does (docs/recall.md R49). So a
neighbour's *unit* is its kind and the ``<rank>:<ELEM>`` text (:func:`.site_kind.types`) of the values it changes,
as :mod:`.rare_rewrites` splits a rare rewrite by the element types it writes. The units and the probe bases that
offer each are read off the probes' neighbours (:class:`.preconditions.Preconditions`, ``units``); the scheduler
offers the untried ones in a share of the variation steps (:meth:`.scheduler.Scheduler._unit_item`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import onnx


def site_values(model: onnx.ModelProto, form: str) -> list[str]:
    """The values neighbour ``form`` changes in ``model``: the graph inputs an ``input-constant`` site freezes
    (``graph``: every one, :func:`.vary_frozen.frozen`), the input an ``input-apart`` slot reads
    (:func:`.vary_apart.split_input`), else its site labels (:func:`.variation.labels`: a value, or
    the node of a node site); none for a kind without labels (elem kinds, run conditions)."""
    from passcheck.hunt import variation, vary_apart, vary_frozen

    k, _, site = form.partition("@")
    if vary_frozen.is_kind(k[len(variation.PREFIX) :]):
        return vary_frozen.frozen(model, site)
    if vary_apart.is_kind(k[len(variation.PREFIX) :]):  # the input split, not the node reading it
        return vary_apart.split_input(model, site)
    return variation.labels(form)


def unit(model: onnx.ModelProto, form: str, types: Mapping[str, str]) -> str:
    """The unit text of neighbour ``form`` of ``model``: the sorted ``<rank>:<ELEM>`` texts (``types``:
    :func:`.site_kind.types` of ``model``, the optional-slot part after ``;`` left out) of :func:`site_values`, joined
    by ``/``; ``?`` when it changes no value the table names."""
    got = {types[v].split(";", 1)[0] for v in site_values(model, form) if v in types}
    return "/".join(sorted(got)) or "?"


def elems(text: str) -> set[str]:
    """The element type names of unit ``text`` (``?`` left out)."""
    return {e for piece in text.split("/") for e in piece.split(":")[-1].split(",") if e and e != "?"}
