"""The pipeline for one subject (a case, or a user's model): forms → passes → runs → oracles.

:func:`evaluate` builds the forms once, derives feeds once per binding (the same for every form),
runs each form unoptimized as the baseline, then for each pass runs it on every form, runs every
output on the same feeds with every node output observed, and applies the oracles. Results come
back as :class:`~passcheck.records.CellResult` records, one per (form, pass), handed to
``on_cell`` as soon as each pass is judged.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import shlex
import tempfile
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from passcheck import oracles
from passcheck.errors import PasscheckError
from passcheck.modelio import model_hash
from passcheck.oracles import FormRun, op_counts
from passcheck.passes import DEFAULT_PASSES, PassAdapter, PassOutcome, get_pass
from passcheck.records import CellResult, Finding, brief
from passcheck.runtime import run_ort, synthesize

if TYPE_CHECKING:
    import onnx

    from passcheck.cases import Case, Expectation

#: (adapter, model, workdir) → outcome. The default runs in process; passcheck.passes.isolation
#: provides one that runs each pass in a child process.
Executor = Callable[[PassAdapter, "onnx.ModelProto", Path], PassOutcome]


#: Pseudo-pass id under which each form itself is judged, before any pass runs.
INPUT = "input"


def run_in_process(adapter: PassAdapter, model: "onnx.ModelProto", workdir: Path) -> PassOutcome:
    return adapter.run(model, workdir)


@dataclasses.dataclass
class Subject:
    """What :func:`evaluate` works on: named forms of one computation and how to feed them."""

    id: str
    forms: dict[str, "onnx.ModelProto"]
    bindings: Sequence[Mapping[str, int]]
    feeds: Callable[[Mapping[str, int], int], dict[str, Any]] | None = None
    expect: Sequence["Expectation"] = ()
    parity: frozenset[str] = frozenset({"ops", "precision"})
    rtol: float | None = None
    atol: float | None = None
    passes: Sequence[str] = ()
    repro: str = ""  # command reproducing this subject; ``{pass}`` is filled in
    skip: str | None = None
    feed_sets: Sequence[Mapping[str, Any]] | None = None  # given feeds (one dict per run) instead of synthesized ones
    unknown_dim_param: str | None = None  # regex: dim_param names meaning "unknown dim" (see shape_annotations.check)

    @classmethod
    def from_case(cls, case: "Case", onnx_version: str | None, cases_from: Sequence[str] = ()) -> "Subject":
        skip = case.skip_reason(onnx_version)
        forms: dict = {}
        for name in case.forms if not skip else ():
            try:
                forms[name] = _build(case, name)
            except _OnnxCannotBuild as exc:  # this onnx cannot express the form: skip the case here
                skip, forms = str(exc), {}
                break
        return cls(
            id=case.id, forms=forms or dict.fromkeys(case.forms), bindings=case.bindings, feeds=case.feeds, expect=case.expect,
            parity=case.parity, rtol=case.rtol, atol=case.atol, passes=case.passes,
            repro="passcheck run" + "".join(f" --cases-from {shlex.quote(str(p))}" for p in cases_from)
            + f" --case {shlex.quote(case.id)} --pass {{pass}}", skip=skip,
        )


def values_to_observe(model: "onnx.ModelProto") -> list[str]:
    """Main-graph values the oracles read: every annotated value (annotations) and every value
    derived from shapes only (folding). Other intermediates are not exposed: exposing them all
    would keep every activation alive."""
    from passcheck.oracles.folding import values_to_observe as shape_values
    from passcheck.oracles.shape_annotations import annotations

    return list(dict.fromkeys([name for name, _t, _r in annotations(model)] + shape_values(model)))


def observed_run(model: "onnx.ModelProto", feeds: Mapping[str, Any], runner: Callable | None = None):
    """Run ``model`` with the values the oracles read observed; if exposing intermediates is what makes
    the run fail (onnxruntime refuses some values as graph outputs, e.g. a sparse Constant),
    run it again observing only the graph outputs, so passcheck's probing never turns into a
    finding against the model."""
    runner = runner or (lambda m, f, expose=(): run_ort(m, f, expose=expose))
    r = runner(model, feeds, expose=values_to_observe(model))
    if r.error:
        plain = runner(model, feeds)
        if not plain.error:
            return plain
    return r


class _OnnxCannotBuild(Exception):
    """The installed onnx raised while building a form (e.g. its parser predates a spelling)."""


def _raised_in_onnx(exc: BaseException) -> bool:
    """True when the innermost Python frame of ``exc``'s traceback is inside the onnx package."""
    import onnx

    tb, root = exc.__traceback__, str(Path(onnx.__file__).parent)
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return tb is not None and str(Path(tb.tb_frame.f_code.co_filename).resolve()).startswith(root)


def _build(case: "Case", form: str) -> "onnx.ModelProto":
    """Build one form.

    Raises:
        _OnnxCannotBuild: the installed onnx itself raised (parser, helper, checker): the case is
            skipped in this environment with that reason.
        PasscheckError: the builder raised elsewhere or returned no ModelProto: a case-definition
            error (exit 2).
    """
    import onnx

    try:
        model = case.build(form)
    except Exception as exc:  # noqa: BLE001 - a user's case module is input to passcheck
        if _raised_in_onnx(exc):
            text = exc.args[0].decode(errors="replace") if exc.args and isinstance(exc.args[0], bytes) else str(exc)
            text = " ".join(line.strip() for line in text.splitlines() if line.strip())
            raise _OnnxCannotBuild(f"onnx {onnx.__version__} cannot build form {form!r}: {type(exc).__name__}: {brief(text, 400)}") from None
        raise PasscheckError(f"case {case.id} form {form!r}: its build function raised {type(exc).__name__}: {exc}") from None
    if not isinstance(model, onnx.ModelProto):
        raise PasscheckError(f"case {case.id} form {form!r}: its build function returned {type(model).__name__}, not a ModelProto")
    return model


def seed_for(subject_id: str, index: int) -> int:
    """Feed seed for binding ``index`` of a subject: stable across runs and machines."""
    return int.from_bytes(hashlib.sha256(f"{subject_id}#{index}".encode()).digest()[:4], "little")


def feeds_for(model: "onnx.ModelProto", subject_id: str, bindings: Sequence[Mapping[str, int]]) -> list[dict[str, Any]]:
    """The synthesized feeds of ``subject_id``, one dict per binding (input name → value), seeded
    by :func:`seed_for`: what :func:`evaluate` runs, what mutants are verified on, what
    ``passcheck annotations`` observes. Unknown dims (no dim_value, no dim_param) are 2 in the
    first run, 3 in the second.

    Raises:
        FeedError: feeds cannot be synthesized from the model's input annotations.
    """
    return [synthesize(model, b, seed_for(subject_id, i), default_size=2 + i) for i, b in enumerate(bindings)]


def _check_same_interface(subject: Subject) -> None:
    names = list(subject.forms)
    ref = subject.forms[names[0]]
    ins = [(v.name) for v in ref.graph.input if v.name not in {t.name for t in ref.graph.initializer}]
    outs = [v.name for v in ref.graph.output]
    for n in names[1:]:
        m = subject.forms[n]
        mi = [v.name for v in m.graph.input if v.name not in {t.name for t in m.graph.initializer}]
        if sorted(mi) != sorted(ins) or [v.name for v in m.graph.output] != outs:
            raise PasscheckError(f"{subject.id}: form {n!r} has graph inputs {mi} / outputs {[v.name for v in m.graph.output]}, "
                                 f"but {names[0]!r} has {ins} / {outs}; all forms must share input and output names")


def evaluate(
    subject: Subject,
    pass_ids: Iterable[str] = (),
    *,
    env: str = "local",
    executor: Executor = run_in_process,
    on_cell: Callable[[CellResult], None] | None = None,
    skip_cells: Callable[[str, str], bool] | None = None,
    check_input: bool = True,
) -> list[CellResult]:
    """Run every pass on every form of ``subject`` and judge the results.

    Args:
        pass_ids: pass ids; empty means the subject's targeted passes, else the defaults.
        env: the environment id recorded in every result.
        executor: how a pass is run (in process by default).
        on_cell: called with each cell as soon as it is final.
        skip_cells: ``(pass_id, form) → True`` for cells already done (``--resume``).
        check_input: also judge each form itself (pseudo-pass ``input``): the checker accepts
            it, ORT runs it, its own annotations hold, and it computes what ``common`` computes.

    Raises:
        UnknownIdError / PasscheckError: an unknown pass id, forms with different interfaces,
            or feeds that cannot be synthesized.
    """
    ids = list(pass_ids) or list(subject.passes) or list(DEFAULT_PASSES)
    adapters = [get_pass(p) for p in ids if p != INPUT]  # ``--pass input``: judge the forms only
    results: list[CellResult] = []

    def emit(cell: CellResult) -> None:
        results.append(cell)
        if on_cell:
            on_cell(cell)

    if subject.skip:
        for a in adapters:
            for form in subject.forms:
                if not (skip_cells and skip_cells(a.id, form)):
                    emit(CellResult(subject.id, form, a.id, "skipped", env=env, error=subject.skip))
        return results

    _check_same_interface(subject)
    first = next(iter(subject.forms.values()))
    feeds = [dict(f) for f in subject.feed_sets] if subject.feed_sets else [
        subject.feeds(b, seed_for(subject.id, i)) for i, b in enumerate(subject.bindings)
    ] if subject.feeds else feeds_for(first, subject.id, subject.bindings)
    # Model runs go through the executor's worker when it has one (a crash costs one run).
    runner = getattr(executor, "run_model", None)
    baselines = {name: [observed_run(m, f, runner) for f in feeds] for name, m in subject.forms.items()}
    hashes = {name: model_hash(m) for name, m in subject.forms.items()}
    if check_input and not (skip_cells and all(skip_cells(INPUT, f) for f in subject.forms)):
        for cell in _input_cells(subject, feeds, baselines, hashes, env):
            if not (skip_cells and skip_cells(INPUT, cell.form)):
                emit(cell)

    # one folder for every pass run, emptied before each (removed at the end, or when collected after an error)
    workdir = tempfile.TemporaryDirectory(prefix="passcheck-")
    for adapter in adapters:
        todo = [f for f in subject.forms if not (skip_cells and skip_cells(adapter.id, f))]
        if not todo:
            continue
        runs: list[FormRun] = []
        for form, model in subject.forms.items():
            reason = _precondition(adapter, model)  # outside what the tool supports: not run, not a finding
            if isinstance(reason, PassOutcome):
                outcome = reason
            elif reason:
                outcome = PassOutcome(adapter.id, "unavailable", error=reason, versions=adapter.versions())
            else:
                outcome = executor(adapter, model, _emptied(Path(workdir.name) / "pass"))
            out_runs = [observed_run(outcome.model, f, runner) for f in feeds] if outcome.ok else []
            runs.append(FormRun(subject.id, form, adapter.id, model, outcome, feeds, baselines[form], out_runs,
                                folds_constants=adapter.folds_constants, optimizes=adapter.optimizes, env=env, rtol=subject.rtol, atol=subject.atol,
                                unknown_dim_param=subject.unknown_dim_param))
        findings: dict[str, list[Finding]] = {r.form: [] for r in runs}
        for r in runs:
            for oracle in oracles.PER_FORM:
                findings[r.form] += oracle.check(r)
            findings[r.form] += oracles.expectations.check(r, subject.expect)
        for f in oracles.acceptance.check(runs) + oracles.parity.check(runs, subject.parity):
            findings[f.form].append(f)
        for r in runs:
            if r.form not in todo:
                continue
            for f in findings[r.form]:
                f.repro = subject.repro.format(**{"pass": shlex.quote(adapter.id)})
            out = r.outcome.model if r.outcome.ok else None
            emit(CellResult(
                subject.id, r.form, adapter.id, r.outcome.status, env=env, error=r.outcome.error, seconds=r.outcome.seconds,
                versions=r.outcome.versions, model_sha256=hashes[r.form], nodes_before=len(r.model.graph.node),
                nodes_after=len(out.graph.node) if out is not None else None,
                ops_after=dict(sorted(op_counts(out).items())) if out is not None else {},
                findings=findings[r.form], coverage=oracles.annotations.coverage(r),
                unchecked={**oracles.numeric.unchecked(r), **oracles.annotations.unchecked(r)},
            ))
    workdir.cleanup()
    return results


def _emptied(folder: Path) -> Path:
    """``folder`` with whatever the last pass left in it removed (cheaper than a new temporary
    folder per pass run: creating and removing a folder costs milliseconds on some filesystems)."""
    import shutil

    folder.mkdir(exist_ok=True)
    for entry in os.scandir(folder):
        if entry.is_dir(follow_symlinks=False):
            shutil.rmtree(entry.path, ignore_errors=True)
        else:
            Path(entry.path).unlink(missing_ok=True)
    return folder


def _precondition(adapter: PassAdapter, model: "onnx.ModelProto") -> str | PassOutcome | None:
    """The adapter's reason not to run on ``model``, or a ``crashed`` outcome if asking raised
    (a user adapter's bug is a finding, not a passcheck crash)."""
    try:
        return adapter.precondition(model)
    except Exception as exc:  # noqa: BLE001
        return PassOutcome(adapter.id, "crashed", error=f"{adapter.id} precondition raised {type(exc).__name__}: {exc}", versions=adapter.versions())


def _input_cells(subject: Subject, feeds, baselines, hashes, env: str) -> list[CellResult]:
    """Judge the forms themselves: checker, runnable, own annotations, same numbers as common."""
    names = list(subject.forms)
    common = baselines[names[0]]
    cells = []
    for form, model in subject.forms.items():
        outcome = PassOutcome(INPUT, "unchanged", model=model)
        run = FormRun(subject.id, form, INPUT, model, outcome, feeds, baselines[form], baselines[form], env=env, rtol=subject.rtol, atol=subject.atol,
                      unknown_dim_param=subject.unknown_dim_param)
        unchecked = oracles.annotations.unchecked(run)
        found = oracles.validity.check(run) + oracles.annotations.check(run)
        errors = [r.error for r in baselines[form] if r.error]
        if errors:
            hint = "" if subject.feed_sets or subject.feeds else " (on synthesized feeds: if an input carries shapes, indices or sizes, give real ones with --feeds)"
            if form != names[0] and not any(r.error for r in common):
                hint = f" (form {names[0]!r} runs on the same feeds)"
            found.append(run.finding("rejected", "runtime", f"onnxruntime cannot run this form{hint}: {brief(errors[0])}", error=errors[0]))
        elif form != names[0]:
            cross = dataclasses.replace(run, baseline=common)
            unchecked.update(oracles.numeric.unchecked(cross, against=f"form {names[0]!r}"))
            for f in oracles.numeric.check(cross):
                f.message = f"differs from form {names[0]!r}: {f.message}"
                found.append(f)
        for f in found:
            f.repro = subject.repro.format(**{"pass": INPUT})
        cells.append(CellResult(subject.id, form, INPUT, "unchanged", env=env, model_sha256=hashes[form],
                                nodes_before=len(model.graph.node), nodes_after=len(model.graph.node),
                                ops_after=dict(sorted(op_counts(model).items())), findings=found,
                                coverage=oracles.annotations.coverage(run), unchecked=unchecked))
    return cells
