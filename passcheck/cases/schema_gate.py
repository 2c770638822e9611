"""One gate for the base families built from operator schemas outside the generated set (M353).

``cases/contrib_ops.py`` (onnxruntime's ``com.microsoft`` ops), ``cases/function_body_opsets.py`` (onnx's function
bodies at the opsets they are written for), ``cases/function_body_written.py`` (those bodies written out) and
``cases/rule_commuted.py`` (rule cases' commutative twins) each build candidate bases and keep one only when the
runtimes run it. Both ask the same questions of a form, answered here, every tool call in passcheck's isolation worker
(:class:`~passcheck.passes.isolation.IsolatedExecutor`: a form that kills a tool costs that form, not the build):

1. the common form runs in onnxruntime (CPU, unoptimized) on each binding's feeds (:func:`passcheck.engine.feeds_for`);
   the rank of each of its outputs is recorded (a domain onnx does not know gets no output shape from onnx's
   inference; the family writes that many anonymous dims, as the generator does with a reference run's rank);
2. each form, built with those ranks, passes the full checker (:class:`~passcheck.oracles.validity.Checker`; IR.md
   §Graphs asks a shape of graph outputs), runs in onnxruntime with the same outputs, its own annotations hold on the
   values observed (:mod:`passcheck.oracles.shape_annotations`, every node output exposed) and its outputs agree with
   the common form's (:func:`passcheck.oracles.numeric.compare`);
3. onnx's reference evaluator (:func:`passcheck.runtime.isolated_tools.run_reference`) agrees with the common form on
   the first feeds, or has no implementation of the op (no ``com.microsoft`` op has one).

A common form that fails fails every form (theirs reads ``common: <why>``). The verdicts are built once per key (the
caller's key parts: the generator's hash, :func:`passcheck.generate.generator_hash`, which covers its recipes and the
onnx / onnxruntime versions; this module; the family's own sources) under ``<cache>/<family>/<key>/index.json``
(:func:`passcheck._cache.built_set`). This module sits in the cases layer, below the generator, so the generator's
own hash (and every generated set cached under it) does not depend on it.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import onnx

#: Words of the reference evaluator's error when it has no implementation of an op (a form is then judged by
#: onnxruntime alone): onnx's ``ReferenceEvaluator`` raises "... is not implemented" / "No implementation for ..."
#: / "not supported" for an op it does not hold, "Node type 'X' from domain 'com.microsoft' is unknown" for a domain.
_LACKS = ("not implemented", "no implementation", "not supported", "is unknown")


@dataclasses.dataclass(frozen=True)
class Candidate:
    """A base to judge.

    Attributes:
        id: the case id the family would register it under (also the feeds' seed, :func:`passcheck.engine.seed_for`).
        forms: form name → ``build(ranks)`` giving its model; the first is ``common``. ``ranks`` maps each output of
            the common form's onnxruntime run to its rank (``{}`` for the first build, whose run gives them).
        bindings: one dict (dim_param → size) per feed set.
        rtol, atol: the numeric comparison's tolerances (None: :func:`passcheck.oracles.numeric.compare`'s default).
    """

    id: str
    forms: Mapping[str, Callable[[Mapping[str, int]], onnx.ModelProto]]
    bindings: Sequence[Mapping[str, int]] = ({},)
    rtol: float | None = None
    atol: float | None = None


def _first(text: str) -> str:
    return (text or "").strip().splitlines()[0][:300] if text else ""


def judge(candidate: Candidate, executor: Any) -> dict:
    """``{"forms": {form: "" or why it fails}, "ranks": {output: rank}}`` for ``candidate`` (module docs), every tool
    run in ``executor`` (an :class:`~passcheck.passes.isolation.IsolatedExecutor`).

    Raises:
        WorkerStartError: the worker could not start (passcheck's failure, not the form's).
    """
    from passcheck.engine import feeds_for
    from passcheck.oracles import shape_annotations
    from passcheck.oracles.numeric import compare
    from passcheck.oracles.validity import Checker
    from passcheck.runtime import isolated_tools
    from passcheck.runtime.session import all_node_outputs

    names = list(candidate.forms)
    bare = candidate.forms[names[0]]({})
    feeds = feeds_for(bare, candidate.id, candidate.bindings)
    want = []
    for f in feeds:
        run = executor.run_model(bare, dict(f))
        if run.error:
            why = f"does not run: {_first(run.error)}"
            return {"forms": {n: why if n == names[0] else f"common: {why}" for n in names}, "ranks": {}}
        want.append(run.outputs)
    ranks = {name: int(np.ndim(v)) for name, v in want[0].items()}
    checker = Checker(executor)

    def agree(got: Mapping[str, Any], w: Mapping[str, Any]) -> str | None:
        for o, v in w.items():
            if not (c := compare(got.get(o), v, candidate.rtol, candidate.atol)).ok:
                return f"output {o!r} differs from the common form's: {c.message}"
        return None

    def one(model: onnx.ModelProto) -> str:
        if err := checker(model):
            return f"checker: {err}"
        for f, w in zip(feeds, want):
            run = executor.run_model(model, dict(f), expose=all_node_outputs(model))
            if run.error:
                return f"does not run: {_first(run.error)}"
            if list(run.outputs) != list(w):
                return f"other outputs: {list(run.outputs)} for {list(w)}"
            if (report := shape_annotations.check(model, run.observed)).violations:
                return f"wrong annotations: {report.violations[0].message}"
            if why := agree(run.outputs, w):
                return why
        ref = isolated_tools.run_reference(model, dict(feeds[0]), worker=executor)
        if ref.error:
            return "" if any(g in ref.error.lower() for g in _LACKS) else f"reference evaluator: {_first(ref.error)}"
        return f"reference evaluator: {why}" if (why := agree(ref.outputs, want[0])) else ""

    out = {name: one(build(ranks)) for name, build in candidate.forms.items()}
    if why := out[names[0]]:
        out = {name: why if name == names[0] else f"common: {why}" for name in names}
    return {"forms": out, "ranks": ranks}


def judge_all(candidates: Iterable[Candidate], timeout: float = 60, family: str = "") -> dict[str, dict]:
    """Case id → :func:`judge`'s verdict, for each of ``candidates``, in one isolation worker; progress on stderr
    (:func:`progress`)."""
    from passcheck.passes.isolation import IsolatedExecutor

    todo = list(candidates)
    with IsolatedExecutor(timeout=timeout) as ex, progress(family, len(todo)) as bar:
        out = {}
        for c in todo:
            bar.now(c.id)
            out[c.id] = judge(c, ex)
            bar.advance(what=c.id)
        return out


def progress(family: str, total: int | None):
    """A :class:`passcheck.progress.Progress` on stderr for a gate judging ``total`` bases of ``family``: a bar on a
    terminal, else plain lines (``passcheck: contrib gate: 208 bases planned``, then ``12/208 bases (<id>)`` at most
    every ``$PASSCHECK_PROGRESS_EVERY`` seconds, 5), so a cache's first load never looks hung."""
    from passcheck.progress import Progress

    return Progress(total, label=f"passcheck: {family or 'schema'} gate", unit="bases")


#: Verdict folders kept per family (the newest used; a pinned environment's tool versions are another key, so a
#: matrix over the five pinned environments and this one uses six at once), and the seconds a folder beyond them
#: must have gone unused before it is removed (a day, as ``passcheck/matrix/create.py``'s overlays).
KEEP = 8
IDLE = 86400.0


def gate_key(parts: Iterable[str | Path]) -> str:
    """The verdicts' cache key (16 hex): this module's text and each of ``parts`` (a string as it is, e.g. the
    generator's hash; a path by its bytes: the family's module, its schema reader)."""
    h = hashlib.sha256()
    for p in (Path(__file__), *parts):
        h.update(Path(p).read_bytes() if isinstance(p, Path) else str(p).encode())
    return h.hexdigest()[:16]


def cached(family: str, parts: Iterable[str | Path], make: Callable[[], dict]) -> dict:
    """``make()`` (a JSON-able index: id → verdict and what the family needs to rebuild its kept bases), built once
    per :func:`gate_key` of ``parts`` and kept under ``<cache>/<family>/<key>/index.json``
    (:func:`passcheck._cache.built_set`: another process building the same set is waited for). The family's
    other keys beyond the :data:`KEEP` last used, idle for :data:`IDLE` seconds, are removed
    (:func:`passcheck._cache.prune`).

    Raises:
        whatever ``make`` raises (nothing is cached then).
    """
    import json

    from passcheck._cache import built_set, cache_root, prune, touch

    def build(tmp: Path) -> dict:
        doc = make()
        # the forms in the candidates' order (the first is common)
        (tmp / "index.json").write_text(json.dumps(doc, indent=1), encoding="utf-8")
        return doc

    folder = cache_root() / family / gate_key(parts)
    doc = built_set(folder, build, announce=f"passcheck: running the {family} bases in onnxruntime once (cached)…")
    touch(folder)
    prune(folder.parent, folder, KEEP, IDLE)
    return doc


def verdicts(
    family: str, candidates: Callable[[], Iterable[Candidate]], parts: Iterable[str | Path]
) -> dict[str, dict]:
    """:func:`judge_all` of ``candidates()``, :func:`cached` under ``family`` and ``parts``."""
    return cached(family, parts, lambda: judge_all(candidates(), family=family))


def of_case(case: Any) -> Candidate:
    """The :class:`Candidate` of a library :class:`~passcheck.case_model.Case` (its forms built as they are, the
    ranks unused)."""
    return Candidate(
        case.id,
        {n: (lambda _ranks, f=f: f.build()) for n, f in case.forms.items()},
        case.bindings,
        case.rtol,
        case.atol,
    )


def gate_cases(family: str, cases: Sequence[Any], parts: Iterable[str | Path], *, every: bool = False) -> list:
    """``cases`` (library :class:`~passcheck.case_model.Case` objects) with only their forms that pass :func:`judge`
    (:func:`verdicts`, cached); a case is kept with its common form and at least one more, or with every form when
    ``every``, else left out."""
    index = verdicts(family, lambda: [of_case(c) for c in cases], parts)
    out = []
    for c in cases:
        kept = [n for n in c.forms if n in kept_forms(index.get(c.id))]
        if "common" in kept and len(kept) > 1 and (not every or len(kept) == len(c.forms)):
            out.append(dataclasses.replace(c, forms={n: c.forms[n] for n in kept}))
    return out


def kept_forms(verdict: Mapping[str, Any] | None) -> list[str]:
    """The forms of a :func:`judge` verdict that passed (none when the common form failed or no verdict)."""
    return [f for f, why in ((verdict or {}).get("forms") or {}).items() if why == ""]


__all__ = ["Candidate", "cached", "gate_cases", "gate_key", "judge", "judge_all", "kept_forms", "of_case", "verdicts"]
