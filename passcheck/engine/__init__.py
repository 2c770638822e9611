"""The pipeline for one subject (a case, or a user's model): forms → passes → runs → oracles.

:func:`evaluate` builds the forms once, derives feeds once per binding (the same for every form),
runs each form unoptimized as the baseline, then for each pass runs it on every form, runs every
output on the same feeds observing what the oracles ask for (:func:`plan_for`), and applies the
oracles. Results come
back as :class:`~passcheck.records.CellResult` records, one per (form, pass), handed to
``on_cell`` as soon as each pass is judged.
"""

from __future__ import annotations

import collections
import contextlib
import hashlib
import os
import shlex
import tempfile
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from passcheck import interrupts
from passcheck.engine.environment import _precondition, _runnable_here, _within_environment
from passcheck.engine.subject import Subject
from passcheck.errors import PasscheckError
from passcheck.modelio import model_hash, non_utf8_field
from passcheck.oracles import FormRun, registry, validity
from passcheck.oracles._contract import INPUT as INPUT_CELLS
from passcheck.oracles._contract import PASS, Cells
from passcheck.oracles.judged import Judged
from passcheck.passes import DEFAULT_PASSES, PassAdapter, PassOutcome, get_pass, run_in_process
from passcheck.records import INPUT, CellResult, require_run
from passcheck.runtime import graph_index, synthesize
from passcheck.runtime.limits import beyond_onnxruntime
from passcheck.runtime.observe import observe_run
from passcheck.runtime.plan import ObservationPlan

if TYPE_CHECKING:
    import onnx

#: (adapter, model, workdir) → outcome. The default runs in process; passcheck.passes.isolation
#: provides one that runs each pass in a child process.
Executor = Callable[[PassAdapter, "onnx.ModelProto", Path], PassOutcome]

__all__ = ["INPUT", "Executor", "Judged", "Subject", "evaluate", "feeds_for", "run_in_process", "seed_for"]


def plan_for(model: onnx.ModelProto) -> ObservationPlan:
    """What the registered oracles ask to observe in each run of ``model``: the values whose data
    they read (the folding oracle's shape-derived values, non-tensor annotated values: exposed)
    and the tensors whose shape and element type only they read (annotated tensors: from
    onnxruntime's profile of the run). Other intermediates are not observed: exposing them all
    would keep every activation alive."""
    with graph_index.shared():
        return ObservationPlan.of(registry.observes(model), registry.observes_shapes(model))


def _plan(model: onnx.ModelProto, runner: Callable | None) -> ObservationPlan:
    """:func:`plan_for`, kept by the model's digest when ``runner`` is an isolation worker's (which
    knows it: :meth:`~passcheck.execution.Worker.digest`), for the last :data:`_PLANS_KEPT` models:
    a model checked again, or a pass output equal to another model, is not read again. The plan
    depends on the model's bytes and the registered oracles only (both are in the key)."""
    digest = getattr(getattr(runner, "__self__", None), "digest", None)
    if digest is None:
        return plan_for(model)
    asking, key = tuple(registry.oracles()), digest(model)
    kept = _PLANS.get(key)
    if kept is None or len(kept[0]) != len(asking) or any(a is not b for a, b in zip(kept[0], asking)):
        kept = _PLANS[key] = (asking, plan_for(model))
        while len(_PLANS) > _PLANS_KEPT:
            _PLANS.popitem(last=False)
    _PLANS.move_to_end(key)
    return kept[1]


#: Observation plans kept by model digest: (the oracles that asked, the plan).
_PLANS: collections.OrderedDict[bytes, tuple[tuple, ObservationPlan]] = collections.OrderedDict()
_PLANS_KEPT = 8


def values_to_observe(model: onnx.ModelProto) -> list[str]:
    """Main-graph values whose data the oracles read (see :func:`plan_for`)."""
    return plan_for(model).main


def observed_run(
    model: onnx.ModelProto,
    feeds: Mapping[str, Any],
    runner: Callable | None = None,
    plan: ObservationPlan | None = None,
):
    """One run of ``model`` observing what the oracles ask for (:func:`passcheck.runtime.observe.observe_run`)."""
    return observe_run(model, feeds, plan or _plan(model, runner), runner)


def seed_for(subject_id: str, index: int) -> int:
    """Feed seed for binding ``index`` of a subject: stable across runs and machines."""
    return int.from_bytes(hashlib.sha256(f"{subject_id}#{index}".encode()).digest()[:4], "little")


def feeds_for(
    model: onnx.ModelProto,
    subject_id: str,
    bindings: Sequence[Mapping[str, int]],
    *,
    feed_fn: Callable[[Mapping[str, int], int], dict[str, Any]] | None = None,
    given: Sequence[Mapping[str, Any]] | None = None,
) -> list[dict[str, Any]]:
    """The feeds of ``subject_id``, one dict per run (input name → value): the one feed function
    of every path that runs a subject's forms (the engine, mutants' verification, ``passcheck
    annotations``, ``export``, generated cases).

    ``given`` feed sets are used as they are; else ``feed_fn(binding, seed)`` (a case's own feed
    function); else feeds synthesized from ``model``'s input annotations. The seed of binding i is
    :func:`seed_for`; unknown dims (no dim_value, no dim_param) are 2 in the first run, 3 in the
    second.

    Raises:
        FeedError: feeds cannot be synthesized from the model's input annotations.
    """
    if given:
        return [dict(f) for f in given]
    if feed_fn is not None:
        return [feed_fn(b, seed_for(subject_id, i)) for i, b in enumerate(bindings)]
    return [synthesize(model, b, seed_for(subject_id, i), default_size=2 + i) for i, b in enumerate(bindings)]


def _check_same_interface(subject: Subject) -> None:
    """Every form has ``common``'s graph outputs, and its graph inputs, except those it holds as a
    constant itself (an initializer or a node output of that name: the same value, not fed)."""
    names = list(subject.forms)
    ref = subject.forms[names[0]]
    ref_inits = {t.name for t in ref.graph.initializer}
    ins = [v.name for v in ref.graph.input if v.name not in ref_inits]
    outs = [v.name for v in ref.graph.output]
    for n in names[1:]:
        m = subject.forms[n]
        inits = {t.name for t in m.graph.initializer}
        held = inits | {o for node in m.graph.node for o in node.output}
        mi = [v.name for v in m.graph.input if v.name not in inits]
        if not set(mi) <= set(ins) or not set(ins) - set(mi) <= held or [v.name for v in m.graph.output] != outs:
            raise PasscheckError(
                f"{subject.id}: form {n!r} has graph inputs {mi} / outputs {[v.name for v in m.graph.output]}, "
                f"but {names[0]!r} has {ins} / {outs}; all forms must share input and output names "
                "(an input a form holds as a constant may be left out)"
            )


def evaluate(
    subject: Subject,
    pass_ids: Iterable[str] = (),
    *,
    env: str = "local",
    executor: Executor = run_in_process,
    on_cell: Callable[[CellResult], None] | None = None,
    skip_cells: Callable[[str, str], bool] | None = None,
    check_input: bool = True,
    record: Callable[[Judged], None] | None = None,
    required: Collection[str] = (),
) -> list[CellResult]:
    """Run every pass on every form of ``subject`` and judge the results.

    Args:
        pass_ids: pass ids; empty means the subject's targeted passes, else the defaults.
        env: the environment id recorded in every result.
        executor: how a pass is run (in process by default); one with a ``pass_folder`` attribute
            (a folder path it keeps, e.g. :class:`~passcheck.passes.isolation.IsolatedExecutor`) has
            its passes run there, emptied before each, instead of in a new temporary folder per call.
        on_cell: called with each cell as soon as it is final.
        skip_cells: ``(pass_id, form) → True`` for cells already done (``--resume``).
        check_input: also judge each form itself (pseudo-pass ``input``): the checker accepts
            it, ORT runs it, its own annotations hold, and it computes what ``common`` computes.
        record: called with each :class:`Judged` group before it is judged (``--save-run``).
        required: pass ids the user named: their ``unavailable`` cells are ``unchecked``
            (:func:`passcheck.records.require_run`), not a quiet ``n/a``.

    Raises:
        UnknownIdError / PasscheckError: an unknown pass id, forms with different interfaces,
            or feeds that cannot be synthesized.
    """
    holding = getattr(executor, "holding", None)  # pass outputs' big payloads held once per content meanwhile
    # the forms do not change while the subject is evaluated: their per-model readings (the conformance
    # evaluation, the annotation plan, …) are made once for the input cells and every pass's cells
    with holding() if holding is not None else contextlib.nullcontext(), graph_index.pinned(subject.forms.values()):
        return _evaluate(subject, pass_ids, env, executor, on_cell, skip_cells, check_input, record, required)


def _evaluate(subject, pass_ids, env, executor, on_cell, skip_cells, check_input, record, required) -> list[CellResult]:
    ids = list(pass_ids) or list(subject.passes) or list(DEFAULT_PASSES)
    adapters = [get_pass(p) for p in ids if p != INPUT]  # ``--pass input``: judge the forms only
    results: list[CellResult] = []
    produced: dict[tuple[str, str], PassOutcome] = {}  # (pass id, form) → a pass output not reported yet

    def emit(cell: CellResult) -> None:
        if cell.pass_id in required:
            require_run(cell)
        results.append(cell)
        produced.pop((cell.pass_id, cell.form), None)
        if on_cell:
            on_cell(cell)

    if subject.skip:  # every cell asked for is reported, the forms themselves (``input``) too
        for pid in [INPUT] * check_input + [a.id for a in adapters]:
            for form in subject.forms:
                if not (skip_cells and skip_cells(pid, form)):
                    emit(CellResult(subject.id, form, pid, "skipped", env=env, error=subject.skip))
        return results

    _check_same_interface(subject)
    subject = _within_environment(
        subject, ([INPUT] if check_input else []) + [a.id for a in adapters], env, emit, skip_cells
    )
    if subject is None:
        return results
    first = next(iter(subject.forms.values()))
    feeds = feeds_for(first, subject.id, subject.bindings, feed_fn=subject.feeds, given=subject.feed_sets)
    # a pass that calibrates on data (static quantization) is given the runs the oracles make, so what it
    # calibrates is what they judge; the copy travels with its feeds to the pass's isolation worker
    adapters = [a.calibrated(feeds) if getattr(a, "calibrates", False) else a for a in adapters]
    # a pass that fixes what a binding binds (a dim_param to a size) is bound from the first feeds, and its
    # outputs are judged on the runs that agree with the fix only (seed 000: one binding map per run)
    agreeing: dict[str, list[int]] = {}
    for k, a in enumerate(adapters):
        if getattr(a, "binds", False):
            adapters[k], agreeing[a.id] = a.bound(feeds, first)
    # Model runs go through the executor's worker when it has one (a crash costs one run).
    runner = getattr(executor, "run_model", None)
    starting = getattr(executor, "starting", None)  # told which group (pass id) starts: the matrix worker's markers
    step = getattr(executor, "on_step", None) or (lambda what: None)  # told which form, pass and step runs (progress)
    checker = validity.Checker(executor)  # the onnx checker, likewise in the worker
    fixed = getattr(executor, "fixed_models", None) or contextlib.nullcontext
    limit = getattr(executor, "timeout", None)  # the --timeout a finding about that limit is reproduced with
    # the forms do not change while they are run and judged: the oracles' per-model readings
    # (graph_index.per_model: the conformance evaluation, the checker's verdict in process, …) are
    # made once per model in the block instead of once per oracle asking
    with fixed(), graph_index.shared():
        baselines = {
            name: step(f"{subject.id}: {name}: running the form unoptimized")
            or _observed_runs(m, feeds, runner, checker if check_input else None)  # its input cell asks the checker
            for name, m in subject.forms.items()
        }
        subject, baselines = _runnable_here(
            subject, baselines, ([INPUT] if check_input else []) + [a.id for a in adapters], env, emit, skip_cells
        )
        if not subject.forms:  # none runs here, for what this onnxruntime lacks: every cell was emitted unavailable
            return results
        hashes = {name: model_hash(m) for name, m in subject.forms.items()}
        if check_input and not (skip_cells and all(skip_cells(INPUT, f) for f in subject.forms)):
            if starting:
                starting(INPUT)
            judged = _input_cells(subject, feeds, baselines, hashes, env, checker)
            judged.forms = [f for f in judged.forms if not (skip_cells and skip_cells(INPUT, f))]
            judged.timeout = limit
            if record:
                record(judged)
            for cell in judged.results():
                emit(cell)

    # one folder for every pass run, emptied before each: the executor's own when it keeps one
    # (``pass_folder``, reused across subjects), else a temporary one made at the first pass run and
    # removed at the end (or when collected after an error)
    kept = getattr(executor, "pass_folder", None)
    workdir: tempfile.TemporaryDirectory | None = None
    wanted = [a for a in adapters if any(not (skip_cells and skip_cells(a.id, f)) for f in subject.forms)]
    # asked once per pass and form, when first needed (a precondition that kills the process must do so
    # inside its own pass's unit, after `starting`): the batch and the loop below read the same answer
    reasons: dict[tuple[str, str], str | PassOutcome | None] = {}

    def reason(adapter: PassAdapter, form: str) -> str | PassOutcome | None:
        if (adapter.id, form) not in reasons:
            reasons[(adapter.id, form)] = _precondition(adapter, subject.forms[form])
        return reasons[(adapter.id, form)]

    try:  # an interrupt: the outputs produced but not judged yet are reported unchecked (_unjudged)
        ran = _batched(executor, wanted, subject, kept, step, reason, produced)
        for adapter in wanted:
            with fixed(), graph_index.shared():  # this pass's outputs do not change while they are run and judged
                if starting:
                    starting(adapter.id)
                runs: list[FormRun] = []
                for form, model in subject.forms.items():
                    why = reason(adapter, form)  # outside what the tool supports: not run, not a finding
                    if isinstance(why, PassOutcome):
                        outcome = why
                    elif why:
                        outcome = PassOutcome(adapter.id, "unavailable", error=why, versions=adapter.versions())
                    elif (outcome := ran.pop((adapter.id, form), None)) is not None:
                        outcome = _runnable_output(adapter, outcome)
                    else:
                        step(f"{subject.id}: {form} {adapter.id}: running the pass")
                        if kept is None and workdir is None:
                            workdir = tempfile.TemporaryDirectory(prefix="passcheck-")
                        folder = Path(kept) if kept is not None else Path(workdir.name) / "pass"
                        outcome = _runnable_output(adapter, executor(adapter, model, _emptied(folder)))
                        produced[(adapter.id, form)] = outcome
                    if outcome.ok:
                        step(f"{subject.id}: {form} {adapter.id}: running its output")
                    keep = agreeing.get(adapter.id)
                    its_feeds = feeds if keep is None else [feeds[i] for i in keep]
                    its_baseline = baselines[form] if keep is None else [baselines[form][i] for i in keep]
                    out_runs = _observed_runs(outcome.model, its_feeds, runner, checker) if outcome.ok else []
                    if outcome.ok:  # while the worker keeps the output: the oracles' checker question, no bytes sent
                        checker.ask_early(outcome.model)
                    runs.append(
                        FormRun(
                            subject.id,
                            form,
                            adapter.id,
                            model,
                            outcome,
                            its_feeds,
                            its_baseline,
                            out_runs,
                            folds_constants=adapter.folds_constants,
                            optimizes=adapter.optimizes,
                            env=env,
                            rtol=subject.rtol,
                            atol=subject.atol,
                            unknown_dim_param=subject.unknown_dim_param,
                            checker=checker,
                            expected=subject.expected,
                            precision=getattr(adapter, "precision", None),
                            by_type=frozenset(getattr(adapter, "by_type", ())),
                            writes_given_unchanged=bool(getattr(adapter, "writes_given_unchanged", False)),
                            folds_shapes=bool(getattr(adapter, "folds_shapes", True)),
                            fixes=getattr(adapter, "fixes", None),
                            clears=frozenset(getattr(adapter, "clears", ())),
                        )
                    )
                judged = Judged(
                    Cells(runs, PASS, subject.expect, subject.parity, _feeds_given(subject)),
                    hashes,
                    subject.repro.format(**{"pass": shlex.quote(adapter.id)}),
                    env,
                    [f for f in subject.forms if not (skip_cells and skip_cells(adapter.id, f))],
                    _form_repro(subject, shlex.quote(adapter.id)),
                    limit,
                )
                if record:
                    record(judged)
                for cell in judged.results():
                    emit(cell)
    except KeyboardInterrupt as exc:
        unjudged = _unjudged(subject, produced, {a.id: a for a in wanted}, hashes, env, skip_cells)
        raise interrupts.Interrupted([require_run(c) if c.pass_id in required else c for c in unjudged]) from exc
    if workdir is not None:
        workdir.cleanup()
    return results


#: Largest serialized model whose passes :func:`_batched` runs in one round trip (a larger model's
#: passes take far longer than a round trip, and its outputs would crowd the worker's kept models).
BATCH_BYTES = 1 << 20


def _batched(
    executor: Any,
    adapters: Sequence[PassAdapter],
    subject: Subject,
    kept: Any,
    step: Callable,
    reason: Callable[[PassAdapter, str], str | PassOutcome | None],
    produced: dict | None = None,
) -> dict:
    """The outcomes of the passes to run on each small form, ``(pass id, form) → PassOutcome``, asked
    of an executor that runs many passes on one model in one round trip (``run_passes``: the
    isolation worker, :meth:`~passcheck.passes.isolation.IsolatedExecutor.run_passes`), each in its
    own emptied folder inside ``kept``; the same outcomes as one call per pass. A pass it did not
    run (or a form of more than :data:`BATCH_BYTES`, a pass outside what its tool supports: a
    ``reason(adapter, form)``, :func:`_precondition`'s answer) is not in the result: the caller
    runs it as before. Each outcome is also put in ``produced`` as its form's round trip returns (an
    interrupt during a later form's keeps it)."""
    run_passes = getattr(executor, "run_passes", None)
    if run_passes is None or kept is None:
        return {}
    ran: dict[tuple[str, str], PassOutcome] = {}
    for form, model in subject.forms.items():
        todo = [a for a in adapters if not reason(a, form)]
        if len(todo) < 2 or model.ByteSize() > BATCH_BYTES:
            continue
        step(f"{subject.id}: {form}: running {len(todo)} passes")
        workdirs = [_emptied(Path(kept) / f"batch-{i}") for i in range(len(todo))]  # kept: removing costs more
        for adapter, outcome in zip(todo, run_passes(todo, model, workdirs), strict=True):
            if outcome is not None:
                ran[(adapter.id, form)] = outcome
                if produced is not None:
                    produced[(adapter.id, form)] = outcome
    return ran


def _unjudged(
    subject: Subject,
    produced: Mapping[tuple[str, str], PassOutcome],
    adapters: Mapping[str, PassAdapter],
    hashes: Mapping[str, str],
    env: str,
    skip_cells: Callable[[str, str], bool] | None,
) -> list[CellResult]:
    """One ``unchecked`` cell (:data:`~passcheck.records.INTERRUPTED`) per pass output in ``produced``
    (``(pass id, form) → outcome``: produced, not yet judged) whose cell is asked for, with what the
    pass did; in pass, then form order."""
    from passcheck.oracles.judged import outcome_cell
    from passcheck.records import INTERRUPTED

    why = "the run was interrupted after the pass produced this output and before the oracles judged it"
    return [
        outcome_cell(
            subject.id,
            form,
            pid,
            subject.forms[form],
            _runnable_output(adapters[pid], outcome),
            env,
            hashes[form],
            unchecked={INTERRUPTED: why},
        )
        for pid in adapters
        for form in subject.forms
        if (outcome := produced.get((pid, form))) is not None and not (skip_cells and skip_cells(pid, form))
    ]


def _runnable_output(adapter: PassAdapter, outcome: PassOutcome) -> PassOutcome:
    """``outcome``, or ``unavailable`` when its output cannot be run by this onnxruntime (e.g. a
    converter's output at a newer opset), or ``crashed`` when it is no model anything can read (a
    string field that is not UTF-8: :func:`~passcheck.modelio.require_utf8`)."""
    if outcome.ok and (bad := non_utf8_field(outcome.model)) is not None:
        return PassOutcome(
            adapter.id,
            "crashed",
            error=f"its output is not a readable model: {bad[0]} is not UTF-8 text ({bad[1][:40]!r}), "
            "which protobuf requires of a string field",
            versions=outcome.versions,
            seconds=outcome.seconds,
        )
    if outcome.ok and (late := beyond_onnxruntime(outcome.model)):
        return PassOutcome(
            adapter.id,
            "unavailable",
            error=f"the output of {adapter.id} cannot be run here: {late}",
            versions=outcome.versions,
            seconds=outcome.seconds,
        )
    return outcome


def _emptied(folder: Path) -> Path:
    """``folder`` with whatever the last pass left in it removed (cheaper than a new temporary
    folder per pass run: creating and removing a folder costs milliseconds on some filesystems)."""
    import shutil

    try:
        entries = list(os.scandir(folder))
    except FileNotFoundError:
        folder.mkdir(parents=True)
        return folder
    for entry in entries:
        if entry.is_dir(follow_symlinks=False):
            shutil.rmtree(entry.path, ignore_errors=True)
        else:
            Path(entry.path).unlink(missing_ok=True)
    return folder


def _observed_runs(
    model: onnx.ModelProto,
    feeds: Sequence[Mapping[str, Any]],
    runner: Callable | None,
    checker: validity.Checker | None = None,
) -> list:
    """The runs of ``model`` on each of ``feeds``; with ``checker``, its question about ``model``
    asked in the same round trip as the runs (:meth:`~passcheck.oracles.validity.Checker.pending`)."""
    plan = _plan(model, runner)
    # the isolation worker's runner knows the model by its digest, serialized and hashed once inside
    # the executor's fixed_models() block (the engine's models do not change meanwhile)
    owner = getattr(runner, "__self__", None)
    if (ahead := getattr(owner, "prefetch", None)) is not None:  # every binding in one round trip
        also = checker.pending(model) if checker is not None else None
        ahead(model, feeds, plan.main, plan.main_shapes, **({"also": also} if also else {}))
    return [observe_run(model, f, plan, runner) for f in feeds]


def _feeds_given(subject: Subject) -> bool:
    return bool(subject.feed_sets or subject.feeds)


def _input_cells(subject: Subject, feeds, baselines, hashes, env: str, checker: Callable | None = None) -> Judged:
    """The forms themselves (pseudo-pass ``input``), to be judged by every oracle of input cells."""
    runs = [
        FormRun(
            subject.id,
            form,
            INPUT,
            model,
            PassOutcome(INPUT, "unchanged", model=model),
            feeds,
            baselines[form],
            baselines[form],
            env=env,
            rtol=subject.rtol,
            atol=subject.atol,
            unknown_dim_param=subject.unknown_dim_param,
            checker=checker,
            expected=subject.expected,
        )
        for form, model in subject.forms.items()
    ]
    return Judged(
        Cells(runs, INPUT_CELLS, subject.expect, subject.parity, _feeds_given(subject)),
        hashes,
        subject.repro.format(**{"pass": INPUT}),
        env,
        list(subject.forms),
        _form_repro(subject, INPUT),
    )


def _form_repro(subject: Subject, pass_arg: str) -> dict[str, str]:
    return {form: cmd.format(**{"pass": pass_arg}) for form, cmd in subject.form_repro.items()}
