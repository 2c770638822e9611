"""Inference probes: a form broken in one documented operator range must be refused by strict shape inference.

:mod:`passcheck.oracles.checker_probes` asks the plain checker about copies broken in one IR rule. The operator
documentation states ranges the plain checker never reads and leaves to each op's inference function (an ``axis``
inside ``[-r, r-1]``, TopK's K positive, GatherND's ``batch_dims`` below ``min(q, r)``); nothing asked whether that
function refuses a value outside them. Each node of a form strict inference accepts is therefore broken in one such
range at a time, and the checker with ``full_check=True`` (``onnx.checker.check_model`` runs
``onnx.shape_inference.infer_shapes(check_type=True, strict_mode=True)``; in the worker, so an inference function
that writes out of bounds costs one verdict, not the run) is asked about each copy. A copy it accepts is a
``validity-disagreement`` of pass ``input``: inference let through a model its op's documentation forbids (and
may have written a shape from it: TopK's K = 0 gives a dim of 0 for a K the spec says is positive).

The breaks (:data:`BREAKS`), each tied to the :mod:`passcheck.oracles.spec_table` rule it breaks and verified broken
by that rule (:func:`passcheck.oracles.conformance` on the copy, ranks from the form's own inference) before it is
asked about:

- ``axis-past-end``: ``axis = r`` on the ops of rule ``axis-<op>``
  (:data:`~passcheck.oracles.spec_table.AXIS_OPS`; Operators.md, each op's attribute axis: within [-r, r-1]), r the
  rank of the input it indexes;
- ``topk-k-zero``: TopK's K input replaced by a fresh initializer ``[0]`` (Operators.md TopK, input K: one positive
  value; rule ``topk-k-positive``, opset 10 on);
- ``batch-dims-negative``: GatherND's ``batch_dims = -1`` (Operators.md GatherND, attribute batch_dims: the number
  of leading dimensions data and indices share; rule ``gathernd-batch-dims``).

Each copy also declares nothing after its inputs (value_info dropped, its one output the first graph input; strict
inference still walks every node), so a refusal can come only from the broken range, not from a declared shape the
broken node's new output contradicts. One probe per (break, op type) per form; a graph without inputs is not
probed.

Opt-in like ``checker_probes`` (not in :data:`passcheck.oracles.registry.BUILTIN`): it judges onnx's inference, not
the form; apply it with ``registry.registered(inference_probes.ORACLE)`` around a run. Main-graph default-domain
nodes only, at most :data:`MAX_PROBES` copies per form, none of a form above :data:`MAX_BYTES`. A checker that dies
or times out on a copy gives no verdict (no finding); its message says so where the verdict is read.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import onnx

from passcheck.oracles._context import FormRun
from passcheck.oracles._contract import INPUT, BaseOracle, Cells
from passcheck.oracles.checker_probes import accepted_copies
from passcheck.oracles.spec_table import AXIS_OPS
from passcheck.records import Finding, brief

NAME = "inference_probes"

#: Forms larger than this (serialized bytes) are not probed: each copy costs a strict inference of the whole model.
MAX_BYTES = 4 << 20

#: Copies asked about per form.
MAX_PROBES = 4


@dataclasses.dataclass(frozen=True)
class Probe:
    """One copy of a form broken in one documented range: ``kind`` (a :data:`BREAKS` key), ``site`` (the node's
    name or ``#index``), ``rule`` (the spec-table rule id it breaks), ``says`` (what the rule's check reported on
    the copy), ``model``."""

    kind: str
    site: str
    rule: str
    says: str
    model: onnx.ModelProto


def _set_int(node: onnx.NodeProto, name: str, value: int) -> None:
    for a in node.attribute:
        if a.name == name:
            node.attribute.remove(a)
            break
    node.attribute.append(onnx.helper.make_attribute(name, value))


def _axis_past_end(model: onnx.ModelProto, i: int, rank: int | None) -> str | None:
    node = model.graph.node[i]
    if node.op_type not in AXIS_OPS or rank is None:
        return None
    _set_int(node, "axis", rank)
    return f"axis-{node.op_type}"


def _topk_k_zero(model: onnx.ModelProto, i: int, rank: int | None) -> str | None:
    node = model.graph.node[i]
    if node.op_type != "TopK" or len(node.input) < 2 or not node.input[1]:
        return None
    taken = {t.name for t in model.graph.initializer} | {v for n in model.graph.node for v in (*n.input, *n.output)}
    taken |= {v.name for v in model.graph.input}
    name = "topk_k_zero"
    while name in taken:
        name += "_"
    model.graph.initializer.append(onnx.helper.make_tensor(name, onnx.TensorProto.INT64, [1], [0]))
    node.input[1] = name
    return "topk-k-positive"


def _batch_dims_negative(model: onnx.ModelProto, i: int, rank: int | None) -> str | None:
    node = model.graph.node[i]
    if node.op_type != "GatherND":
        return None
    _set_int(node, "batch_dims", -1)
    return "gathernd-batch-dims"


#: kind → edit(copy, node index, rank of input 0) → the rule id it breaks, or None where it does not apply.
BREAKS: dict[str, Callable[[onnx.ModelProto, int, int | None], str | None]] = {
    "axis-past-end": _axis_past_end,
    "topk-k-zero": _topk_k_zero,
    "batch-dims-negative": _batch_dims_negative,
}


def _undeclared(model: onnx.ModelProto) -> onnx.ModelProto | None:
    """``model`` with nothing declared after its inputs: value_info dropped and its one output the first graph
    input (an output is a use of a defined name, IR.md §Names Within a Graph). Strict inference still walks every
    node, so a refusal of the copy can come only from the broken range, not from a shape the form declares that the
    broken node's new output contradicts. None for a graph without inputs."""
    if not model.graph.input:
        return None
    first = model.graph.input[0]
    del model.graph.value_info[:]
    del model.graph.output[:]
    model.graph.output.add().CopyFrom(first)
    return model


def _typed(model: onnx.ModelProto) -> onnx.ModelProto:
    try:
        return onnx.shape_inference.infer_shapes(model)
    except Exception:  # noqa: BLE001 - ranks only; without inference, the model's own value_info
        return model


def _ranks(typed: onnx.ModelProto) -> dict[str, int]:
    out = {}
    for vi in [*typed.graph.input, *typed.graph.value_info, *typed.graph.output]:
        t = vi.type.tensor_type
        if vi.type.HasField("tensor_type") and t.HasField("shape"):
            out[vi.name] = len(t.shape.dim)
    for t in typed.graph.initializer:
        out[t.name] = len(t.dims)
    return out


def _broken(rule: str, copy: onnx.ModelProto, typed: onnx.ModelProto, before: int) -> str | None:
    """What ``rule`` says of ``copy`` when it breaks there more often than on the form (``before`` times)."""
    from passcheck.oracles.conformance import _evaluate

    hits = [v for v in _evaluate(copy, typed).violations if v.rule == rule]
    return hits[0].message if len(hits) > before else None


def probes(model: onnx.ModelProto, limit: int = MAX_PROBES) -> list[Probe]:
    """The broken copies of ``model`` (see the module docstring), at most ``limit``, each verified broken."""
    from passcheck.oracles.conformance import _evaluate

    typed = _typed(model)
    ranks = _ranks(typed)
    counts: dict[str, int] = {}
    for v in _evaluate(model, typed).violations:
        counts[v.rule] = counts.get(v.rule, 0) + 1
    out: list[Probe] = []
    seen: set[tuple[str, str]] = set()
    for i, node in enumerate(model.graph.node):
        if node.domain not in ("", "ai.onnx") or len(out) >= limit:
            continue
        rank = ranks.get(node.input[0]) if node.input else None
        for kind, edit in BREAKS.items():
            if (kind, node.op_type) in seen:
                continue
            copy, typed_copy = onnx.ModelProto(), onnx.ModelProto()
            copy.CopyFrom(model)
            typed_copy.CopyFrom(typed)
            rule = edit(copy, i, rank)
            if rule is None or edit(typed_copy, i, rank) != rule:
                continue
            says = _broken(rule, copy, typed_copy, counts.get(rule, 0))
            if says is not None and (asked := _undeclared(copy)) is not None:
                seen.add((kind, node.op_type))
                out.append(Probe(kind, node.name or f"#{i}", rule, says, asked))
    return out[:limit]


def check(run: FormRun) -> list[Finding]:
    """``validity-disagreement`` per probe of the form (pass ``input``) that strict inference accepts, when it
    accepts the form itself; nothing for a checker that dies or times out on a probe (no verdict)."""
    from passcheck.oracles.validity import checker_error

    checker: Callable[..., str | None] = run.checker or checker_error
    return accepted_copies(
        run,
        probes,
        checker,
        full_check=True,
        max_bytes=MAX_BYTES,
        oracle=NAME,
        message=lambda p: (
            f"onnx shape inference (strict) accepts this form broken in one documented range ({p.kind} at "
            f"{p.site!r}, rule {p.rule}): {brief(p.says)}"
        ),
    )


class InferenceProbes(BaseOracle):
    """See the module docstring: strict inference asked about range-broken copies of each form it accepts."""

    id = NAME
    kinds = frozenset({INPUT})

    def check(self, run: FormRun, cells: Cells) -> list[Finding]:
        return check(run)


ORACLE = InferenceProbes()
