"""Chained neighbours: a neighbour of a neighbour (round 10a, M96), ``vary:<kind>@<site>+<kind>@<site>``.

A neighbour V of a base B changes one condition a pass checks (:mod:`.variation`); some defects need two: a QDQ Gemm
(``qdq-wrap``, which makes onnxruntime's QDQ selectors match the node) whose ``alpha`` is not 1 (``attr-alpha``,
Operators.md Gemm: ``alpha`` scales ``A·B`` only), neither of which alone is a wrong computation for the fused op.
The rewrites of a neighbour (:mod:`.compose`) reach only *equivalent* second changes; a non-equivalent second
change is a second neighbour, drawn on V as V was drawn on B.

**Which second links.** Of V's own neighbours (:func:`.variation.neighbours` of V, seeded by the base and V), those
of another family than V's (two changes of one family are one change's neighbourhood, which V's siblings already
span), of a model-only family (:func:`model_only`: no run condition of its own, so one setting, the case's, judges
the base, V and the chain), and *at what V changed* (:func:`.compose.changed`: a value whose bytes, type or shape V
changed, a node V rewrote, or a node reading or writing such a value): a second change elsewhere is two independent
changes, which the two neighbours alone already show. At most :data:`PER_FIRST` per first link: those at a node of
the base V changed (its attributes, its inputs' producers: where a pass matching the node meets both changes, the
Gemm's ``alpha`` inside the QDQ group) first, then those at anything else V changed (a value V added: a scale, a
zero point), one per family first in each tier.

**A first link that declares the inputs** (round 11g, M140; :func:`declares`: the ``input`` family,
:mod:`.vary_inputs`, :mod:`.vary_apart`). Such a V changes what the graph inputs declare, and its feeds with them
(:func:`.vary_probe.setting_for`); a pass seldom acts on it alone, but the declaration decides where a value
neighbour has a site: a dim declared 1 (``input-rank-up``'s leading 1, ``input-dim-one``) is stretched by a
multidirectional broadcast to the other operand's size, 0 included (Broadcasting.md), so a constant beside it may
hold no element (``shape-empty``), which beside a symbolic ``N`` it may not. Its second links are V's model-only
neighbours the base does not offer at all (:func:`.variation.offered`: the sites the declaration opened), and those
it offers but onnx strict shape inference refuses there (round 14i, M247: a site whose validity the declaration
decides, as ``shape-empty`` of a LayerNorm's epsilon, whose 0 meets the normalized axis 8 on the base and 1 once
``input-axis-one`` declares it so); the chain runs on V's feeds (the second link adds no run condition of its own).

**Judged against V.** A chained item is judged as a variation item with V as its base (:func:`.vary_probe.judge`:
V checked valid against B, the chain against V, the findings V's pass cell does not show are the second link's), so
a finding of V alone is not counted again under the chain's kind. Depth is 2: a chain is never the first link of
another chain, nor a neighbour whose rewrites :mod:`.compose` tries.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from passcheck.hunt import compose, variation, vary_probe

if TYPE_CHECKING:
    import onnx

#: Second links kept per first link.
PER_FIRST = 4
#: Bases whose own answers (:class:`_BaseSide`) are kept: a hunt lists one base's first links one after another.
KEPT_BASES = 8


class _BaseSide:
    """What :func:`seconds` asks of the base alone, the same for each of its first links (round 15g, M271): the
    sites it offers (:func:`.variation.offered`) and, per form, whether onnx strict shape inference refuses the
    neighbour built on it (:func:`_refused_alone`). Kept per base object (a hunt's :class:`.space.Base` builds its
    model once), the model held so its ``id`` is never reused while kept."""

    _kept: dict[int, _BaseSide] = {}

    def __init__(self, model: onnx.ModelProto) -> None:
        self.model, self._offered, self.refused = model, None, {}

    @classmethod
    def of(cls, model: onnx.ModelProto) -> _BaseSide:
        side = cls._kept.pop(id(model), None)
        if side is None or side.model is not model:
            side = cls(model)
        cls._kept[id(model)] = side  # most recent last
        while len(cls._kept) > KEPT_BASES:
            cls._kept.pop(next(iter(cls._kept)))
        return side

    def offered(self) -> set[str]:
        if self._offered is None:
            self._offered = variation.offered(variation_named(self.model))
        return self._offered


def model_only(form: str) -> bool:
    """Whether variation ``form`` changes the model only (its family makes no setting of its own:
    :data:`.vary_probe.SETTINGS`, feeds, bindings, a fed default, cast feeds), and is no chain."""
    return (
        variation.is_variation(form)
        and not variation.is_chained(form)
        and variation.family(form) not in vary_probe.SETTINGS
    )


def declares(form: str) -> bool:
    """Whether variation ``form`` changes the graph inputs' declarations (family ``input``: its feeds follow them),
    and is no chain: a first link whose second links are the sites it opens (module docs)."""
    return variation.is_variation(form) and not variation.is_chained(form) and variation.family(form) == "input"


def first_link(form: str) -> bool:
    """Whether variation ``form`` may be a chain's first link: a model-only neighbour (:func:`model_only`) or one that
    declares the inputs (:func:`declares`)."""
    return model_only(form) or declares(form)


def seconds(model: onnx.ModelProto, first: str, rng: random.Random, bindings=({}, {}), k: int = PER_FIRST) -> list[str]:
    """The chained form ids of neighbour ``first`` of ``model`` (module docs), sampled with ``rng``: at most ``k``,
    one per family first, in a seeded order; empty when ``first`` is no first link (:func:`first_link`) or does not
    build. Of a first link that declares the inputs, only the second links at sites the base does not offer."""
    if not first_link(first):
        return []
    built = variation.build(model, first)
    if built is None:
        return []
    neighbour, base = built[0], variation_named(model)
    moved = compose.changed(base, neighbour)
    at_nodes = moved & {n.name for n in base.graph.node}  # the base's own nodes V changed (or rewired)
    own = variation.family(first)
    opened = None if not declares(first) else _BaseSide.of(model).offered()  # a site the declaration opened is new
    tiers: tuple[dict[str, list[str]], dict[str, list[str]]] = ({}, {})
    for form in variation.neighbours(neighbour, rng, bindings):
        if not model_only(form) or variation.family(form) == own:
            continue
        at = set(variation.labels(form))
        if (at & moved) if opened is None else (form not in opened or _refused_alone(model, neighbour, form)):
            tiers[0 if at & at_nodes else 1].setdefault(variation.family(form), []).append(variation.chain(first, form))
    out: list[str] = []
    for by_family in tiers:  # a base node V changed first, then what else V changed; one per family first
        firsts = [rng.choice(forms) for _, forms in sorted(by_family.items())]
        out += rng.sample(firsts, min(k - len(out), len(firsts)))
        rest = sorted(f for forms in by_family.values() for f in forms if f not in out)
        out += rng.sample(rest, min(k - len(out), len(rest)))
    return out


def _refused_alone(model: onnx.ModelProto, neighbour: onnx.ModelProto, form: str) -> bool:
    """Whether neighbour ``form`` of base ``model`` is refused by onnx strict shape inference (a broadcast that
    meets two sizes, Broadcasting.md) and accepted on the first link's ``neighbour``: a site the base offers that
    its gate refuses, which the declaration makes valid (a dim declared 1 further on stretches to the 0
    ``shape-empty`` writes). The chain is then gated on the first neighbour as every chain is
    (:func:`.vary_probe.judge`)."""
    from passcheck.hunt import vary_inputs  # the inference both questions share

    side = _BaseSide.of(model)
    if form not in side.refused:  # the base's half, asked once per base (M271)
        alone = variation.build(model, form)
        side.refused[form] = alone is not None and not vary_inputs.accepted(alone[0])
    if not side.refused[form]:
        return False
    on_first = variation.build(neighbour, form)
    return on_first is not None and vary_inputs.accepted(on_first[0])


def variation_named(model: onnx.ModelProto) -> onnx.ModelProto:
    """``model``'s node-named copy (:func:`passcheck.mutations.forms.named`), the one the links' labels name."""
    from passcheck.mutations.forms import named

    return named(model)
