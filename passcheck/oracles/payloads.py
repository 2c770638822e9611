"""Payloads: every tensor a pass writes holds as many elements as its dims say.

onnx.proto TensorProto: the data fields hold the tensor's elements and ``dims`` their count (``onnx.helper.make_tensor``
refuses any other count); onnxruntime refuses such a tensor at load. onnx 1.23's checker rejects a payload only when
it is too small (docs/found.md row 998; before 1.23 in neither direction, onnx/onnx#8211, #8319), so a pass that
writes one too long passes the validity oracle. This oracle reads the pass output's tensors (initializers and
``Constant`` ``value`` attributes of the main graph, subgraphs and model-local functions) by arithmetic on the field
lengths, no copy of the data: the count a field holds against ``dims`` (``raw_data``: bytes per element;
``float_data`` / ``double_data`` of complex types: two entries per element). Not judged: external data, segments,
the packed 4- and 2-bit types, tensors with no data field at all (the checker's "one and only one value field").

A mismatch the pass input does not already have (by scope, name and counts) is a ``spec-violation`` with the tensor,
its dims, field and counts; only on pass cells (a form is built valid).
"""

from __future__ import annotations

from collections.abc import Iterator

import onnx

from passcheck.oracles._context import FormRun
from passcheck.oracles._contract import PASS, BaseOracle, Cells
from passcheck.records import Finding
from passcheck.runtime.plan import graph_scopes, node_label

NAME = "payloads"

#: Element types onnx packs several to a byte (onnx.proto: 4-bit two, 2-bit four a byte).
PACKED = frozenset(
    getattr(onnx.TensorProto, n)
    for n in ("INT4", "UINT4", "FLOAT4E2M1", "INT2", "UINT2")
    if hasattr(onnx.TensorProto, n)
)
_COMPLEX = frozenset({onnx.TensorProto.COMPLEX64, onnx.TensorProto.COMPLEX128})
_TYPED = ("float_data", "int32_data", "int64_data", "double_data", "uint64_data", "string_data")


def data_field(t: onnx.TensorProto) -> str | None:
    """The field holding ``t``'s elements: ``raw_data``, else the first non-empty typed field; None when the data is
    external or no field holds any (onnx.proto TensorProto: one and only one value field)."""
    if t.data_location == onnx.TensorProto.EXTERNAL:
        return None
    if t.raw_data:
        return "raw_data"
    return next((f for f in _TYPED if len(getattr(t, f))), None)


def mismatch(t: onnx.TensorProto) -> tuple[str, int, int] | None:
    """(field, entries held, entries the dims need) when ``t``'s data field disagrees with its dims, else None
    (also for what is not judged: see the module docstring)."""
    field = data_field(t)
    if field is None or t.HasField("segment") or t.data_type in PACKED:
        return None
    n = 1
    for d in t.dims:
        n *= d
    if field == "raw_data":
        held, need = len(t.raw_data), n * onnx.helper.tensor_dtype_to_np_dtype(t.data_type).itemsize
    else:
        held, need = len(getattr(t, field)), 2 * n if t.data_type in _COMPLEX else n
    return None if held == need else (field, held, need)


def _tensors(model: onnx.ModelProto) -> Iterator[tuple[str, onnx.TensorProto]]:
    """(scope label, tensor) for every initializer and Constant ``value`` of every graph and local function; scopes
    as :func:`passcheck.runtime.plan.graph_scopes` names them (``main`` for the main graph), a Constant's label its
    scope and node label."""
    for scope, g in graph_scopes(model):
        label = scope or "main"
        for t in getattr(g, "initializer", ()):
            yield label, t
        for i, n in enumerate(g.node):
            if n.op_type == "Constant" and n.domain in ("", "ai.onnx"):
                for a in n.attribute:
                    if a.name == "value" and a.type == onnx.AttributeProto.TENSOR:
                        yield f"{label}/{node_label(n, i)}", a.t


def _bad(model: onnx.ModelProto) -> dict[tuple[str, str], tuple[str, int, int]]:
    return {(label, t.name): m for label, t in _tensors(model) if (m := mismatch(t)) is not None}


def check(run: FormRun) -> list[Finding]:
    """``spec-violation`` per tensor of the pass output whose payload disagrees with its dims, unless the input's
    tensor of that scope and name disagreed the same way."""
    out = run.output
    if run.pass_id == "input" or out is None:
        return []
    before = _bad(run.model)
    found = []
    for (label, name), (field, held, need) in _bad(out).items():
        if before.get((label, name)) == (field, held, need):
            continue
        found.append(
            run.finding(
                "spec-violation",
                NAME,
                f"{run.pass_id} wrote tensor {name!r} ({label}) whose {field} holds {held} entries where its dims need "
                f"{need} (onnx.proto TensorProto; the checker lets a long payload through)",
                tensor=name,
                scope=label,
                field=field,
                held=held,
                need=need,
            )
        )
    return found


class Payloads(BaseOracle):
    """See the module docstring: a pass output's tensor payloads against their dims."""

    id = NAME
    kinds = frozenset({PASS})

    def check(self, run: FormRun, cells: Cells) -> list[Finding]:
        return check(run)


ORACLE = Payloads()
