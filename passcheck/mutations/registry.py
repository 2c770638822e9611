"""Rewrite ids → rewrites, and the mutants of a model."""

from __future__ import annotations

import dataclasses
import importlib
import random
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING

from passcheck.errors import RegistryError, UnknownIdError
from passcheck.mutations._base import Applied, Rewrite, RewriteError
from passcheck.mutations.sites import _neighbours, _sample, site_signatures

if TYPE_CHECKING:
    import onnx


#: The rewrite modules, in catalogue order; each defines ``REWRITES`` (and may define ``FREEDOMS``,
#: see :mod:`passcheck.mutations.catalogue`). One module a line, to ease merges.
MODULES = (
    "passcheck.mutations.optional_inputs",
    "passcheck.mutations.shape_slice",
    "passcheck.mutations.constants",
    "passcheck.mutations.initializers",
    "passcheck.mutations.raw_data",
    "passcheck.mutations.axes",
    "passcheck.mutations.defaults",
    "passcheck.mutations.topo_order",
    "passcheck.mutations.value_info",
    "passcheck.mutations.identity",
    "passcheck.mutations.shape_counts",
    "passcheck.mutations.param_rank",
    "passcheck.mutations.subgraph_constants",
    "passcheck.mutations.gemm",
    "passcheck.mutations.opset_stamp",
    "passcheck.mutations.opset_floor",
    "passcheck.mutations.axes_inputs",
    "passcheck.mutations.reshape_chain",
    "passcheck.mutations.shared_nodes",
    "passcheck.mutations.precision",
    "passcheck.mutations.attr_no_field",
    "passcheck.mutations.commute",
    "passcheck.mutations.broadcast",
    "passcheck.mutations.keepdims",
    "passcheck.mutations.names",
    "passcheck.mutations.docs_meta",
    "passcheck.mutations.list_order",
    "passcheck.mutations.graph_inputs",
    "passcheck.mutations.domains",
    "passcheck.mutations.ir_version",
    "passcheck.mutations.optional_slots",
    "passcheck.mutations.outer_scope",
    "passcheck.mutations.local_functions",
    "passcheck.mutations.function_regions",
    "passcheck.mutations.control_flow_functions",
    "passcheck.mutations.graph_outputs",
    "passcheck.mutations.value_types",
    "passcheck.mutations.sparse_constant",
    "passcheck.mutations.neutral",
    "passcheck.mutations.neutral_remove",
    "passcheck.mutations.op_sequences",
    "passcheck.mutations.neutral_operands",
    "passcheck.mutations.select_ops",
    "passcheck.mutations.associate",
    "passcheck.mutations.min_max",
    "passcheck.mutations.schema_forms",
    "passcheck.mutations.reshape_dims",
    "passcheck.mutations.reshape_zero",
    "passcheck.mutations.raised_rank",
    "passcheck.mutations.concat_empty",
    "passcheck.mutations.empty_values",
    "passcheck.mutations.rank_opaque",
    "passcheck.mutations.variadic",
    "passcheck.mutations.function_bodies",
    "passcheck.mutations.loop_carried",
    "passcheck.mutations.neutral_select",
    "passcheck.mutations.neutral_ops",
    "passcheck.mutations.transpose_identity",
    "passcheck.mutations.cast_round_trip",
    "passcheck.mutations.cast_across",
    "passcheck.mutations.function_types",
    "passcheck.mutations.function_overloads",
    "passcheck.mutations.training_info",
    "passcheck.mutations.attribute_inputs",
    "passcheck.mutations.index_sign",
    "passcheck.mutations.slice_params",
    "passcheck.mutations.layout_forms",
    "passcheck.mutations.reduce_squeeze",
    "passcheck.mutations.scalar_operand",
    "passcheck.mutations.transpose_conjugate",
    "passcheck.mutations.transpose_perms",
    "passcheck.mutations.into_subgraph",
    "passcheck.mutations.through_types",
    "passcheck.mutations.sequence_ops",
    "passcheck.mutations.einsum_forms",
    "passcheck.mutations.squeeze_reshape",
    "passcheck.mutations.index_dtype",
    "passcheck.mutations.op_identities",
    "passcheck.mutations.shape_identities",
    "passcheck.mutations.optional_defaults",
    "passcheck.mutations.prose_defaults",
    "passcheck.mutations.axes_presence",
    "passcheck.mutations.shared_initializers",
    "passcheck.mutations.element_index_sign",
    "passcheck.mutations.loop_cond",
    "passcheck.mutations.sequence_position",
    "passcheck.mutations.repeated_slots",
    "passcheck.mutations.function_axes",
    "passcheck.mutations.denotations",
    "passcheck.mutations.deep_chain",
    "passcheck.mutations.tensor_attributes",
    "passcheck.mutations.extra_readers",
    "passcheck.mutations.outer_reads",
    "passcheck.mutations.initializer_neighbours",
    "passcheck.mutations.derived_names",
    "passcheck.mutations.transpose_split",
    "passcheck.mutations.concat_nested",
    "passcheck.mutations.slice_per_axis",
    "passcheck.mutations.text_attrs",
    "passcheck.mutations.graphs_attribute",
    "passcheck.mutations.function_opsets",
    "passcheck.mutations.namespace_names",
    "passcheck.mutations.nested_sites",
    "passcheck.mutations.qdq_forms",
)


def _build() -> dict[str, Rewrite]:
    table: dict[str, Rewrite] = {}
    for name in MODULES:
        for r in importlib.import_module(name).REWRITES:
            if r.id in table:
                raise RegistryError(f"rewrite id {r.id!r} is defined twice")
            table[r.id] = r
    from passcheck.mutations.nested_sites import wrapped

    for r in wrapped(table):  # every rewrite at nested sites (M461)
        if r.id in table:
            raise RegistryError(f"rewrite id {r.id!r} is defined twice")
        table[r.id] = r
    return table


#: Stable rewrite id → rewrite, in catalogue order.
REWRITES: dict[str, Rewrite] = _build()


def get_rewrite(form_id: str) -> Rewrite:
    """The rewrite for a ``--form`` id.

    Raises:
        UnknownIdError: no rewrite has that id (close ids suggested).
    """
    try:
        return REWRITES[form_id]
    except KeyError:
        raise UnknownIdError("form", form_id, list(REWRITES)) from None


Step = tuple[Rewrite, "str | None"]


def parse_form(form: str) -> tuple[Step, ...]:
    """The steps a form name spells: ``ID`` (every site), ``ID@LABEL`` (one site), ``A+B`` (A, then B
    on A's result; each part either spelling). A label may hold any character; ``+`` splits only
    before a known rewrite id.

    Raises:
        UnknownIdError: a part names no rewrite (close ids suggested).
    """
    ids = "|".join(re.escape(r) for r in sorted(REWRITES, key=len, reverse=True))
    m = re.fullmatch(rf"(?P<a>{ids})(?:@(?P<la>.+?))?(?:\+(?P<b>{ids})(?:@(?P<lb>.+))?)?", form)
    if m is None:
        head = form.split("+", 1)[0].split("@", 1)[0]
        if head not in REWRITES:
            get_rewrite(head)
        raise UnknownIdError("form", form, list(REWRITES))
    steps = [(REWRITES[m["a"]], m["la"])]
    if m["b"]:
        steps.append((REWRITES[m["b"]], m["lb"]))
    return tuple(steps)


def form_name(steps: Sequence[Step]) -> str:
    """The inverse of :func:`parse_form`."""
    return "+".join(r.id + (f"@{label}" if label is not None else "") for r, label in steps)


def describe(form: str) -> str:
    """One line on what a form is: the docs of its rewrites, and the site when only one."""
    return "; then ".join(r.doc + (f" (only at {label})" if label is not None else "") for r, label in parse_form(form))


def build_form(model: onnx.ModelProto, form: str) -> tuple[onnx.ModelProto, Applied] | None:
    """The mutant a form name spells (steps applied in order, each on the previous result) and where
    it changed, or None when a step changes nothing.

    Raises:
        UnknownIdError: a part of ``form`` names no rewrite.
    """
    current, done = model, []
    for r, label in parse_form(form):
        got = r.apply(current, None if label is None else [label])
        if got is None:
            return None
        current = got[0]
        done.append(got[1])
    return current, _combined(form, done)


def _combined(form: str, parts: Sequence[Applied]) -> Applied:
    if len(parts) == 1:
        return dataclasses.replace(parts[0], rewrite=form)
    return Applied(form, tuple(n for a in parts for n in a.nodes), "; then ".join(a.detail for a in parts))


def _isolated(steps: Iterator[tuple[str, onnx.ModelProto, Applied]]) -> Iterator[tuple[str, onnx.ModelProto, Applied]]:
    """``steps``, each step's own tool calls (the rewrites' onnx shape inference) run in the process's shared isolation
    worker (:func:`passcheck.passes.shared.shared_executor`) when the caller holds no
    :func:`~passcheck.runtime.isolated_tools.within` block (a library call; M309): a rewrite's intermediate model that
    kills inference costs that call, as in a front door's block. Inside an isolation worker (``PASSCHECK_IN_WORKER``)
    the steps run here. Deaths and calls not made are said once at the end (a ``RuntimeWarning``)."""
    import os

    from passcheck.runtime import isolated_tools

    if os.environ.get("PASSCHECK_IN_WORKER"):
        yield from steps
        return
    scope: isolated_tools.Scope | None = None
    try:
        while True:
            if isolated_tools.current() is not None:  # the caller's block (a front door's worker) decides
                step = next(steps, None)
            else:
                if scope is None:
                    from passcheck.passes.shared import shared_executor

                    scope = isolated_tools.Scope(shared_executor())
                with isolated_tools.again(scope):  # one scope for the whole call: its rules (M310) span every step
                    step = next(steps, None)
            if step is None:
                return
            yield step
    finally:
        deaths, skipped = (len(scope.deaths), len(scope.skipped)) if scope is not None else (0, 0)
        if deaths or skipped:
            import warnings

            warnings.warn(
                f"passcheck: onnx's tools died {deaths} times on forms the rewrites made, in the shared isolation "
                f"worker ({skipped} calls not made); those rewrites gave fewer forms",
                RuntimeWarning,
                stacklevel=3,
            )


def iter_mutants(
    model: onnx.ModelProto,
    form_ids: Sequence[str] | None = None,
    *,
    max_sites: int = 0,
    depth: int = 1,
    seed: int = 0,
    per_signature: bool = True,
    rank: Callable[[tuple], float] | None = None,
    budget: dict[str, tuple[int, int, int]] | None = None,
    failed: dict[str, str] | None = None,
) -> Iterator[tuple[str, onnx.ModelProto, Applied]]:
    """The mutants of ``model``, lazily: (form name, mutant, where it changed), every rewrite's
    forms in catalogue (or ``form_ids``) order, then the pairs.

    Args:
        model: the original; never modified.
        form_ids: forms to try (all rewrites when None or empty). A bare rewrite id gives its
            all-at-once form ``ID`` and single-site forms ``ID@LABEL``; a form with a site or a
            pair (``A+B``) gives just that form.
        max_sites: single-site forms per rewrite: every site when it has at most ``max_sites``,
            else ``max_sites`` sites sampled by ``seed``. A rewrite with one site has no
            single-site form (the all-at-once form is the same). 0: none.
        per_signature: try one site per :func:`site_signatures` key (picked by ``seed``)
            before the ``max_sites`` bound: 53 Convs each followed by a BatchNormalization give
            one single-site form, not 53.
        depth: 2 also yields pairs of the bare rewrites that apply (not a rewrite and its
            inverse): ``A+B`` (every site of each) and up to ``max_sites`` pairs ``A@a+B@b``,
            pairs at the same or neighbouring nodes first, then sampled by ``seed``.
        seed: the sampling seed (the same seed, model and arguments give the same forms).
        failed: when given, a form whose rewrite raises (:class:`~passcheck.mutations._base.RewriteError`)
            is left out and recorded here (form name → why) instead of raising.
        rank: site signature → weight (see :mod:`passcheck.mutations.site_ranking`): when the
            ``max_sites`` bound cuts, the single sites kept are the heaviest (ties by ``seed``).
        budget: filled, when given, with rewrite id → (single sites tried, distinct site
            signatures, sites it has): what one-per-signature and the ``max_sites`` bound cut (a
            front door prints it; never silent).

    The rewrites' own onnx shape inference runs in the enclosing
    :func:`~passcheck.runtime.isolated_tools.within` block's worker, and outside any block in the process's shared
    isolation worker (M309): a form that kills inference costs that call (the rewrite then gives no form, as when
    inference raises), said by a ``RuntimeWarning`` at the end.

    Raises:
        UnknownIdError: a form names no rewrite, or names a site its rewrite does not have.
        ValueError: ``depth`` not 1 or 2, or ``max_sites`` < 0.
    """
    if depth not in (1, 2) or max_sites < 0:
        raise ValueError(f"depth must be 1 or 2 and max_sites >= 0 (got depth={depth}, max_sites={max_sites})")
    yield from _isolated(_mutants(model, form_ids, max_sites, depth, seed, per_signature, rank, budget, failed))


def _mutants(
    model: onnx.ModelProto,
    form_ids: Sequence[str] | None,
    max_sites: int,
    depth: int,
    seed: int,
    per_signature: bool,
    rank: Callable[[tuple], float] | None,
    budget: dict[str, tuple[int, int, int]] | None,
    failed: dict[str, str] | None,
) -> Iterator[tuple[str, onnx.ModelProto, Applied]]:
    """:func:`iter_mutants`' steps (its arguments, checked)."""
    bare: list[tuple[Rewrite, onnx.ModelProto, Applied]] = []
    signature = site_signatures(model) if per_signature else None
    attempt = _attempt(failed)
    for form in dict.fromkeys(form_ids or REWRITES):
        steps = parse_form(form)
        if len(steps) > 1 or steps[0][1] is not None:
            got = attempt(form, lambda form=form: build_form(model, form))
            if got is None:
                if form in (failed or {}):
                    continue
                _no_such_site(model, steps)
                continue
            yield form, *got
            continue
        r = steps[0][0]
        whole = attempt(r.id, lambda r=r: r.apply(model))
        if whole is None:
            continue
        bare.append((r, *whole))
        yield r.id, *whole
        labels = list(whole[1].nodes)
        if len(labels) > 1:
            keys = {x: r.signature(x, signature) for x in labels} if signature is not None else None
            picked = _sample(labels, max_sites, seed, r.id, keys, rank)
            if budget is not None:
                distinct = len(set(keys.values())) if keys is not None else len(labels)
                budget[r.id] = (len(picked), distinct, len(labels))
            for label in picked:
                if (one := attempt(f"{r.id}@{label}", lambda r=r, label=label: r.apply(model, [label]))) is not None:
                    yield f"{r.id}@{label}", one[0], _combined(f"{r.id}@{label}", [one[1]])
    if depth == 2:
        yield from _pairs(model, bare, max_sites, seed, signature, attempt)


def _attempt(failed: dict[str, str] | None):
    """``attempt(form, build)``: ``build()``, or None with the reason recorded in ``failed`` when the
    rewrite raises (re-raised when ``failed`` is None)."""

    def attempt(form: str, build):
        try:
            return build()
        except RewriteError as exc:
            if failed is None:
                raise
            failed[form] = str(exc)
            return None

    return attempt


def _no_such_site(model: onnx.ModelProto, steps: Sequence[Step]) -> None:
    """Raise for the first step whose label is not a site of its rewrite (on the model that step sees)."""
    current = model
    for r, label in steps:
        if label is not None and label not in (sites := r.sites(current)):
            raise UnknownIdError(f"site of {r.id}", label, sites)
        got = r.apply(current, None if label is None else [label])
        if got is None:
            return  # a later step found nothing: the pair does not apply
        current = got[0]


def _pairs(
    model: onnx.ModelProto,
    bare: Sequence[tuple[Rewrite, onnx.ModelProto, Applied]],
    max_sites: int,
    seed: int,
    signature: Mapping[str, object] | None,
    attempt,
) -> Iterator[tuple[str, onnx.ModelProto, Applied]]:
    near = _neighbours(model)
    for i, (r1, m1, a1) in enumerate(bare):
        for r2, _m2, a2 in bare[i + 1 :]:
            if r1.inverse == r2.id or r2.inverse == r1.id:
                continue
            if (second := attempt(f"{r1.id}+{r2.id}", lambda r2=r2, m1=m1: r2.apply(m1))) is not None:
                yield f"{r1.id}+{r2.id}", second[0], _combined(f"{r1.id}+{r2.id}", [a1, second[1]])
            rng = random.Random(f"{seed}/{r1.id}+{r2.id}")
            yield from _site_pairs(model, (r1, a1), (r2, a2), near, max_sites, rng, signature, attempt)


#: Single-site pairs tried per rewrite pair, per pair wanted (a pair whose second step no longer applies is skipped).
_TRIES_PER_PAIR = 4


def _site_pairs(
    model: onnx.ModelProto,
    first: tuple[Rewrite, Applied],
    second: tuple[Rewrite, Applied],
    near: Mapping[str, set[str]],
    max_sites: int,
    rng: random.Random,
    signature: Mapping[str, object] | None,
    attempt,
) -> Iterator[tuple[str, onnx.ModelProto, Applied]]:
    """Up to ``max_sites`` forms ``A@a+B@b``: pairs at one site first, then neighbouring sites, then
    others drawn by ``rng`` (one pair per signature pair and distance when ``signature`` is given)."""
    (r1, a1), (r2, a2) = first, second
    if max_sites <= 0:
        return
    in2 = set(a2.nodes)
    close = [
        (0 if s1 == s2 else 1, rng.random(), s1, s2)
        for s1 in a1.nodes
        for s2 in sorted(({s1} | near.get(s1, set())) & in2)
    ]
    far_pool = 4 * _TRIES_PER_PAIR * max_sites
    far = [(2, rng.random(), rng.choice(a1.nodes), rng.choice(a2.nodes)) for _ in range(far_pool)]
    made, tries, seen = 0, 0, set()
    for d, _r, s1, s2 in sorted(close) + far:
        if made >= max_sites or tries >= _TRIES_PER_PAIR * max_sites:
            break
        key = (d, r1.signature(s1, signature), r2.signature(s2, signature)) if signature is not None else (s1, s2)
        if key in seen:
            continue
        seen.add(key)
        tries += 1
        form = f"{r1.id}@{s1}+{r2.id}@{s2}"
        if (got := attempt(form, lambda form=form: build_form(model, form))) is not None:
            made += 1
            yield form, *got


def mutants(
    model: onnx.ModelProto,
    form_ids: Sequence[str] | None = None,
    *,
    max_sites: int = 0,
    depth: int = 1,
    seed: int = 0,
    per_signature: bool = True,
    rank: Callable[[tuple], float] | None = None,
    budget: dict[str, tuple[int, int, int]] | None = None,
    failed: dict[str, str] | None = None,
) -> dict[str, tuple[onnx.ModelProto, Applied]]:
    """Every form of ``model`` that applies: form name → (mutant, where it changed).

    Arguments and errors as :func:`iter_mutants` (the defaults give one all-at-once form per
    rewrite that applies).
    """
    return {
        form: (m, a)
        for form, m, a in iter_mutants(
            model,
            form_ids,
            max_sites=max_sites,
            depth=depth,
            seed=seed,
            per_signature=per_signature,
            rank=rank,
            budget=budget,
            failed=failed,
        )
    }
