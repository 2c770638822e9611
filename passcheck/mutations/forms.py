"""Form ids of site rewrites → rewritten models, and the forms of one base model (hunt, reduce).

A form id follows the site-rewrite contract (passcheck.mutations): ``<rewrite>`` (every site at
once), ``<rewrite>@<label>`` (one site), parts joined by ``+`` (applied left to right: depth 2, or
one rewrite at several chosen sites). Site forms need ``Rewrite.sites`` / ``apply(model, sites)``;
where a rewrite lacks them only the all-at-once form exists.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

from passcheck.mutations.registry import REWRITES

if TYPE_CHECKING:
    import onnx

    from passcheck.mutations.listing import Listing


@functools.lru_cache(maxsize=65536)
def parts(form: str) -> tuple[tuple[str, str | None], ...]:
    """``form`` as ``[(rewrite id, site label or None), …]``; a ``+`` inside a label is kept
    (a new part starts only where a known rewrite id does).

    Raises:
        ValueError: the form does not start with a known rewrite id.
    """
    out: list[list] = []
    for piece in form.split("+"):
        rid, _, label = piece.partition("@")
        if rid in REWRITES:
            out.append([rid, label if "@" in piece else None])
        elif out and out[-1][1] is not None:
            out[-1][1] += "+" + piece
        else:
            raise ValueError(f"form {form!r}: {rid!r} is no rewrite id")
    return tuple((r, s) for r, s in out)


def spell(parts_: Sequence[tuple[str, str | None]]) -> str:
    """The form id of ``parts_`` (the inverse of :func:`parts`)."""
    return "+".join(r if s is None else f"{r}@{s}" for r, s in parts_)


def kind(form: str) -> str:
    """The rewrite kind of a form: its rewrite ids without site labels (``a+b``; ``a`` for ``a@x+a@y``)."""
    return "+".join(dict.fromkeys(r for r, _ in parts(form)))


def has_sites(rewrite_id: str) -> bool:
    """Whether the rewrite can be applied site by site (the contract's ``sites``)."""
    return callable(getattr(REWRITES[rewrite_id], "sites", None))


def sites(model: onnx.ModelProto, rewrite_id: str) -> list[str]:
    """Every site label of the rewrite in ``model`` ([] when it cannot tell sites apart)."""
    fn = getattr(REWRITES[rewrite_id], "sites", None)
    return list(fn(model)) if callable(fn) else []


def site_table(model: onnx.ModelProto, only: Collection[str] | None = None) -> tuple[dict[str, list[str]], bool]:
    """Rewrite id → :func:`sites` of each rewrite in ``model`` (registry order; ``[]`` for one that raised on it;
    ``only``: those ids alone, None: every one), and whether the table may be kept
    (:func:`passcheck.mutations.listing.site_table`): not when a call died or timed out in its worker
    (:class:`passcheck.errors.WorkerDied`, this run's fact, not the model's)."""
    out: dict[str, list[str]] = {}
    kept = True
    wanted = None if only is None else set(only)
    for rid in REWRITES if wanted is None else [r for r in REWRITES if r in wanted]:
        try:
            out[rid] = sites(model, rid)
        except Exception as exc:  # noqa: BLE001 - a rewrite that cannot read this model has no site here
            out[rid], kept = [], kept and not _transient(exc)
    return out, kept


def build(model: onnx.ModelProto, form: str) -> tuple[onnx.ModelProto, list[str]] | None:
    """``model`` rewritten as ``form`` and the labels changed, or None when a part applies nowhere
    (or names a site absent from the model). ``model`` is never modified."""
    current, changed = model, []
    grouped: list[tuple[str, frozenset[str] | None]] = []
    for rid, label in parts(form):  # consecutive sites of one rewrite are applied together
        if label is not None and grouped and grouped[-1][0] == rid and grouped[-1][1] is not None:
            grouped[-1] = (rid, grouped[-1][1] | {label})
        else:
            grouped.append((rid, None if label is None else frozenset({label})))
    for rid, only in grouped:
        rewrite = REWRITES[rid]
        if only is not None:
            if not has_sites(rid):
                return None
            done = rewrite.apply(current, sites=only)
        else:
            done = rewrite.apply(current)
        if done is None:
            return None
        current = done[0]
        changed += list(done[1].nodes)
    return current, changed


def enumerate_forms(
    model: onnx.ModelProto,
    rng: random.Random,
    max_sites: int = 3,
    depth: int = 2,
    max_pairs: int = 8,
    labels: dict[str, list[str]] | None = None,
) -> list[str]:
    """The forms to try on ``model``: every rewrite that applies (all at once), up to ``max_sites``
    single-site forms of each rewrite with more than one site (sampled with ``rng``), and up to
    ``max_pairs`` depth-2 pairs of applicable rewrites (neither the other's inverse).

    Every pair ``a+b`` where ``b`` does not apply to ``model`` but lists ``a`` in its ``after`` and applies to
    ``a``'s output (:func:`_opened_pairs`) is offered too, beside the ``max_pairs`` sampled ones.

    ``labels``: when given, filled with each all-at-once form's changed labels (what :func:`build`
    returns for it: the rewrite was applied here to see whether it applies).

    Which rewrites apply, their labels and the opened pairs are read from the disk cache when a process listed the
    same bytes with the same rewrites before (:mod:`passcheck.mutations.listing`); ``rng`` samples after."""
    from passcheck.mutations.listing import listing

    listed = listing(model, _listing)  # read from the disk cache when another process listed these bytes
    applicable = list(listed.applicable)
    if labels is not None:
        labels.update({rid: list(listed.labels[rid]) for rid in applicable})
    forms = list(applicable)
    for rid in applicable if max_sites > 0 else ():  # a sample of 0 draws nothing from ``rng``: no sites needed
        found = sites(model, rid)
        if len(found) > 1:
            forms += [f"{rid}@{s}" for s in sorted(rng.sample(found, min(max_sites, len(found))))]
    if depth >= 2:
        pairs = [
            (a, b)
            for a in applicable
            for b in applicable
            if a != b and REWRITES[a].inverse != b and REWRITES[b].inverse != a
        ]
        forms += [f"{a}+{b}" for a, b in rng.sample(pairs, min(max_pairs, len(pairs)))]
        forms += [f"{a}+{b}" for a, b in listed.opened]  # their only route: never sampled away
    return forms


def _listing(model: onnx.ModelProto) -> tuple[Listing, bool]:
    """What every rewrite does to ``model`` (:class:`passcheck.mutations.listing.Listing`) and whether it may be
    kept: not when a rewrite's isolated call died or timed out (:class:`passcheck.errors.WorkerDied`: this run's
    fact, not the model's)."""
    from passcheck.mutations.listing import Listing

    labels: dict[str, list[str]] = {}
    failed: list[BaseException] = []
    applicable = tuple(rid for rid, r in REWRITES.items() if _applies(r, model, rid, labels, failed))
    opened = tuple(_opened_pairs(model, applicable, failed))
    return Listing(applicable, labels, opened), not any(_transient(e) for e in failed)


def _transient(exc: BaseException | None) -> bool:
    from passcheck.errors import WorkerDied, WorkerStartError

    seen = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, (WorkerDied, WorkerStartError)):
            return True
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return False


def applies(model: onnx.ModelProto, rewrite_id: str) -> bool:
    """Whether rewrite ``rewrite_id`` applies to ``model`` (changes it somewhere), as :func:`enumerate_forms`
    decides it: one that raises on this model does not; or, when it does not, whether a rewrite in its
    ``after`` applies and opens a site for it (the depth-2 pair :func:`enumerate_forms` then offers)."""
    r = REWRITES[rewrite_id]
    if _applies(r, model):
        return True
    return any(b == rewrite_id for _a, b in _opened_pairs(model, [a for a in r.after if _applies(REWRITES[a], model)]))


def _applies(
    rewrite, model, rid: str = "", labels: dict[str, list[str]] | None = None, failed: list | None = None
) -> bool:
    """Whether ``rewrite`` changes ``model`` (its labels put in ``labels[rid]`` when it does; what it raised appended
    to ``failed``). A rewrite declared ``lists`` without ``alternatives`` is asked for its sites, which its edit
    gives under :data:`._base.LISTING` without building the rewritten copy: the labels the edit changes, all at once
    (:class:`._base.Rewrite`'s ``lists``; ``alternatives`` ones list more sites than one edit changes)."""
    try:
        if getattr(rewrite, "lists", False) and not getattr(rewrite, "alternatives", False):
            changed = rewrite.sites(model)
        else:
            done = rewrite.apply(model)
            changed = [] if done is None else list(done[1].nodes)
    except Exception as exc:  # noqa: BLE001 - a rewrite that cannot read this model applies nowhere
        if failed is not None:
            failed.append(exc)
        return False
    if changed and labels is not None:
        labels[rid] = list(changed)
    return bool(changed)


def named(model: onnx.ModelProto) -> onnx.ModelProto:
    """A copy of ``model`` in which every main-graph node has a unique name (``n<index>_<OpType>``)."""
    import onnx

    out = onnx.ModelProto()
    out.CopyFrom(model)
    taken = {n.name for n in out.graph.node if n.name}
    for i, n in enumerate(out.graph.node):
        if not n.name:
            name = f"n{i}_{n.op_type}"
            while name in taken:
                name += "_"
            n.name = name
            taken.add(name)
    return out


def _opened_pairs(
    model: onnx.ModelProto, applicable: Sequence[str], failed: list | None = None
) -> list[tuple[str, str]]:
    """``(a, b)`` for each rewrite ``b`` that does not apply to ``model``, lists an applicable ``a`` in its
    ``after``, and applies to ``model`` rewritten by ``a`` (all at once)."""
    out, built = [], {}
    for b, r in REWRITES.items():
        for a in r.after:
            if a not in applicable or b in applicable:
                continue
            if a not in built:
                done = build(model, a)
                built[a] = None if done is None else done[0]
            if built[a] is not None and _applies(r, built[a], failed=failed):
                out.append((a, b))
    return out
