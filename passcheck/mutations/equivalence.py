"""The equivalence gate: a mutant is used only once it is shown to mean what the original means. A mutant must pass
``onnx.checker.check_model`` (with ``full_check`` too when the original does), keep the original's graph inputs and
outputs, and give the same outputs as the original under ``ort:disabled`` on the same feeds. When onnxruntime cannot
run the mutant, the reference evaluator is asked instead: a mutant it runs with the original's outputs is kept
(onnxruntime's rejection of a valid form is then a finding of the ``input`` cell); one it computes otherwise is a
rewrite bug only when it computes the original as onnxruntime does, else :class:`Unverified` (one evaluator's word is
no verdict where the other disagrees); one onnxruntime refuses for a kernel it lacks (an element type the schema
allows) and the reference evaluator fails on too is :class:`Unverified` (no evaluator ran it). A mutant that fails is
a bug in the rewrite (a passcheck bug), never a finding against a pass. The checker runs where the caller's
:class:`~passcheck.oracles.validity.Checker` runs it (a front door's isolation worker): a checker that dies on a
mutant leaves that mutant out as :class:`Unverified`. A mutant a tool refuses, fails on or dies on is judged again
through its spelling without empty trailing slots (:mod:`passcheck.mutations.slot_canonical`; IR.md: ``""`` is an
omitted slot, so the two are one model): when that spelling passes, the mutant is kept and the tool's failure on the
``""`` spelling is a finding of the ``input`` cell (found.md rows 905, 906), not a rewrite bug.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from passcheck.errors import PasscheckError, PasscheckInternalError
from passcheck.mutations.slot_canonical import without_trailing_empty_slots
from passcheck.oracles.numeric import compare, output_dtypes
from passcheck.oracles.validity import Checker, CheckerDied
from passcheck.runtime import isolated_tools, run_ort, runtime_inputs

if TYPE_CHECKING:
    import onnx


class Unverified(Exception):
    """The gate could not judge a mutant: the onnx checker's worker died on it (signal, exit or no
    answer in time; the message says how). Neither a rewrite bug nor a finding: the mutant is left
    out, with this reason."""


def checker_error(model: onnx.ModelProto, checker: Checker | None = None) -> str | None:
    """The plain checker's message for ``model`` (no strict shape inference), or None.
    ``checker``: how the checker runs (in an isolation worker, see
    :class:`~passcheck.oracles.validity.Checker`); default in this process."""
    return (checker or Checker())(model, full_check=False)


def check_input(model: onnx.ModelProto, where: str, checker: Checker | None = None) -> None:
    """Refuse an original model the checker rejects (``checker`` as for :func:`checker_error`).

    Raises:
        PasscheckError: the checker's message, with ``where``; or that the checker's worker died on
            the model (its signal named).
    """
    if isinstance(err := checker_error(model, checker), CheckerDied):
        raise PasscheckError(
            f"{where}: {err} on this model, so no rewrite of it can be verified; "
            "run onnx.checker.check_model on it to see the crash"
        )
    if err:
        raise PasscheckError(
            f"{where}: the model fails the ONNX checker before any rewrite ({err}); fix the model first"
        )


def _strict_error(original: onnx.ModelProto, mutant: onnx.ModelProto, checker: Checker) -> str | None:
    """The full checker's message (strict shape inference: type constraints, e.g. a bool input of
    an op whose schema at the mutant's opset takes none) for a mutant of an original it accepts, or None.

    Raises:
        Unverified: the checker died on the mutant, or on the original when the mutant fails it.
    """
    why = checker(mutant, full_check=True)
    if why is None:
        return None
    base = why if isinstance(why, CheckerDied) else checker(original, full_check=True)
    if isinstance(base, CheckerDied):
        raise Unverified(f"{base} on the {'mutant' if base is why else 'original'} (full check)")
    return why if base is None else None


def _withdrawn_kept(original: onnx.ModelProto, why: str | None, checker: Checker) -> str | None:
    """``why`` (the checker's message for a mutant), or None when it refuses a node of a withdrawn schema
    (:mod:`passcheck.oracles.withdrawn`) and the original is refused for such a node too: a rewrite of a model
    written while that version was current keeps the refusal, and the runs below judge the mutant."""
    from passcheck.oracles.withdrawn import expected_refusal

    if type(why) is not str or not expected_refusal(why):  # a CheckerDied (a str subclass) is kept
        return why
    base = checker_error(original, checker)
    return None if type(base) is str and expected_refusal(base) else why


def _interface(m: onnx.ModelProto) -> tuple[list[str], list[str]]:
    return sorted(v.name for v in runtime_inputs(m)), [v.name for v in m.graph.output]


#: (model, feeds) → RunResult: how the gate runs a model (IsolatedExecutor.run_model in a worker).
Runner = Callable[..., Any]


def same_outputs(
    a: onnx.ModelProto,
    b: onnx.ModelProto,
    feeds_list: Sequence[Mapping[str, Any]],
    runner: Runner | None = None,
    expected: Sequence[Any] | None = None,
) -> str | None:
    """Why ``a`` and ``b`` differ under ``ort:disabled`` on ``feeds_list`` (outputs matched by name), or None.
    Where onnxruntime cannot run ``b``, ``b``'s outputs come from the reference evaluator.

    ``runner`` runs each model (default :func:`~passcheck.runtime.run_ort` in this process; give
    ``IsolatedExecutor.run_model`` so a model that crashes onnxruntime costs only that run).
    ``expected``: ``a``'s runs on ``feeds_list`` when already made (see :func:`original_runs`).

    Raises:
        PasscheckError: ``a`` does not run on the feeds (nothing to compare with).
    """
    runner = runner or run_ort
    runs_a = original_runs(a, feeds_list, runner) if expected is None else expected
    dtypes = output_dtypes(a)
    _ahead(runner, b, feeds_list)
    for i, (feeds, ra) in enumerate(zip(feeds_list, runs_a)):
        rb = runner(b, feeds)
        got, by = rb.outputs, ""
        if rb.error:
            # A second opinion: onnxruntime may reject a valid spelling (its "" handling). If the
            # reference evaluator runs the mutant and agrees, the mutant stays a form and the
            # rejection is a finding about onnxruntime (the ``input`` cell reports it).
            ref = isolated_tools.run_reference(b, feeds, worker_of(runner))
            if ref.error:
                _no_evaluator(rb.error, ref.error, i)
                return (
                    f"fails to run (binding {i}): {rb.error.splitlines()[0]}; the reference evaluator fails too: "
                    f"{ref.error.strip().splitlines()[-1] if ref.error.strip() else ''}"
                )
            got, by = ref.outputs, f" (reference evaluator; onnxruntime fails to run it: {rb.error.splitlines()[0]})"
        for name, expected in ra.outputs.items():
            if name not in got:
                return f"graph output {name!r} missing (binding {i}){by}"
            try:
                c = compare(got[name], expected, dtype=dtypes.get(name))
            except (TypeError, ValueError) as exc:  # a value the comparison cannot judge: no verdict either way
                raise Unverified(
                    f"output {name!r} (binding {i}) cannot be compared{by}: {type(exc).__name__}: {exc}"
                ) from None
            if not c.ok:
                if by:
                    _evaluator_trusted_on(a, feeds, ra.outputs, name, dtypes.get(name), c.message, worker_of(runner))
                return f"output {name!r} differs (binding {i}){by}: {c.message}"
    return None


def _no_evaluator(ort_error: str, ref_error: str, binding: int) -> None:
    """Before a mutant is called a rewrite bug because neither runtime runs it: onnxruntime's refusal must say
    something of the model, not of its own kernel registry.

    onnxruntime's "Could not find an implementation for Op(N)" (``NOT_IMPLEMENTED`` at session creation, or a
    registered kernel refusing the element type when it runs: :func:`passcheck.runtime.limits.no_kernel_reason`) is a
    fact about the installed runtime: the operator schema allows the types (the full checker accepted the mutant
    before this runs), e.g. ``Where``-9/16 ``T`` is every tensor type while onnxruntime 1.32.0's CPU provider
    registers no bool ``Where`` (microsoft/onnxruntime#9539). When the reference evaluator then fails on the mutant
    too (its own limit, e.g. onnx 1.23.2's ``Pad`` passing negative pads, which Pad-11+ allows, to ``numpy.pad``),
    no evaluator judged the mutant: no verdict, so the mutant is left out unverified, never blamed on the rewrite.

    Raises:
        Unverified: ``ort_error`` is such a kernel gap.
    """
    from passcheck.runtime.limits import no_kernel_reason

    if (gap := no_kernel_reason([ort_error])) is None:
        return
    last = ref_error.strip().splitlines()[-1] if ref_error.strip() else ""
    raise Unverified(
        f"no runtime runs the mutant (binding {binding}): {gap}, and the reference evaluator fails on it: {last}"
    )


def _evaluator_trusted_on(a, feeds, expected, name: str, dtype, message: str, worker=None) -> None:
    """Before a mutant is called wrong on the reference evaluator's word alone (onnxruntime cannot run it):
    the evaluator must compute the original's output ``name`` as onnxruntime does on ``feeds``.

    Raises:
        Unverified: it computes it otherwise, or fails on the original: the two runtimes disagree on
            the computation itself, so the evaluator's differing value is no evidence against the mutant.
    """
    ref = isolated_tools.run_reference(a, feeds, worker)
    why = ref.error and ref.error.strip().splitlines()[-1]
    if not why and name in ref.outputs:
        c = compare(ref.outputs[name], expected[name], dtype=dtype)
        why = None if c.ok else c.message
    if why:
        raise Unverified(
            f"output {name!r}: only the reference evaluator runs the mutant and it differs ({message}), but it "
            f"also departs from onnxruntime on the original ({why}): no verdict on one evaluator's word"
        )


def original_runs(
    model: onnx.ModelProto, feeds_list: Sequence[Mapping[str, Any]], runner: Runner | None = None
) -> list[Any]:
    """``model``'s runs under ort:disabled, one per feed dict, made once for every mutant's comparison.

    Raises:
        PasscheckError: the model does not run on a feed dict (nothing to compare with).
    """
    _ahead(runner, model, feeds_list)
    runs = [(runner or run_ort)(model, feeds) for feeds in feeds_list]
    for i, r in enumerate(runs):
        if r.error:
            raise PasscheckError(
                f"the model does not run under ort:disabled on synthesized feeds (binding {i}): "
                f"{r.error.splitlines()[0]}"
            )
    return runs


def worker_of(runner: Runner | None, checker: Checker | None = None) -> Any:
    """The isolation worker behind ``runner`` (an ``IsolatedExecutor.run_model``) or ``checker`` (a
    :class:`~passcheck.oracles.validity.Checker` of one), or None (they run in this process)."""
    for owner in (getattr(runner, "__self__", None), getattr(getattr(checker, "_call", None), "__self__", None)):
        if callable(getattr(owner, "call", None)):
            return owner
    return None


def isolated_defaults(runner: Runner | None, checker: Checker | None) -> tuple[Runner, Checker]:
    """``runner`` and ``checker``, or when neither is given the process's shared isolation worker's
    (:func:`passcheck.passes.shared.shared_executor`, M262): a library call never runs a form's tools in its own
    process by default."""
    if runner is not None or checker is not None:
        return runner or run_ort, checker or Checker()
    from passcheck.passes.shared import shared_executor

    ex = shared_executor()
    return ex.run_model, Checker(ex)


def _ahead(runner: Runner | None, model: onnx.ModelProto, feeds_list: Sequence[Mapping[str, Any]]) -> None:
    """Every binding's run of ``model`` in one round trip when ``runner`` is a worker's ``run_model``
    whose owner can ``prefetch`` (``IsolatedExecutor.prefetch``): the calls that follow find them kept."""
    ahead = getattr(getattr(runner, "__self__", None), "prefetch", None)
    if ahead is not None:
        ahead(model, feeds_list)


def verify_equivalent(
    original: onnx.ModelProto,
    mutant: onnx.ModelProto,
    feeds_list: Sequence[Mapping[str, Any]],
    rewrite: str = "?",
    runner: Runner | None = None,
    expected: Sequence[Any] | None = None,
    checker: Checker | None = None,
) -> None:
    """Check that ``mutant`` is a valid model computing what ``original`` computes.

    Args:
        original: the model the rewrite was applied to.
        mutant: the rewritten model.
        feeds_list: one feed dict per binding (see :func:`passcheck.runtime.synthesize`).
        rewrite: the rewrite id, named in the error.
        runner: how each model is run (see :func:`same_outputs`).
        expected: ``original``'s runs, when already made (:func:`original_runs`).
        checker: how the checker runs (see :func:`checker_error`).

    ``runner`` and ``checker`` both None: both run in the process's shared isolation worker
    (:func:`isolated_defaults`). The tools the gate runs on the mutant (checker, onnxruntime, the reference evaluator,
    onnx shape inference) run in the worker behind ``runner`` or ``checker`` when there is one
    (:mod:`passcheck.runtime.isolated_tools`); a death there is a run error or an :class:`Unverified`, never the end
    of this process.

    A mutant that fails any of this is judged again through its spelling without empty trailing slots
    (:func:`~passcheck.mutations.slot_canonical.without_trailing_empty_slots`, IR.md §Optional Inputs and Outputs)
    and kept when that spelling passes; a runner that dies on the mutant (``IsolatedExecutor.run_model``) is then the
    tool's finding.

    Raises:
        PasscheckInternalError: the mutant fails the checker, changed the interface, or computes
            something else (and so does its spelling without empty trailing slots); names the rewrite.
        Unverified: the checker's worker died on the mutant (see :class:`Unverified`), an output
            is a value the comparison cannot judge, or only the reference evaluator runs the mutant
            and it departs from onnxruntime on the original too, or onnxruntime lacks a kernel for it and the
            reference evaluator fails on it; names the rewrite.
        PasscheckError: the original itself does not run on the feeds.
    """
    runner, checker = isolated_defaults(runner, checker)
    with isolated_tools.within(worker_of(runner, checker)):
        _verify(original, mutant, feeds_list, rewrite, runner, expected, checker)


def _verify(original, mutant, feeds_list, rewrite, runner, expected, checker: Checker) -> None:
    """:func:`verify_equivalent` with its runner and checker chosen."""
    try:
        why, doubt = _why(original, mutant, feeds_list, rewrite, runner, expected, checker), None
    except Unverified as exc:
        why, doubt = None, exc
    if (why or doubt) and (plain := without_trailing_empty_slots(mutant)) is not None:
        # IR.md: "" is an omitted slot, so `plain` is the mutant; a tool refusing, failing or dying on the ""
        # spelling alone is that tool's finding (the input cell reports it), not a rewrite bug
        try:
            if _why(original, plain, feeds_list, rewrite, runner, expected, checker) is None:
                return
        except Unverified:
            pass
    if doubt is not None:
        raise doubt
    if why is not None:
        raise PasscheckInternalError(f"rewrite {rewrite!r} produced a model that is not equivalent to its input: {why}")


def _why(original, mutant, feeds_list, rewrite, runner, expected, checker: Checker) -> str | None:
    """Why ``mutant`` is not ``original`` spelled otherwise (checker, interface, runs), or None.

    Raises:
        Unverified: as for :func:`verify_equivalent`.
        PasscheckError: the original does not run on the feeds.
    """
    try:
        why = _withdrawn_kept(original, checker_error(mutant, checker), checker)
        why = why or _strict_error(original, mutant, checker)
    except Unverified as exc:
        raise Unverified(f"rewrite {rewrite!r}: {exc}") from None
    if isinstance(why, CheckerDied):
        raise Unverified(f"rewrite {rewrite!r}: {why} on the mutant")
    if why is None and _interface(original) != _interface(mutant):
        why = f"graph inputs/outputs changed: {_interface(original)} → {_interface(mutant)}"
    if why is None:
        try:
            why = same_outputs(original, mutant, feeds_list, runner, expected)
        except Unverified as exc:
            raise Unverified(f"rewrite {rewrite!r}: {exc}") from None
    return why
