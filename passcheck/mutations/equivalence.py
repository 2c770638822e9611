"""The equivalence gate: a mutant is used only once it is shown to mean what the original means.

A mutant must pass ``onnx.checker.check_model`` (with ``full_check`` too when the original does), keep the original's graph inputs and outputs, and
give the same outputs as the original under ``ort:disabled`` on the same feeds. When onnxruntime
cannot run the mutant, the reference evaluator is asked instead: a mutant it runs with the
original's outputs is kept (onnxruntime's rejection of a valid form is then a finding of the
``input`` cell). A mutant that fails is a bug in the rewrite (a passcheck bug), never a finding
against a pass.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from passcheck.errors import PasscheckError, PasscheckInternalError
from passcheck.oracles.numeric import compare
from passcheck.runtime import run_ort, runtime_inputs
from passcheck.runtime.reference import run_reference

if TYPE_CHECKING:
    import onnx


def checker_error(model: "onnx.ModelProto") -> str | None:
    """The plain checker's message for ``model`` (no strict shape inference), or None."""
    from passcheck.oracles.validity import checker_error as check

    return check(model, full_check=False)


def check_input(model: "onnx.ModelProto", where: str) -> None:
    """Refuse an original model the checker rejects.

    Raises:
        PasscheckError: the checker's message, with ``where``.
    """
    if err := checker_error(model):
        raise PasscheckError(f"{where}: the model fails the ONNX checker before any rewrite ({err}); fix the model first")


def _strict_error(original: "onnx.ModelProto", mutant: "onnx.ModelProto") -> str | None:
    """The full checker's message (strict shape inference: type constraints, e.g. a bool input of
    an op whose schema at the mutant's opset takes none) for a mutant of an original it accepts, or None."""
    from passcheck.oracles.validity import checker_error as check

    why = check(mutant, full_check=True)
    return why if why is not None and check(original, full_check=True) is None else None


def _interface(m: "onnx.ModelProto") -> tuple[list[str], list[str]]:
    return sorted(v.name for v in runtime_inputs(m)), [v.name for v in m.graph.output]


#: (model, feeds) → RunResult: how the gate runs a model (IsolatedExecutor.run_model in a worker).
Runner = Callable[..., Any]


def same_outputs(a: "onnx.ModelProto", b: "onnx.ModelProto", feeds_list: Sequence[Mapping[str, Any]],
                 runner: Runner | None = None, expected: Sequence[Any] | None = None) -> str | None:
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
    for i, (feeds, ra) in enumerate(zip(feeds_list, runs_a)):
        rb = runner(b, feeds)
        got, by = rb.outputs, ""
        if rb.error:
            # A second opinion: onnxruntime may reject a valid spelling (its "" handling). If the
            # reference evaluator runs the mutant and agrees, the mutant stays a form and the
            # rejection is a finding about onnxruntime (the ``input`` cell reports it).
            ref = run_reference(b, feeds)
            if ref.error:
                return (f"fails to run (binding {i}): {rb.error.splitlines()[0]}; the reference evaluator fails too: "
                        f"{ref.error.strip().splitlines()[-1] if ref.error.strip() else ''}")
            got, by = ref.outputs, f" (reference evaluator; onnxruntime fails to run it: {rb.error.splitlines()[0]})"
        for name, expected in ra.outputs.items():
            if name not in got:
                return f"graph output {name!r} missing (binding {i}){by}"
            c = compare(got[name], expected)
            if not c.ok:
                return f"output {name!r} differs (binding {i}){by}: {c.message}"
    return None


def original_runs(model: "onnx.ModelProto", feeds_list: Sequence[Mapping[str, Any]], runner: Runner | None = None) -> list[Any]:
    """``model``'s runs under ort:disabled, one per feed dict, made once for every mutant's comparison.

    Raises:
        PasscheckError: the model does not run on a feed dict (nothing to compare with).
    """
    runs = [(runner or run_ort)(model, feeds) for feeds in feeds_list]
    for i, r in enumerate(runs):
        if r.error:
            raise PasscheckError(f"the model does not run under ort:disabled on synthesized feeds (binding {i}): {r.error.splitlines()[0]}")
    return runs


def verify_equivalent(original: "onnx.ModelProto", mutant: "onnx.ModelProto", feeds_list: Sequence[Mapping[str, Any]], rewrite: str = "?",
                      runner: Runner | None = None, expected: Sequence[Any] | None = None) -> None:
    """Check that ``mutant`` is a valid model computing what ``original`` computes.

    Args:
        original: the model the rewrite was applied to.
        mutant: the rewritten model.
        feeds_list: one feed dict per binding (see :func:`passcheck.runtime.synthesize`).
        rewrite: the rewrite id, named in the error.
        runner: how each model is run (see :func:`same_outputs`).
        expected: ``original``'s runs, when already made (:func:`original_runs`).

    Raises:
        PasscheckInternalError: the mutant fails the checker, changed the interface, or computes
            something else; names the rewrite.
        PasscheckError: the original itself does not run on the feeds.
    """
    why = checker_error(mutant) or _strict_error(original, mutant)
    if why is None and _interface(original) != _interface(mutant):
        why = f"graph inputs/outputs changed: {_interface(original)} → {_interface(mutant)}"
    if why is None:
        why = same_outputs(original, mutant, feeds_list, runner, expected)
    if why is not None:
        raise PasscheckInternalError(f"rewrite {rewrite!r} produced a model that is not equivalent to its input: {why}")
