"""A user's model and its verified mutants as one :class:`~passcheck.engine.Subject`."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from passcheck.engine import feeds_for  # noqa: F401 - the one feed synthesis, re-exported
from passcheck.errors import PasscheckError
from passcheck.mutations._base import Applied
from passcheck.mutations.equivalence import (
    Unverified,
    check_input,
    isolated_defaults,
    original_runs,
    verify_equivalent,
    worker_of,
)
from passcheck.mutations.registry import mutants
from passcheck.runtime import isolated_tools

if TYPE_CHECKING:
    import onnx

    from passcheck.engine import Subject
    from passcheck.mutations.equivalence import Runner
    from passcheck.oracles.validity import Checker


def check_original(model: onnx.ModelProto, where: str = "model", checker: Checker | None = None) -> None:
    """Refuse an original no rewrite of can be verified or built (verdicts kept by ``checker``, so
    :func:`verified_mutants` asks again for free): a front door calls it before its progress starts.

    Raises:
        PasscheckError: the checker rejects the model or its worker dies on it, or onnx shape
            inference (which the rewrites run on it; in this process outside a worker block,
            :mod:`passcheck.runtime.isolated_tools`) kills the worker on it.
    """
    check_input(model, where, checker)
    if checker is not None and (died := checker.inference_died(model)):  # the rewrites' inference
        raise PasscheckError(
            f"{where}: {died} on this model, so no rewrite of it can be built; "
            "run onnx.shape_inference.infer_shapes on it to see the crash"
        )


def verified_mutants(
    model: onnx.ModelProto,
    form_ids: Sequence[str] | None,
    feeds_list: Sequence[Mapping[str, Any]],
    where: str = "model",
    runner: Runner | None = None,
    refused: dict[str, str] | None = None,
    on_built: Callable[[int], None] | None = None,
    on_verified: Callable[[str], None] | None = None,
    *,
    max_sites: int = 0,
    depth: int = 1,
    seed: int = 0,
    checker: Checker | None = None,
    unverified: dict[str, str] | None = None,
    rank: Callable[[tuple], float] | None = None,
    budget: dict[str, tuple[int, int, int]] | None = None,
) -> dict[str, tuple[onnx.ModelProto, Applied]]:
    """:func:`~passcheck.mutations.mutants`, each passed through the equivalence gate (its model
    runs made by ``runner``, see :func:`~passcheck.mutations.equivalence.same_outputs`; its checker
    calls by ``checker``, see :func:`~passcheck.mutations.equivalence.checker_error`; both None: the
    process's shared isolation worker, :func:`~passcheck.mutations.equivalence.isolated_defaults`). The
    rewrites' own onnx shape inference runs in that worker too (:mod:`passcheck.runtime.isolated_tools`).

    Args:
        max_sites, depth, seed, rank, budget: which forms (and what the site bound cut), as for
            :func:`~passcheck.mutations.registry.iter_mutants`.
        refused: when given, a mutant the gate refuses is left out and recorded here (form name
            → why) instead of raising.
        unverified: a mutant the gate could not judge (the checker's worker died on it,
            :class:`~passcheck.mutations.equivalence.Unverified`), or whose rewrite raised
            (:class:`~passcheck.mutations._base.RewriteError`), is always left out; recorded
            here (form name → why) when given.
        on_built: called with ``n`` once the ``n`` mutants are built (progress).
        on_verified: called with each form name after its mutant is verified (progress).

    Raises:
        PasscheckError: the original fails the checker (or the checker's worker dies on it, or
            that of onnx shape inference, which the rewrites run) or does not run
            on the feeds.
        UnknownIdError: an unknown rewrite id, or a site its rewrite does not have.
        PasscheckInternalError: a mutant is not equivalent (a rewrite bug), unless ``refused`` is given.
    """
    from passcheck.errors import PasscheckInternalError

    runner, checker = isolated_defaults(runner, checker)
    with isolated_tools.within(worker_of(runner, checker)):  # the rewrites' own inference on what they build
        check_original(model, where, checker)
        raised: dict[str, str] = {}  # a rewrite that raised: left out with its reason, never a crash of the run
        found = mutants(
            model, form_ids, max_sites=max_sites, depth=depth, seed=seed, rank=rank, budget=budget, failed=raised
        )
        if unverified is not None:
            unverified.update(raised)
        if on_built:
            on_built(len(found))
        expected = original_runs(model, feeds_list, runner) if found else None
        for rid, (mutant, _) in list(found.items()):
            try:
                verify_equivalent(model, mutant, feeds_list, rid, runner, expected, checker)
            except Unverified as exc:  # the checker's crash, not the rewrite's: left out, never a finding
                if unverified is not None:
                    unverified[rid] = str(exc)
                del found[rid]
            except PasscheckInternalError as exc:
                if refused is None:
                    raise
                refused[rid] = str(exc)
                del found[rid]
            if on_verified:
                on_verified(rid)
        return found


def mutation_subject(
    model: onnx.ModelProto,
    subject_id: str,
    form_ids: Sequence[str] | None = None,
    *,
    overrides: Mapping[str, int] | None = None,
    repro: str = "",
    runner: Runner | None = None,
    refused: dict[str, str] | None = None,
    max_sites: int = 0,
    depth: int = 1,
    seed: int = 0,
    checker: Checker | None = None,
    unverified: dict[str, str] | None = None,
) -> tuple[Subject, dict[str, Applied]]:
    """The subject whose forms are ``common`` (the original) and one form per verified mutant.

    The form name of a mutant is its rewrite id (``ID@LABEL`` for one site, ``A+B`` for a pair).
    With no mutant, the subject has only ``common``. ``refused``, ``max_sites``, ``depth``,
    ``seed``, ``checker``, ``unverified``: see :func:`verified_mutants`.

    Raises:
        as :func:`verified_mutants` (``runner`` as there), and FeedError for bad ``overrides``.
    """
    from passcheck.engine import Subject
    from passcheck.runtime import default_bindings

    bindings = default_bindings(model, overrides)
    found = verified_mutants(
        model,
        form_ids,
        feeds_for(model, subject_id, bindings),
        subject_id,
        runner,
        refused,
        max_sites=max_sites,
        depth=depth,
        seed=seed,
        checker=checker,
        unverified=unverified,
    )
    forms = {"common": model, **{rid: m for rid, (m, _) in found.items()}}
    applied = {rid: a for rid, (_, a) in found.items()}
    return Subject(id=subject_id, forms=forms, bindings=bindings, repro=repro), applied
