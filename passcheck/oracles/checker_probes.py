"""Checker probes: a form the checker accepts, broken in one rule the checker enforces, must be refused.

The validity oracle sees the checker too strict (``validity-disagreement``: it rejects a form onnxruntime runs);
nothing saw it too lax. Each form the checker accepts is therefore broken in one IR rule at a time, and the same
checker (plain, ``full_check=False``; :class:`passcheck.oracles.validity.Checker` in the worker) is asked about
each copy. A copy it accepts is a ``validity-disagreement`` of pass ``input``: the checker lets through a model the
IR forbids. The probes (:func:`probes`), each verified broken before it is asked about:

- ``undefined-output``: the main graph's first output renamed to a name nothing defines. IR.md §Names Within a
  Graph: a graph output is a *use* of a name, and "a value name used in a graph must have a unique definition"
  (a graph input, an initializer or a node output). Only the main graph: a subgraph's output may name an
  enclosing scope's value. Verified: the name is defined nowhere in the copy.
- ``short-payload`` / ``long-payload``: one main-graph initializer of each (element type, storage field) pair
  with two or more elements (not a segment), its data one element short / one element long (a typed field's last
  entry dropped or repeated, strings too, or ``raw_data``'s last element's bytes; the packed 4- and 2-bit types
  only in ``raw_data``, one byte). onnx.proto TensorProto: the data fields hold the tensor's elements, ``dims``
  their count; checker.cc ``check_tensor`` compares the two (onnx 1.23: "too small" only), and
  ``onnx.helper.make_tensor`` refuses any other count. Verified: onnx's own reader
  (``onnx.numpy_helper.to_array``) fails on the copy; a copy it reads is not asked about.

Opt-in, not among :data:`passcheck.oracles.registry.BUILTIN`: what it judges is the checker, not the form, and on
onnx 1.23.2 every form holding an initializer of two or more elements would carry row 998 (docs/found.md) in every
matrix and ``check``. Apply it with ``registry.registered(checker_probes.ORACLE)`` around a run (the matrix over the
pinned environments is where its windows show). At most :data:`MAX_PROBES` copies per form, none of a form above
:data:`MAX_BYTES` (what the probes judge is the checker, not the form, so such a form's verdict does not turn
``unchecked``); external-data tensors are not
resized. A checker that dies or times out on a copy gives no verdict on it (no finding).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import onnx

from passcheck.oracles._context import FormRun
from passcheck.oracles._contract import INPUT, BaseOracle, Cells
from passcheck.oracles.payloads import PACKED, data_field
from passcheck.records import Finding, brief

NAME = "checker_probes"

#: Forms larger than this (serialized bytes) are not probed: each copy costs a checker call on the whole model.
MAX_BYTES = 16 << 20

#: Copies asked about per form (one ``undefined-output``, the rest a short and a long payload per initializer).
MAX_PROBES = 5


@dataclasses.dataclass(frozen=True)
class Probe:
    """One copy of a form broken in one rule: ``kind`` (``undefined-output`` / ``short-payload``), ``site``
    (the output or initializer name), ``rule`` (what it breaks and where the spec says so), ``model``."""

    kind: str
    site: str
    rule: str
    model: onnx.ModelProto


def _defined(graph: onnx.GraphProto) -> set[str]:
    return (
        {i.name for i in graph.input} | {t.name for t in graph.initializer} | {o for n in graph.node for o in n.output}
    )


def _resized(t: onnx.TensorProto, field: str, step: int) -> bool:
    """Drop (``step`` -1) or repeat (+1) ``t``'s last element in ``field``; False when it cannot be done soundly."""
    if field == "raw_data":
        size = 1 if t.data_type in PACKED else onnx.helper.tensor_dtype_to_np_dtype(t.data_type).itemsize
        if len(t.raw_data) < 2 * size:
            return False
        t.raw_data = t.raw_data[:-size] if step < 0 else t.raw_data + t.raw_data[-size:]
        return True
    if t.data_type in PACKED:
        return False
    values = getattr(t, field)
    if step < 0:
        del values[-1]
    else:
        values.append(values[-1])
    return True


def _unreadable(t: onnx.TensorProto) -> bool:
    """onnx's own reader fails on ``t`` (the second opinion that the copy is broken)."""
    from onnx import numpy_helper

    try:
        numpy_helper.to_array(t)
    except Exception:  # noqa: BLE001 - any failure is the reader refusing the payload
        return True
    return False


def probes(model: onnx.ModelProto, limit: int = MAX_PROBES) -> list[Probe]:
    """The broken copies of ``model`` (see the module docstring), at most ``limit``, each verified broken."""
    out: list[Probe] = []
    g = model.graph
    if g.output:
        defined = _defined(g)
        name = g.output[0].name + "__undefined"
        while name in defined:
            name += "_"
        m = onnx.ModelProto()
        m.CopyFrom(model)
        m.graph.output[0].name = name
        out.append(
            Probe(
                "undefined-output",
                name,
                "IR.md §Names Within a Graph: a graph output is a use, and a value used must have a definition "
                "(graph input, initializer or node output); nothing defines it",
                m,
            )
        )
    seen: set[tuple[int, str]] = set()
    for i, t in enumerate(g.initializer):
        field = data_field(t)
        n = 1
        for d in t.dims:
            n *= d
        if field is None or n < 2 or t.HasField("segment") or (t.data_type, field) in seen:
            continue
        seen.add((t.data_type, field))
        dtype = onnx.TensorProto.DataType.Name(t.data_type)
        for kind, step, what in (("short-payload", -1, "fewer"), ("long-payload", 1, "more")):
            m = onnx.ModelProto()
            m.CopyFrom(model)
            if _resized(m.graph.initializer[i], field, step) and _unreadable(m.graph.initializer[i]):
                rule = (
                    f"onnx.proto TensorProto: {dtype} {list(t.dims)} holds {n} elements; its {field} now holds {what} "
                    "(onnx.numpy_helper.to_array refuses it)"
                )
                out.append(Probe(kind, t.name, rule, m))
        if len(out) >= limit:
            break
    return out[:limit]


class _Probed(Protocol):
    kind: str
    site: str
    rule: str
    model: onnx.ModelProto


def accepted_copies(
    run: FormRun,
    copies: Callable[[onnx.ModelProto], Sequence[_Probed]],
    checker: Callable[..., str | None],
    *,
    full_check: bool,
    max_bytes: int,
    oracle: str,
    message: Callable[[Any], str],
) -> list[Finding]:
    """The probe loop shared by this oracle and :mod:`passcheck.oracles.inference_probes`: one
    ``validity-disagreement`` (pass ``input``, ``oracle``'s, worded by ``message(probe)``, with the probe's ``kind``,
    ``site`` and ``rule``) per copy of ``copies(run.model)`` that ``checker(copy, full_check=full_check)`` accepts
    (returns None), asked only when the run is the input's, the form is at most ``max_bytes`` serialized and the same
    checker accepts the form itself. A :class:`~passcheck.oracles.validity.CheckerDied` message (a checker that died or
    timed out on a copy) is no verdict, hence no finding. Raises nothing of its own."""
    if run.pass_id != INPUT or run.output is None or run.model.ByteSize() > max_bytes:
        return []
    if checker(run.model, full_check=full_check) is not None:
        return []
    found = []
    for p in copies(run.model):
        if checker(p.model, full_check=full_check) is None:
            found.append(
                run.finding("validity-disagreement", oracle, message(p), probe=p.kind, site=p.site, rule=p.rule)
            )
    return found


def check(run: FormRun) -> list[Finding]:
    """``validity-disagreement`` per probe of the form (pass ``input``) that the checker accepts, when it accepts
    the form itself; nothing for a checker that dies or times out on a probe (no verdict)."""
    from passcheck.oracles.validity import plain_checker_error

    checker: Callable[..., str | None] = run.checker or (lambda m, full_check=False: plain_checker_error(m))
    return accepted_copies(
        run,
        probes,
        checker,
        full_check=False,
        max_bytes=MAX_BYTES,
        oracle=NAME,
        message=lambda p: (
            f"the onnx checker accepts this form broken in one rule ({p.kind} at {p.site!r}): {brief(p.rule)}"
        ),
    )


class CheckerProbes(BaseOracle):
    """See the module docstring: the checker asked about broken copies of each form it accepts."""

    id = NAME
    kinds = frozenset({INPUT})

    def check(self, run: FormRun, cells: Cells) -> list[Finding]:
        return check(run)


ORACLE = CheckerProbes()
