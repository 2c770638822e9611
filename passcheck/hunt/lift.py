"""Bases lifted to a newer opset, so the forms a newer opset allows are drawn on them (M293).

Many neighbours and rewrites exist only from some default-domain opset on (``vary:qdq-16bit``: QuantizeLinear-21's
16-bit types; float8 casts at 19; the attribute → input changes of Squeeze/Unsqueeze/Split/Pad/Resize/Reduce* at
13/18 ...), while most library cases and generated bases import one lower opset. IR.md (§Opset versioning) and each
op's changelog in Operators.md say an op keeps its meaning between two versions unless its schema changed, so a model
imports a newer opset once the ops whose schema changed are rewritten to it: what onnx's version converter
(``onnx.version_converter.convert_version``) does. The converter is a tool under test too, so its result is a base
only once checked here (:func:`lift`): onnx's checker, the same graph inputs and outputs, the same outputs as the
original under onnxruntime (``ort:disabled``, :func:`passcheck.mutations.equivalence.verify_equivalent`) and under
onnx's reference evaluator (the lifted model against the original, on the same feeds). A model that fails any of
these, or that the converter refuses, is not lifted, with why.

A lifted base is offered (:func:`lifted_bases`) only where the lift opens something: a neighbour kind
(:func:`passcheck.hunt.variation.neighbours`) or a rewrite (:func:`passcheck.mutations.forms.enumerate_forms`) that has
a site on the lifted model and none on the original (:func:`opened`). Its case is ``<case id>+opset<N>`` (the
original's family), its forms ``common`` (the lifted model) and ``before-lift`` (the original, the same
computation at the old opset). One form per case is lifted (its ``common``), and each lift (or the reason for
refusing one) is kept in the cache (:func:`passcheck._cache.cache_root` ``/lifted``), keyed by the model's bytes,
the target and the installed onnx and onnxruntime, so a hunt pays for it once.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import os
import random
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import onnx

    from passcheck.case_model import Case
    from passcheck.hunt.space import Base

#: The form of a lifted case holding the original model (the old opset).
BEFORE = "before-lift"
#: The rewrite name the equivalence gate's messages give a lift.
LIFT = "lift"


class NotLifted(Exception):
    """A model that cannot be lifted (the converter refused it, or its result is not the same computation)."""


def default_opset(model: onnx.ModelProto) -> int:
    """The model's default-domain (``""`` / ``ai.onnx``) opset, 0 when it imports none."""
    return max((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), default=0)


def target() -> int:
    """The newest default-domain opset both the installed onnx (its newest schema) and onnxruntime (a one-node
    model it loads) accept: the opset bases are lifted to at most (:func:`target_for` picks one per model)."""
    return _target()


@functools.cache
def _target() -> int:
    import onnx
    import onnxruntime as ort
    from onnx import helper

    newest = onnx.defs.onnx_opset_version()
    for v in range(newest, 0, -1):
        x = helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [1])
        y = helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [1])
        g = helper.make_graph([helper.make_node("Identity", ["x"], ["y"])], "g", [x], [y])
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("", v)])
        try:
            ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
        except Exception:  # noqa: BLE001 - an opset this onnxruntime does not load
            continue
        return v
    return 0


@functools.cache
def _ort_versions() -> frozenset[tuple[str, int]]:
    """(op type, since_version) of the default-domain schemas onnxruntime knows and has a CPU kernel for (a kernel
    whose version range ends open serves only the version it starts at, as onnxruntime's kernel registry matches)."""
    from onnxruntime.capi import onnxruntime_pybind11_state as C

    known = {(s.name, s.since_version) for s in C.get_all_operator_schema() if s.domain in ("", "ai.onnx")}
    ranges: dict[str, list[tuple[int, int]]] = {}
    for k in C.get_all_opkernel_def():
        if k.domain in ("", "ai.onnx") and k.provider == "CPUExecutionProvider":
            ranges.setdefault(k.op_name, []).append(tuple(k.version_range))
    # onnxruntime's kernel lookup: a kernel open at the top (end INT_MAX) serves its start version only
    return frozenset((op, v) for op, v in known if any(a == v or a < v <= b < 2**31 - 1 for a, b in ranges.get(op, ())))


def target_for(model: onnx.ModelProto, newest: int | None = None) -> int:
    """The newest opset (at most ``newest``, default :func:`target`) at which every default-domain op type of
    ``model`` (its subgraphs too) resolves, by onnx's schemas, to a version onnxruntime both knows and has a CPU
    kernel for (its registry: ``get_all_operator_schema``, ``get_all_opkernel_def``); 0 when none above the model's
    own opset does."""
    import onnx.defs

    ops = sorted(_op_types(model.graph))
    have = _ort_versions()
    for v in range(newest or target(), default_opset(model), -1):
        try:
            if all((op, onnx.defs.get_schema(op, v, "").since_version) in have for op in ops):
                return v
        except onnx.defs.SchemaError:
            continue
    return 0


def _op_types(graph) -> set[str]:
    out = set()
    for n in graph.node:
        if n.domain in ("", "ai.onnx"):
            out.add(n.op_type)
        for a in n.attribute:
            for g in [a.g] if a.HasField("g") else list(a.graphs):
                out |= _op_types(g)
    return out


def convert_job(model: onnx.ModelProto, to: int) -> onnx.ModelProto:
    """``onnx.version_converter.convert_version(model, to)`` (importable by name: a worker's job)."""
    import onnx.version_converter

    return onnx.version_converter.convert_version(model, to)


def lift(
    model: onnx.ModelProto,
    to: int,
    feeds_list: Sequence[Mapping[str, Any]],
    runner: Callable | None = None,
    checker: Any = None,
) -> onnx.ModelProto:
    """``model`` (default-domain opset below ``to``) imported at opset ``to``, checked to compute the same.

    The converter runs in the worker behind ``runner``/``checker`` (an ``IsolatedExecutor``'s), else in the
    enclosing :func:`passcheck.runtime.isolated_tools.within` block's worker, else here.

    Raises:
        NotLifted: ``model`` imports no default-domain opset or one >= ``to``, holds model-local functions (the
            converter does not convert their bodies), the converter raised or died, its result does not import
            ``to``, onnxruntime does not run it, it fails the checker, changes the interface, or computes other
            outputs under onnxruntime or the reference evaluator (IR.md: a graph at a newer opset means the same).
    """
    from passcheck.errors import PasscheckError, PasscheckInternalError
    from passcheck.mutations.equivalence import Unverified, verify_equivalent, worker_of
    from passcheck.runtime import isolated_tools, run_ort

    at = default_opset(model)
    if not 0 < at < to:
        raise NotLifted(f"imports default-domain opset {at}, not one below {to}")
    if model.functions:
        raise NotLifted("model-local functions: the converter leaves their bodies at the old opset")
    scope = isolated_tools.current()
    worker = worker_of(runner, checker) or (scope.worker if scope is not None else None)
    try:
        done = worker.call(convert_job, model, to) if worker is not None else convert_job(model, to)
    except Exception as exc:  # noqa: BLE001 - the converter's refusal (or death) is a reason not to lift
        first = str(exc).splitlines()[0] if str(exc) else ""
        raise NotLifted(f"the converter: {type(exc).__name__}: {first}") from None
    if default_opset(done) != to:
        raise NotLifted(f"the converter's result imports opset {default_opset(done)}, not {to}")
    run = runner or run_ort
    for feeds in feeds_list[:1]:  # the gate below takes the evaluator's word where onnxruntime fails: not here
        if err := run(done, feeds).error:
            raise NotLifted(f"onnxruntime does not run it: {err.splitlines()[0]}")
    try:
        verify_equivalent(model, done, feeds_list, LIFT, runner, checker=checker)
    except (PasscheckError, PasscheckInternalError, Unverified) as exc:  # the gate's refusal of a rewrite
        raise NotLifted(f"onnxruntime: {str(exc).splitlines()[0]}") from None
    if why := evaluator_departs(model, done, feeds_list, worker, run):
        raise NotLifted(f"the reference evaluator: {why}")
    return done


def evaluator_departs(
    model: onnx.ModelProto,
    lifted: onnx.ModelProto,
    feeds_list: Sequence[Mapping[str, Any]],
    worker: Any = None,
    runner: Callable | None = None,
) -> str | None:
    """Why onnx's reference evaluator does not compute ``lifted``'s outputs as ``model``'s (outputs by name, the
    numeric oracle's tolerances), or None when it computes the same on every feed dict. Where the evaluator has no
    implementation of an op version of ``model`` (it ships some ops from a later version only) and ``runner`` is
    given, ``lifted``'s evaluator outputs are compared with ``model``'s under ``runner`` (onnxruntime) instead: two
    runtimes still agree on the lift. An evaluator that fails on the lifted model, or on the original with no runner,
    is a reason too: the lift is then unchecked there, and not offered."""
    from passcheck.oracles.numeric import compare, output_dtypes
    from passcheck.runtime import isolated_tools

    dtypes = output_dtypes(model)
    for i, feeds in enumerate(feeds_list):
        a = isolated_tools.run_reference(model, feeds, worker)
        if a.error and runner is not None and "No implementation for operator" in a.error:
            a = runner(model, feeds)
        b = isolated_tools.run_reference(lifted, feeds, worker)
        if a.error or b.error:
            return (
                f"feeds {i}: it does not run the {'original' if a.error else 'lifted model'}: "
                + ((a.error or b.error).splitlines()[0])
            )
        for name, want in a.outputs.items():
            got = compare(b.outputs.get(name), want, dtype=dtypes.get(name))
            if not got.ok:
                return f"feeds {i}: output {name!r}: {got.message}"
    return None


def opened(model: onnx.ModelProto, lifted: onnx.ModelProto, bindings=({}, {})) -> list[str]:
    """The neighbour kinds (``vary:<kind>``) and rewrite ids with a site on ``lifted`` and none on ``model``,
    sorted: what lifting opens (sites listed as a hunt lists them, with a fixed generator)."""
    return sorted(set(reach(lifted, bindings)) - set(reach(model, bindings)))


def reach(model: onnx.ModelProto, bindings=({}, {})) -> dict[str, int]:
    """Each neighbour kind (``vary:<kind>``) and rewrite id with a site on ``model`` → its number of sites."""
    from passcheck.hunt import variation
    from passcheck.mutations import forms as hforms

    pools: dict = {}
    try:
        variation.neighbours(model, random.Random(0), bindings, pools=pools)
    except Exception:  # noqa: BLE001 - a model the neighbour listing cannot read offers none
        pools = {}
    applied: dict[str, list[str]] = {}
    try:
        hforms.enumerate_forms(model, random.Random(0), max_sites=0, labels=applied)
    except Exception:  # noqa: BLE001 - likewise for the rewrites
        applied = {}
    out = {k: p.size for k, p in pools.items() if p.size}
    return out | {r: len(labels) for r, labels in applied.items() if labels}


@dataclasses.dataclass(frozen=True)
class Lifted:
    """The outcome of lifting one case's ``common`` form: ``model`` (None when refused, with ``why``) and the
    kinds it opens (:func:`opened`)."""

    case_id: str
    to: int
    model: onnx.ModelProto | None
    why: str = ""
    opens: tuple[str, ...] = ()


def _key(model: onnx.ModelProto, to: int) -> str:
    from passcheck._versions import tool_version

    h = hashlib.sha256(model.SerializeToString(deterministic=True))
    h.update(f"|{to}|onnx {tool_version('onnx')}|onnxruntime {tool_version('onnxruntime')}|m293-1".encode())
    return h.hexdigest()[:32]


def cached_lift(case: Case, to: int, executor: Any = None, folder: Path | None = None) -> Lifted:
    """:func:`lift` of ``case``'s ``common`` form to ``to`` with the kinds it opens, read from (else written to) the
    cache ``folder`` (default ``cache_root()/lifted``): the lifted bytes and a small JSON per key (:func:`_key`).
    ``executor``: an ``IsolatedExecutor`` (its ``run_model`` and checker run the gate), else the shared worker."""
    import onnx

    from passcheck._cache import cache_root
    from passcheck.engine import feeds_for, seed_for
    from passcheck.oracles.validity import Checker

    model = case.build("common")
    folder = folder or cache_root() / "lifted"
    key = _key(model, to)
    meta_path, bytes_path = folder / f"{key}.json", folder / f"{key}.onnx"
    if meta_path.is_file():
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        got = onnx.load_from_string(bytes_path.read_bytes()) if meta.get("lifted") and bytes_path.is_file() else None
        if got is not None or not meta.get("lifted"):
            return Lifted(case.id, to, got, meta.get("why", ""), tuple(meta.get("opens", ())))
    sid = f"{case.id}+opset{to}"
    try:
        if case.feeds:
            feeds = [case.feeds(b, seed_for(sid, i)) for i, b in enumerate(case.bindings)]
        else:
            feeds = feeds_for(model, sid, case.bindings)
        runner = getattr(executor, "run_model", None)
        done = lift(model, to, feeds, runner, Checker(executor) if executor is not None else None)
        out = Lifted(case.id, to, done, opens=tuple(opened(model, done, case.bindings)))
    except NotLifted as exc:
        out = Lifted(case.id, to, None, str(exc))
    except Exception as exc:  # noqa: BLE001 - feeds that cannot be made, a base that does not build: not lifted
        out = Lifted(case.id, to, None, f"{type(exc).__name__}: {exc}".splitlines()[0])
    folder.mkdir(parents=True, exist_ok=True)
    if out.model is not None:
        _write(bytes_path, out.model.SerializeToString())
    meta = {"case": case.id, "to": to, "lifted": out.model is not None, "why": out.why, "opens": list(out.opens)}
    _write(meta_path, json.dumps(meta).encode())
    return out


def _write(path: Path, data: bytes) -> None:
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def lifted_case(case: Case, done: Lifted) -> Case:
    """The case of a lift (see module docs): ``common`` is the lifted model, :data:`BEFORE` the original."""
    from passcheck.case_model import COMMON, Form

    data = done.model.SerializeToString()

    def build() -> onnx.ModelProto:
        import onnx

        return onnx.load_from_string(data)

    doc = (
        f"{case.id}'s common form lifted from opset {case.opset} to {done.to} by onnx's version converter and "
        f"checked to compute the same (IR.md opset versioning; passcheck.hunt.lift). Opens: {', '.join(done.opens)}."
    )
    return dataclasses.replace(
        case,
        id=f"{case.id}+opset{done.to}",
        forms={COMMON: Form(build), BEFORE: Form(case.forms[COMMON].build, f"the original at opset {case.opset}")},
        doc=doc,
        opset=done.to,
        expect=(),
        reference=None,
    )


@dataclasses.dataclass
class Census:
    """What :func:`lifted_bases` did: cases tried, lifted, offered (a lift that opens something), and refused
    (reason's first words → count)."""

    tried: int = 0
    lifted: int = 0
    offered: int = 0
    below: int = 0
    refused: dict[str, int] = dataclasses.field(default_factory=dict)
    opens: dict[str, int] = dataclasses.field(default_factory=dict)

    def line(self) -> str:
        top = ", ".join(f"{k}: {n}" for k, n in sorted(self.refused.items(), key=lambda kv: -kv[1])[:4])
        return f"lift: {self.tried} cases below opset, {self.lifted} lifted, {self.offered} offered" + (
            f"; refused: {top}" if top else ""
        )


def lifted_bases(
    found: Sequence[Base], executor: Any = None, to: int | None = None, census: Census | None = None
) -> list[Base]:
    """One lifted base per case of ``found`` whose ``common`` form imports a default-domain opset below the one
    :func:`target_for` picks for it (at most ``to``, default :func:`target`) and lifts (:func:`cached_lift`) to a
    model that opens a neighbour kind or rewrite (:func:`opened`), sorted by id. ``census``: filled with the
    counts."""
    from passcheck.hunt.space import Base

    to = to or target()
    census = census if census is not None else Census()
    out = []
    for case in dict((b.case.id, b.case) for b in found).values():
        if "+opset" in case.id:
            continue
        try:
            at = target_for(case.build("common"), to)
        except Exception:  # noqa: BLE001 - a case this onnx cannot build is not lifted
            at = 0
        if not at:
            continue
        census.tried += 1
        done = cached_lift(case, at, executor)
        if done.model is None:
            census.refused[_reason(done.why)] = census.refused.get(_reason(done.why), 0) + 1
            continue
        census.lifted += 1
        if not done.opens:
            continue
        census.offered += 1
        for k in done.opens:
            census.opens[k] = census.opens.get(k, 0) + 1
        out.append(Base(lifted_case(case, done), "common"))
    return sorted(out, key=lambda b: b.id)


def _reason(why: str) -> str:
    """The kind of a refusal (its words before the first colon)."""
    return why.split(":", 1)[0] or "?"
