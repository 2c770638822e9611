"""Rewrites of a neighbour: the item "rewrite R of neighbour V of base B", judged as the pair
``(V(B), R(V(B)))`` as a rewrite item judges ``(B, R(B))``: two spellings of one computation (V's), so the
parity and other oracles compare R's two forms where V made R applicable.

A rewrite's applicability depends on the graph (``optional-input-default-omitted`` omits an input only where
its value equals the schema default, :mod:`passcheck.mutations.optional_defaults`), and a neighbour changes a
value, a type or an attribute; so V can open sites R never had on B. Only those are composed (the rest are
R's sites on B, which the rewrite items already try): a site of R on V that is not one on B (*fresh*), or one on
both whose content V changed (*touched*: the site, or a value or node its label names, is among what V changed,
:func:`changed`). At most :data:`PER_NEIGHBOUR` per neighbour, one site per rewrite first: a fresh site of each
rewrite that has one, then a touched site of each other rewrite, those that *carry* V's change first
(:func:`carries`), then the other fresh sites (a neighbour whose refreshed annotations name new symbols opens a
``rename-dim-params`` site per symbol; those no longer take every place). When fresh and carrying sites are more
than the places, the carrying ones keep half of them (a neighbour that adds initializers opens a site of every
initializer rewrite, which took every place before).

**Carrying the change.** V changes every value downstream of its site (a stated empty dim changes the shape of
each value computed from it), so nearly every rewrite touches it, most of them as they touch B (a doc string, a
renamed value, an ``Add`` of zero whose output has the type its input had). A rewrite carries V's change when
``R(V)`` holds a value that ``V`` does not, whose inferred type (element type and static dims, symbols left
unnamed) differs from the same value's in ``R(B)`` (it is computed from what V changed) and is the type of no
value of ``V``: R moves the change into a rank, layout or element type the graph did not have (an ``Unsqueeze``
puts a stated 0 at another axis, a ``Transpose`` moves it, a ``Cast`` carries a retyped value as double), where a
pass that reads types meets it in a spelling neither V nor R alone gives. A rewrite at a node V made foldable
carries it too (:func:`folded_by`: every input of the node a constant in V and not in B): a folding pass then
computes R's spelling of the node before any run, which neither B's forms nor V alone show it. Likewise a rewrite at
a node V placed in a QDQ node group (:func:`grouped_by`): onnxruntime's QDQ selectors then read R's spelling of
the node (an attribute, an operand's producer) inside the group.

Form id ``<variation form><THEN><rewrite form>``, e.g.
``vary:int-zero@zx>optional-input-default-omitted@n1_DequantizeLinear``: the variation's site never holds
:data:`~passcheck.hunt.variation.THEN` (:func:`.variation.neighbours`), so the first one splits the two; the
rewrite's site labels are those of V (:func:`.variation.build`'s node-named copy).
"""

from __future__ import annotations

import random
import re
from collections.abc import Collection
from typing import TYPE_CHECKING

from passcheck.hunt import variation
from passcheck.mutations import forms as hforms
from passcheck.mutations import opset_stamp
from passcheck.runtime import isolated_tools

if TYPE_CHECKING:
    import onnx

THEN = variation.THEN
#: Composed forms kept per neighbour.
PER_NEIGHBOUR = 4
_PIECES = re.compile(r"->|\.\.|>|:|=")  # the joins of a rewrite's compound site labels (edges, chains, regions)


def is_composed(form: str) -> bool:
    """Whether ``form`` is a composed form id (a variation form, :data:`THEN`, a rewrite form)."""
    return form.startswith(variation.PREFIX) and THEN in form


def split(form: str) -> tuple[str, str]:
    """``(variation form, rewrite form)`` of a composed form id."""
    v, _, r = form.partition(THEN)
    return v, r


def spell(vform: str, rform: str) -> str:
    return f"{vform}{THEN}{rform}"


def kind(form: str) -> str:
    """``vary:<kind>><rewrite kind>``: what the signature and the scheduler's triples record as its rewrite."""
    v, r = split(form)
    return f"{variation.kind(v)}{THEN}{hforms.kind(r)}"


def build(model: onnx.ModelProto, form: str) -> tuple[onnx.ModelProto, onnx.ModelProto, list[str]] | None:
    """``(V(model), R(V(model)), labels R changed)``, or None when V or R does not apply. ``model`` is never
    modified."""
    v, r = split(form)
    built = variation.build(model, v, labelled=True)
    if built is None:
        return None
    done = hforms.build(built[0], r)
    return None if done is None else (built[0], done[0], done[1])


def valid_pair(rec: dict, base, form: str, executor):
    """``(V, R(V), labels, setting)`` of the composed ``form`` on ``base`` (a :class:`~.space.Base`), ``V`` checked
    valid as a variation item's neighbour is (:func:`.vary_probe.invalid` on its own setting,
    :func:`.vary_probe.setting_for`), or None with ``rec``'s ``reason`` (and ``status`` ``invalid-variation`` for
    an invalid ``V``) set: ``V`` or ``R`` does not apply, or cannot read the model."""
    from passcheck.hunt import vary_probe
    from passcheck.hunt.probe import Setting

    vform = split(form)[0]
    try:
        model = base.model()
        built = build(model, form)
    except Exception as exc:  # noqa: BLE001 - a base or rewrite that cannot read this model: nothing to try
        rec["reason"] = f"{type(exc).__name__}: {exc}"
        return None
    if built is None:
        rec["reason"] = f"{form}: the neighbour or the rewrite does not apply here"
        return None
    neighbour, mutant, labels = built
    case = base.case
    setting = vary_probe.setting_for(
        Setting(case.id, case.bindings, case.feeds, case.rtol, case.atol), vform, neighbour
    )
    if why := vary_probe.invalid(setting, model, neighbour, executor, vform):
        rec["status"], rec["reason"] = vary_probe.INVALID, why
        return None
    return neighbour, mutant, labels, setting


def sites_of(model: onnx.ModelProto, only: Collection[str] | None = None) -> dict[str, frozenset[str]]:
    """Rewrite id → its site labels in ``model`` (empty when it cannot read the model); withholding
    rewrites left out (a pair's withheld side is the rewrite items' business, :mod:`passcheck.mutations.withheld`);
    ``only``: the rewrite ids to look at (None: every one). The table of every rewrite is kept on disk per model
    content (:func:`passcheck.mutations.listing.site_table`, :func:`passcheck.mutations.forms.site_table`): with
    ``only`` it is read when present, never written."""
    from passcheck.mutations import listing, withheld
    from passcheck.mutations.registry import REWRITES

    listed = [rid for rid in REWRITES if not withheld.withholding(rid)]
    if only is None:
        table = listing.site_table(model, lambda m: hforms.site_table(m, listed))
    elif (table := listing.site_table(model)) is not None:
        table = {rid: x for rid, x in table.items() if rid in only}
    else:
        table = hforms.site_table(model, [rid for rid in listed if rid in only])[0]
    return {rid: frozenset(x) for rid, x in table.items()}


def changed(base: onnx.ModelProto, neighbour: onnx.ModelProto) -> set[str]:
    """Labels V changed: initializers whose bytes, type or dims differ (or are new), values whose inferred
    element type or shape differs, nodes whose proto differs (same index and name), and every node reading or
    writing such a value; and the stamp (``opset_import``, the site of the rewrites that move it) when V adds or
    removes a default-domain op type, since where a stamp may go is read off each op's schema versions (IR.md
    §Operator Sets; :mod:`passcheck.mutations.opset_floor`). ``base`` is the node-named copy
    (:func:`~passcheck.mutations.forms.named`)."""
    was = {t.name: t.SerializeToString() for t in base.graph.initializer}
    out = {t.name for t in neighbour.graph.initializer if was.get(t.name) != t.SerializeToString()}
    before, after = variation._inferred(base), variation._inferred(neighbour)
    out |= {k for k, t in after.items() if k in before and before[k] != t}
    nodes = {n.name: n for n in base.graph.node}
    for n in neighbour.graph.node:
        if n.name in nodes and nodes[n.name] != n:
            out |= {n.name, *n.input, *n.output}
    for n in neighbour.graph.node:
        if out & {*n.input, *n.output}:
            out.add(n.name)
    out.discard("")
    if _default_ops(base) != _default_ops(neighbour):
        out.add(STAMP)
    return out


#: The label of the stamp rewrites' one site.
STAMP = opset_stamp.SITE


def _default_ops(model: onnx.ModelProto) -> set[str]:
    return {n.op_type for n in model.graph.node if n.domain in ("", "ai.onnx")}


def _spelt(t) -> tuple:
    """A TypeProto as (element type, dims), a dim without a static value as ``?`` (inference names its own
    symbols, which differ between two models)."""
    if not t.HasField("tensor_type"):
        return (t.WhichOneof("value"),)
    tt = t.tensor_type
    dims = (
        tuple(d.dim_value if d.HasField("dim_value") else "?" for d in tt.shape.dim) if tt.HasField("shape") else None
    )
    return (tt.elem_type, dims)


def _typed(model: onnx.ModelProto) -> dict:
    """Value name → TypeProto (:func:`.variation._inferred`) after an inference with data propagation (a shape
    computed by ``Shape`` / ``Gather`` / ``Concat`` reaches the ``Reshape`` reading it: onnx.shape_inference
    ``data_prop``)."""
    try:
        model = isolated_tools.infer_shapes(model, data_prop=True)
    except Exception:  # noqa: BLE001 - inference fails: what the model declares (and a plain inference's)
        pass
    return variation._inferred(model)


def spelt_types(model: onnx.ModelProto) -> dict[str, tuple]:
    """Value name → its inferred type spelt as (element type, dims with ``?``) (:func:`_typed`, :func:`_spelt`)."""
    return {k: _spelt(t) for k, t in _typed(model).items()}


def carries(
    base: onnx.ModelProto, neighbour: onnx.ModelProto, rform: str, had: dict | None = None, kept: dict | None = None
) -> bool:
    """Whether rewrite form ``rform`` carries neighbour V's change (see module docs): ``R(V)`` has a value V has
    not, typed otherwise than in ``R(base)`` and as no value of V. ``base``: the node-named base; ``had``: V's
    inferred types (:func:`_typed`) when known; ``kept``: rewrite form → ``R(base)``'s inferred types (None: R does
    not build on ``base``), read and filled here: they do not depend on the neighbour, so one dict per base serves
    every neighbour of it. False when R does not build on either."""
    kept = {} if kept is None else kept
    try:
        if rform not in kept:
            on_base = hforms.build(base, rform)
            kept[rform] = None if on_base is None else _typed(on_base[0])
        on_v = hforms.build(neighbour, rform) if kept[rform] is not None else None
    except Exception:  # noqa: BLE001 - a rewrite that cannot read one of the models carries nothing
        kept.setdefault(rform, None)
        return False
    if on_v is None:
        return False
    had = _typed(neighbour) if had is None else had
    types = {_spelt(t) for t in had.values()}
    was, now = kept[rform], _typed(on_v[0])
    return any(
        k not in had and k in was and _spelt(was[k]) != (s := _spelt(t)) and s not in types for k, t in now.items()
    )


def constant_nodes(model: onnx.ModelProto) -> set[str]:
    """Names of the main-graph nodes whose every input, at least one, is a constant (an initializer no graph input
    overrides, a Constant's output, or another such node's output): the folding oracle's
    :func:`passcheck.oracles.folding.constant_only`, what a folding pass may compute before any run (onnxruntime's
    ``ConstantFolding``: every node input a constant initializer; onnxscript's optimizer: every input a known
    constant)."""
    from passcheck.oracles.folding import constant_only

    return {n.name for _, n in constant_only(model)}


def folded_by(base: onnx.ModelProto, neighbour: onnx.ModelProto) -> set[str]:
    """Names of the nodes neighbour V made foldable (:func:`constant_nodes` of V, not of ``base``), with their
    outputs: a rewrite at one of them meets, in V only, what a folding pass does to it at session creation."""
    names = constant_nodes(neighbour) - constant_nodes(base)
    return names | {o for n in neighbour.graph.node if n.name in names for o in n.output if o}


def quantized_groups(model: onnx.ModelProto) -> set[str]:
    """Names of the main-graph nodes of ``model`` that stand in a QDQ node group: not a QuantizeLinear /
    DequantizeLinear themselves, reading at least one DequantizeLinear output, and every output read only by
    QuantizeLinear nodes (onnxruntime's QDQ selectors match such a node with its DQ inputs and Q outputs,
    ``qdq_transformer/selectors_actions``)."""
    qdq = ("QuantizeLinear", "DequantizeLinear")
    dq_out = {o for n in model.graph.node if n.op_type == qdq[1] for o in n.output}
    readers: dict[str, set[str]] = {}
    for n in model.graph.node:
        for v in n.input:
            readers.setdefault(v, set()).add(n.op_type)
    return {
        n.name
        for n in model.graph.node
        if n.op_type not in qdq and dq_out & set(n.input) and all(o and readers.get(o) == {qdq[0]} for o in n.output)
    }


def grouped_by(base: onnx.ModelProto, neighbour: onnx.ModelProto) -> set[str]:
    """Names of the nodes neighbour V placed in a QDQ node group (:func:`quantized_groups` of V, not of ``base``),
    with their outputs: a rewrite at one of them meets, in V only, what the QDQ transformers do to its spelling."""
    names = quantized_groups(neighbour) - quantized_groups(base)
    return names | {o for n in neighbour.graph.node if n.name in names for o in n.output if o}


def _at(form: str, labels: set[str]) -> bool:
    """Whether rewrite form ``form``'s site names one of ``labels`` (a compound site: any of its pieces)."""
    return bool(labels) and bool(set(_PIECES.split(form.partition("@")[2])) & labels)


def compositions(
    model: onnx.ModelProto,
    vform: str,
    rng: random.Random,
    before: dict[str, frozenset[str]] | None = None,
    k: int = PER_NEIGHBOUR,
    carried: set[str] | None = None,
    opened: set[str] | None = None,
    kept: dict | None = None,
    unlocked: set[str] | None = None,
    only: Collection[str] | None = None,
) -> tuple[list[str], list[str]]:
    """The composed form ids of neighbour ``vform`` of ``model`` (see module docs), sampled with ``rng``: those at
    fresh sites, and those at touched sites; ``before``: :func:`sites_of` the node-named ``model`` when known;
    ``carried``: a set the touched ones that carry the change (:func:`carries`) are added to; ``opened``: a set the
    first fresh site of each rewrite is added to (a rewrite's other fresh sites in this neighbour, which fill the
    places left, are not: one rewrite's opened sites count as one); ``kept``: :func:`carries`' per-base cache of
    ``R(model)``'s inferred types; ``unlocked``: a set those of ``opened`` whose rewrite has no site on ``model`` at
    all are added to (the neighbour made the rewrite applicable, not only gave it another label); ``only``: the
    rewrite ids that may be composed (a ``--rewrite`` pin: its rewrites get every place; None: every rewrite). The
    other fresh
    sites come one per (rewrite, site kind in the neighbour) first
    (:func:`.site_kind.kind`: a rewrite of every dim symbol opens one site per symbol, most of one kind). Empty
    when ``vform`` does not build."""
    if before is None:
        before = sites_of(hforms.named(model), only)
    got = site_split(model, vform, before, only)
    if got is None:
        return [], []
    neighbour, base, opened_at, hit = got
    firsts = [_alike(rid, rng.choice(sites), before) for rid, sites in opened_at.items()]
    fresh = rng.sample(firsts, min(k, len(firsts)))
    touched = [f"{rid}@{rng.choice(sites)}" for rid, sites in hit.items()]
    carry, rest = _carrying(base, neighbour, rng.sample(touched, len(touched)), carry_cap(len(fresh), k), kept)
    if len(fresh) + len(carry) > k:  # the carrying ones keep half the places: opened sites cannot crowd them out
        fresh.sort(key=lambda r: bool(before.get(hforms.parts(r)[0][0])))  # made applicable first (stable)
        fresh = fresh[: max(k - min(len(carry), k // 2), 0)]
    if opened is not None:
        opened.update(spell(vform, r) for r in fresh)
    if unlocked is not None:  # a rewrite with no site on the base at all: the neighbour made it applicable
        unlocked.update(spell(vform, r) for r in fresh if not before.get(hforms.parts(r)[0][0]))
    touched = rng.sample(carry, min(k - len(fresh), len(carry)))
    if carried is not None:
        carried.update(spell(vform, r) for r in touched)
    touched += rng.sample(rest, min(k - len(fresh) - len(touched), len(rest)))
    fresh += _other_sites(neighbour, opened_at, set(fresh), rng, k - len(fresh) - len(touched))
    return [spell(vform, r) for r in fresh], [spell(vform, r) for r in touched]


def _alike(rid: str, site: str, before: dict[str, frozenset[str]]) -> str:
    """The rewrite form of ``rid`` at the fresh ``site``, and at the site it was copied from when the neighbour made
    it as a copy of one (:func:`.variation.origin`: ``input-apart``'s ``x__apart`` of ``x``) that is a site of
    ``rid`` on the base too: the copy and its origin then read alike (``anonymous-input-dims`` on both inputs, both
    dims unknown), not one of them only."""
    o = variation.origin(site)
    if o is not None and o in before.get(rid, ()):
        return hforms.spell([(rid, o), (rid, site)])
    return f"{rid}@{site}"


def site_split(
    model: onnx.ModelProto,
    vform: str,
    before: dict[str, frozenset[str]] | None = None,
    only: Collection[str] | None = None,
) -> tuple[onnx.ModelProto, onnx.ModelProto, dict[str, list[str]], dict[str, list[str]]] | None:
    """(neighbour, node-named base, rewrite id → its fresh sites on the neighbour, rewrite id → its touched sites:
    for a rewrite with no fresh one) of neighbour ``vform`` of ``model`` (module docs), or None when it does not
    build. ``before``: :func:`sites_of` the node-named ``model`` when known; ``only``: as :func:`compositions`."""
    built = variation.build(model, vform, labelled=True)
    if built is None:
        return None
    neighbour, base = built[0], hforms.named(model)
    before = sites_of(base, only) if before is None else before
    now, moved = sites_of(neighbour, only), changed(base, neighbour)
    opened_at, hit = {}, {}  # rewrite id → its fresh sites, its touched sites (a rewrite with fresh ones: those only)
    for rid, sites in sorted(now.items()):
        new = sorted(s for s in sites if s not in before.get(rid, ()))
        old = sorted(s for s in sites if s in before.get(rid, ()) and moved & set(_PIECES.split(s)))
        if new:
            opened_at[rid] = new
        elif old:
            hit[rid] = old
    return neighbour, base, opened_at, hit


def carry_cap(fresh: int, k: int = PER_NEIGHBOUR) -> int:
    """How many carrying rewrites :func:`compositions` can place beside ``fresh`` opened ones among ``k``: the
    carrying ones keep half of the places (``k // 2``) when the opened ones would take more, and fill every place
    the opened ones leave; finding more of them changes nothing."""
    return k - min(fresh, k - k // 2)


def _carrying(
    base: onnx.ModelProto, neighbour: onnx.ModelProto, order: list[str], cap: int, kept: dict | None
) -> tuple[list[str], list[str]]:
    """``(carrying, others)`` of the touched rewrite forms ``order`` (already shuffled), walked in that order and
    stopped once ``cap`` carrying ones are found (:func:`carry_cap`: the places they can take are filled, so the
    rest is never asked; ``others`` is then incomplete, and no place is left for it). A form at a node V made
    foldable carries without an inference (:func:`folded_by`)."""
    carry: list[str] = []
    rest: list[str] = []
    if not order or cap <= 0:
        return carry, list(order)
    folded = folded_by(base, neighbour) | grouped_by(base, neighbour)
    had = None
    for r in order:
        if len(carry) >= cap:
            break
        if _at(r, folded):
            carry.append(r)
            continue
        if had is None:
            had = _typed(neighbour)
        (carry if carries(base, neighbour, r, had, kept) else rest).append(r)
    return carry, rest


def _other_sites(
    neighbour: onnx.ModelProto, opened_at: dict[str, list[str]], taken: set[str], rng: random.Random, n: int
) -> list[str]:
    """At most ``n`` rewrite forms ``rid@site`` of the fresh sites ``opened_at`` not in ``taken``: one per (rewrite,
    site kind in ``neighbour``, :func:`.site_kind.kind`) not taken yet first, sampled with ``rng``, then the others."""
    if n <= 0:
        return []
    from passcheck.hunt import site_kind
    from passcheck.mutations.sites import site_signatures

    sigs, ranks = site_signatures(neighbour), site_kind.types(neighbour)
    groups: dict[tuple, list[str]] = {}
    for rid, sites in opened_at.items():
        for s in sites:
            groups.setdefault((rid, site_kind.kind(rid, s, sigs, ranks)), []).append(f"{rid}@{s}")
    seen = {g for g, forms in groups.items() if taken & set(forms)}
    firsts = [rng.choice(forms) for g, forms in groups.items() if g not in seen]
    out = rng.sample(firsts, min(n, len(firsts)))
    more = [f for forms in groups.values() for f in forms if f not in taken and f not in out]
    return out + rng.sample(more, min(n - len(out), len(more)))
