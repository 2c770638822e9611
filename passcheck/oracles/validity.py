"""Validity: ``onnx.checker.check_model(full_check=True)`` accepts what the pass wrote."""

from __future__ import annotations

import hashlib
from typing import Any

from passcheck.oracles._context import FormRun
from passcheck.oracles._contract import INPUT, PASS, BaseOracle, Cells
from passcheck.oracles.ort_own_ops import contrib_ops, note, without_ort_own
from passcheck.records import Finding, brief

NAME = "validity"


def checker_error(model, *, full_check: bool = True) -> str | None:
    """The checker's message for ``model`` folded into one line (at most 600 characters), or None.

    ``full_check`` adds strict shape inference (``onnx.checker.check_model(full_check=True)``).
    """
    import onnx.checker

    try:
        onnx.checker.check_model(model, full_check=full_check)
    except Exception as exc:  # noqa: BLE001 - ValidationError, InferenceError, and C++ errors
        text = " ".join(str(exc).replace('"', " ").split())[:600] or repr(exc)
        return f"{type(exc).__name__}: {text}"
    return None


def plain_checker_error(model) -> str | None:
    """:func:`checker_error` without strict shape inference (``full_check=False``)."""
    return checker_error(model, full_check=False)


class CheckerDied(str):
    """A :class:`Checker` verdict that is no verdict: the worker running the checker died on the
    model (signal, exit or no answer in time). The text says how, e.g. "the onnx checker killed
    its process: SIGABRT"; as a message it reads like any other (the validity oracle reports it)."""


class CheckerTimedOut(CheckerDied):
    """A :class:`CheckerDied` whose worker gave no answer within the time limit (``--timeout``): a
    time limit is not a checker verdict, so the validity oracle leaves that model unchecked, with why."""


class Checker:
    """:func:`checker_error` as a front door runs it: in the worker of ``executor`` when it has
    one (``IsolatedExecutor.call``), so a checker that aborts on a malformed model costs that
    verdict (a :class:`CheckerDied` message: "the onnx checker killed its process: SIGABRT"), not
    the run; in process otherwise (``--no-isolation``, a caller's plain executor). In the worker,
    each verdict is kept by the model's bytes (sha256) and ``full_check``: a form asked about by
    its input cell and by pass cells, and the many pass outputs equal to their input or to another
    pass's output, cost one round trip; an executor with a ``verdicts`` mapping keeps them across
    checkers (``IsolatedExecutor.verdicts``).

    Call with a ModelProto (and ``full_check=False`` for the plain checker); returns the one-line
    message or None (see :func:`checker_error`).

    Raises:
        PasscheckInternalError: the worker could not be started (passcheck's failure, not the model's).
    """

    def __init__(self, executor: Any = None):
        self._call = getattr(executor, "call", None)
        # the executor's digest of a model (serialized and hashed once in its fixed_models() block)
        self._digest = getattr(executor, "digest", None) or _sha256
        self._keeps = hasattr(executor, "run_kept")  # its worker keeps models by digest (Worker.call(kept=True))
        self._verdicts: dict[tuple[bool | None, bytes], str | None] = {}
        # the executor's own verdicts (``verdicts``, a mapping it keeps across subjects) when it has
        # one: the same bytes get the same answer from the same onnx, so a later subject asking about
        # a model an earlier one asked about (the hunt's gate, then its cells) costs no round trip
        self._kept = getattr(executor, "verdicts", None) if self._call is not None else None

    def __call__(self, model, *, full_check: bool = True) -> str | None:
        fn = checker_error if full_check else plain_checker_error
        if self._call is None:
            return fn(model)
        key = (full_check, self._digest(model))
        return self._verdict(key, fn, model)

    def ask_early(self, model) -> None:
        """Ask now what the validity oracle asks of a pass output when it judges it (the full
        checker, paired with shape inference), while the worker still keeps ``model`` (it just
        made and ran it: no bytes sent); the verdict is kept for that question. In process
        (nothing kept) nothing is done.

        Raises:
            PasscheckInternalError: the worker could not be started.
        """
        if self._call is not None:
            self(model)

    def pending(self, model) -> tuple[Any, Any] | None:
        """The question :meth:`ask_early` would send to the worker about ``model``, for a caller that
        sends it inside a job on the same model (its runs: :func:`passcheck.runtime.isolated.prefetch`,
        one round trip for both): ``(fn, answer)``, ``fn(model)`` to run there and ``answer(value)``
        to call with what it returned, which keeps the verdicts as :meth:`ask_early` would; None when
        nothing would be sent (in process, the verdicts known, or one asked alone)."""
        if self._call is None:
            return None
        full_key = (True, self._digest(model))
        infer_key = (None, full_key[1])
        if any(k in self._verdicts or (self._kept is not None and k in self._kept) for k in (full_key, infer_key)):
            return None

        def answer(err: str | None) -> None:
            self._verdicts[full_key], self._verdicts[infer_key] = err, None
            self._keep(full_key, err)
            self._keep(infer_key, None)

        return checker_and_inference, answer

    def inference_died(self, model) -> CheckerDied | None:
        """How onnx shape inference (``infer_shapes``, as the rewrites call it on the original) killed
        the worker on ``model``, or None when it returned or raised (or there is no worker: it
        then runs where the rewrites run, nothing is learned by running it first).

        Raises:
            PasscheckInternalError: the worker could not be started.
        """
        if self._call is None:
            return None
        key = (None, self._digest(model))
        died = self._verdict(key, _infer_shapes, model, "onnx shape inference ")
        return died if isinstance(died, CheckerDied) else None

    def _verdict(self, key, fn, model, who: str = "the onnx checker ") -> str | None:
        """The verdict of ``fn`` on ``model`` under ``key``: this checker's, the executor's kept one,
        or asked now. A :class:`CheckerDied` (the worker died, or no answer in time: no verdict on the
        bytes) is kept by this checker only, so a later subject asks again, as it always did."""
        if key in self._verdicts:
            return self._verdicts[key]
        if self._kept is not None and key in self._kept:
            got = self._kept[key]
        else:
            got = self._paired(key, model)
            if got is _NONE:
                got = self._isolated(fn, model, who)
                self._keep(key, got)
        self._verdicts[key] = got
        return got

    def _keep(self, key, got) -> None:
        if self._kept is not None and not isinstance(got, CheckerDied):
            self._kept[key] = got

    def _paired(self, key, model):
        """The full checker's verdict and whether shape inference survives (asked of nearly every
        model together) in one round trip, both kept; :data:`_NONE` for the plain checker, when the
        other is known already, or when the worker died (then each is asked alone, as before)."""
        if key[0] not in (True, None):
            return _NONE
        full_key, infer_key = (True, key[1]), (None, key[1])
        other = infer_key if key[0] else full_key
        if other in self._verdicts or (self._kept is not None and other in self._kept):
            return _NONE
        err = self._isolated(checker_and_inference, model)
        if isinstance(err, CheckerDied):
            return _NONE
        self._verdicts[full_key], self._verdicts[infer_key] = err, None
        self._keep(full_key, err)
        self._keep(infer_key, None)
        return self._verdicts[key]

    def _isolated(self, fn, model, who: str = "the onnx checker ") -> str | None:
        from passcheck.errors import PasscheckInternalError, WorkerDied

        try:
            # no checker function changes the model: the copy the worker keeps serves
            return self._call(fn, model, kept=True) if self._keeps else self._call(fn, model)
        except (
            WorkerDied
        ) as exc:  # "onnxruntime killed its process: SIGABRT\nlast output: …" (the worker's run wording)
            if str(exc).startswith("the run worker could not be started"):
                raise PasscheckInternalError(str(exc)) from None  # passcheck's own failure, no verdict on the model
            why = who + str(exc).splitlines()[0].removeprefix("onnxruntime ")
            return (CheckerTimedOut if "gave no result after" in why else CheckerDied)(why)


def _sha256(model) -> bytes:
    from passcheck.execution.payloads import whole

    return hashlib.sha256(whole(model).SerializeToString()).digest()


#: No verdict from :meth:`Checker._paired`.
_NONE = object()


def checker_and_inference(model) -> str | None:
    """:func:`checker_error` (full check), then ``_infer_shapes``: the two questions a
    :class:`Checker` asks of nearly every model, in one worker job; the checker's message."""
    err = checker_error(model)
    _infer_shapes(model)
    return err


def _infer_shapes(model) -> None:
    """``onnx.shape_inference.infer_shapes(model)``, its errors swallowed: run for whether it survives."""
    import onnx.shape_inference

    try:
        onnx.shape_inference.infer_shapes(model)
    except Exception:  # noqa: BLE001 - an error is an answer; only a dead process matters here
        pass


def check(run: FormRun) -> list[Finding]:
    """``invalid-model`` when the checker rejects what a pass wrote (unless it rejects the pass's
    input for the same reason: not the pass's doing; a model onnxruntime saved is judged without
    its own ops, :mod:`~passcheck.oracles.ort_own_ops`, which the finding's details then name). For
    a form itself (pass ``input``) that onnxruntime runs on every feed, ``validity-disagreement``: the tools disagree
    on validity."""
    out = run.output
    if out is None:
        return []
    checker = run.checker or checker_error
    err = checker(out)
    if err is None or isinstance(err, CheckerTimedOut):  # no verdict: see unchecked()
        return []
    if run.pass_id != "input":
        if (base := checker(run.model)) == err or isinstance(base, CheckerTimedOut):
            return []
        if base and _both_withdrawn(base, err):  # the input's refusal, in other words (a node renamed)
            return []
        extra: dict[str, Any] = {}
        if _ort_saved(run) and (rest := without_ort_own(out)) is not None:  # judged as the onnxruntime model it is
            err, ops = checker(rest), contrib_ops(out)
            if err is None or checker(run.model) == err:
                return []
            extra = {"onnxruntime_ops": ops, "note": note(ops)}
        return [
            run.finding(
                "invalid-model",
                NAME,
                f"the checker rejects the output of {run.pass_id}: {brief(err)}",
                error=err,
                **extra,
            )
        ]
    if run.runs and not any(r.error for r in run.runs):
        f = run.finding(
            "validity-disagreement",
            NAME,
            f"the onnx checker rejects this form but onnxruntime runs it: {brief(err)}",
            error=err,
            reference=_reference_opinion(run),
        )
        from passcheck.oracles import withdrawn  # onnx's schemas, read only here

        if why := withdrawn.expected_refusal(err):  # a withdrawn schema: the tools disagree by onnx's design
            f.expected, f.reason = True, why
        return [f]
    return [run.finding("invalid-model", NAME, f"the checker rejects this form: {brief(err)}", error=err)]


def _both_withdrawn(base: str, err: str) -> bool:
    """Whether the checker refuses a pass's input and its output each for a node of a withdrawn schema
    (:func:`passcheck.oracles.withdrawn.expected_refusal`): a refusal the pass kept, whatever the node's name."""
    from passcheck.oracles import withdrawn  # onnx's schemas, read only here

    return bool(withdrawn.expected_refusal(base)) and bool(withdrawn.expected_refusal(err))


#: Passes other than ``ort:LEVEL`` whose output is an onnxruntime model by the tool's own word: onnxscript's
#: ``optimize_for_ort`` ("Optimize the model for ORT backend", rewriter/ort_fusions/_core.py) writes
#: ``SimplifiedLayerNormalization`` in the ai.onnx domain, where onnxruntime registers it
#: (rewriter/ort_fusions/rms_normalization.py: "placed in onnx domain by mistake"); onnxruntime's transformer
#: optimizer (``ort-transformers:*``, ``optimize_model``: "Optimize Model by OnnxRuntime and/or python fusion
#: logic") writes ``LayerNormalization`` in the ai.onnx domain whatever the model's opset (fusion_layernorm.py),
#: which onnxruntime registers there from version 1; ``ort-format:LEVEL`` (passcheck/passes/ort_format.py) is the
#: ONNX model onnxruntime saved of the graph it loaded from its ORT format, optimized at LEVEL as ``ort:LEVEL`` is (its
#: LayerNormFusion writes the ai.onnx LayerNormalization at a model's opset 12, as ``ort:all``'s output holds it). An
#: entry ending in ``:`` names every id it begins.
FOR_ORT = ("onnxscript:optimize-for-ort", "ort-transformers:", "ort-format:")


def _ort_saved(run: FormRun) -> bool:
    """The output is a model onnxruntime saved (``ort:LEVEL``) or one written for it (:data:`FOR_ORT`): its
    contrib ops are onnxruntime's own."""
    return run.pass_id.startswith("ort:") or any(
        run.pass_id == p or (p.endswith(":") and run.pass_id.startswith(p)) for p in FOR_ORT
    )


def notes(run: FormRun) -> dict[str, str]:
    """``{"validity": sentence}`` for a model onnxruntime saved holding its own ops (see
    :mod:`passcheck.oracles.ort_own_ops`), else empty: what the cell's validity verdict rests on."""
    out = run.output
    if out is None or not _ort_saved(run) or not (ops := contrib_ops(out)):
        return {}
    return {NAME: note(ops)}


def _reference_opinion(run: FormRun) -> str:
    """What onnx's reference evaluator says on the first feeds: agrees with onnxruntime, differs, or fails."""
    from passcheck.oracles.numeric import compare
    from passcheck.runtime.isolated_tools import run_reference  # in the front door's worker (M409)

    try:
        ref = run_reference(run.model, run.feeds[0])
    except Exception as exc:  # noqa: BLE001 - the evaluator is a second opinion, not a judge
        return f"fails: {type(exc).__name__}: {brief(str(exc))}"
    if ref.error:
        return f"fails: {brief(ref.error.strip().splitlines()[-1] if ref.error.strip() else '')}"
    for name, value in run.runs[0].outputs.items():
        if name in ref.outputs and not (c := compare(ref.outputs[name], value)).ok:
            return f"differs on {name!r}: {c.message}"
    return "agrees with onnxruntime"


class Validity(BaseOracle):
    """``invalid-model`` / ``validity-disagreement`` (see :func:`check`), on pass outputs and forms."""

    id = NAME
    kinds = frozenset({PASS, INPUT})

    def check(self, run: FormRun, cells: Cells) -> list[Finding]:
        return check(run)

    def unchecked_run(self, run: FormRun, cells: Cells) -> dict[str, str]:
        return unchecked(run)


def unchecked(run: FormRun) -> dict[str, str]:
    """``validity`` → why, when the checker gave no answer in time on what it had to judge (the
    output, or the input it is compared with): not checked, never a verdict."""
    if run.output is None or run.checker is None:
        return {}
    for what, model in ((("output" if run.pass_id != "input" else "form"), run.output), ("input", run.model)):
        if isinstance(err := run.checker(model), CheckerTimedOut):
            return {"validity": f"not checked: {err} on the {what} (a time limit, not a verdict; raise --timeout)"}
    return {}


ORACLE = Validity()
