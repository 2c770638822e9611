"""onnxruntime's own ops in a model onnxruntime saved: what the onnx checker cannot judge.

onnxruntime's graph transformers at ``extended`` and ``all`` write contrib ops (onnxruntime docs,
"Graph optimizations": the saved model "may contain hardware specific optimizations" and is meant
for onnxruntime). Most live in the ``com.microsoft`` domains, which ``onnx.checker`` skips (it only
requires schemas for the onnx domains); some (``LayerNormalization`` before opset 17,
``SimplifiedLayerNormalization``) onnxruntime registers in the ai.onnx domain itself, where the
checker fails with "No Op registered for ...". Such a node is onnxruntime's, not an invalid use of
the ai.onnx domain: the model is judged as the onnxruntime model it is (the checker on every other
node, onnxruntime loading it and computing the same as the input).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import TYPE_CHECKING

from passcheck.runtime.graph_index import per_model

if TYPE_CHECKING:
    import onnx

#: Domains onnx's checker requires a schema for (``onnx/checker.cc``: ai.onnx, ai.onnx.ml, training).
_ONNX_DOMAINS = ("", "ai.onnx")
_HIDDEN = "com.microsoft"  # a domain the checker does not judge, and onnxruntime's own
#: Where :func:`without_ort_own` moves onnxruntime's own ai.onnx-domain nodes: a domain of its own, imported
#: for them alone, so a ``com.microsoft`` node of the model still needs the model's own import of that domain.
MOVED = "com.microsoft.passcheck-moved"


@functools.cache
def _ort_schemas() -> dict[tuple[str, str], int]:
    """``(domain, op_type)`` → the lowest ``since_version`` onnxruntime registers (its own contrib
    schemas and onnx's, as ``get_all_operator_schema`` lists them); empty without onnxruntime."""
    try:
        from onnxruntime.capi import onnxruntime_pybind11_state as ort_c

        schemas = ort_c.get_all_operator_schema()
    except Exception:  # noqa: BLE001 - no onnxruntime (or a build without schemas): nothing is its own
        return {}
    out: dict[tuple[str, str], int] = {}
    for s in schemas:
        key = (s.domain or "", s.name)
        out[key] = min(out.get(key, s.since_version), s.since_version)
    return out


def _nodes(graph: onnx.GraphProto) -> Iterator[onnx.NodeProto]:
    for node in graph.node:
        yield node
        for attr in node.attribute:
            if attr.g.node:
                yield from _nodes(attr.g)
            for g in attr.graphs:
                yield from _nodes(g)


def _opset(model: onnx.ModelProto) -> int:
    return next((o.version for o in model.opset_import if o.domain in _ONNX_DOMAINS), 0)


def ort_own(model: onnx.ModelProto) -> list[onnx.NodeProto]:
    """Nodes of ``model`` in the ai.onnx domain that onnx has no schema for at the model's opset
    and onnxruntime registers (at a ``since_version`` ≤ that opset): onnxruntime's own ops."""
    import onnx.defs

    version, known = _opset(model), _ort_schemas()
    return [
        n
        for n in _nodes(model.graph)
        if n.domain in _ONNX_DOMAINS
        and not onnx.defs.has(n.op_type, version, "")
        and known.get(("", n.op_type), version + 1) <= version
    ]


#: The name prefix onnxruntime gives the Casts it inserts around a kernel it lacks for an element
#: type (its InsertCastTransformer, at every optimization level: e.g. float16 computed in float):
#: kernel coverage, not an optimization of the pass.
ORT_INSERTED_CAST = "InsertedPrecisionFreeCast_"


def inserted_casts(model: onnx.ModelProto, output: onnx.ModelProto) -> list[str]:
    """Names of the main-graph Cast nodes of ``output`` (a pass output of ``model``) that onnxruntime
    inserted (:data:`ORT_INSERTED_CAST`); a node of that name already in ``model`` is not one.

    Both reads are made once per model object inside a :func:`passcheck.runtime.graph_index.shared` block (the
    parity oracle asks for every pair of forms, folding for every output); ``model``'s names only when
    ``output`` has such a Cast."""
    named = _prefixed_casts(output)
    if not named:
        return []
    own = _node_names(model)
    return [name for name in named if name not in own]


@per_model
def _prefixed_casts(output: onnx.ModelProto) -> tuple[str, ...]:
    """Names of ``output``'s main-graph ai.onnx Cast nodes that carry :data:`ORT_INSERTED_CAST`, in node order."""
    return tuple(
        n.name
        for n in output.graph.node
        if n.op_type == "Cast" and n.domain in _ONNX_DOMAINS and n.name.startswith(ORT_INSERTED_CAST)
    )


@per_model
def _node_names(model: onnx.ModelProto) -> frozenset[str]:
    return frozenset(n.name for n in model.graph.node)


def contrib_ops(model: onnx.ModelProto) -> list[str]:
    """``domain::op_type`` of every onnxruntime op in ``model``, sorted, without repeats: the
    ``com.microsoft*`` domains and :func:`ort_own` nodes of the ai.onnx domain."""
    ours = {f"ai.onnx::{n.op_type}" for n in ort_own(model)}
    ms = {f"{n.domain}::{n.op_type}" for n in _nodes(model.graph) if n.domain.startswith(_HIDDEN)}
    return sorted(ours | ms)


def without_ort_own(model: onnx.ModelProto) -> onnx.ModelProto | None:
    """A copy of ``model`` with its :func:`ort_own` nodes moved to the :data:`MOVED` domain, which the
    copy imports (the checker then judges every other node, the model's own opset imports included),
    or None when it has none."""
    import onnx

    if not ort_own(model):
        return None
    copy = onnx.ModelProto()
    copy.CopyFrom(model)
    for node in ort_own(copy):
        node.domain = MOVED
    copy.opset_import.append(onnx.helper.make_opsetid(MOVED, 1))
    return copy


def note(ops: list[str]) -> str:
    """The sentence a cell carries for a model holding onnxruntime's ``ops``."""
    return (
        f"onnxruntime's own ops {', '.join(ops)} (contrib ops of the saved optimized model, which onnxruntime "
        "documents as hardware specific): judged as onnxruntime's, not against the ai.onnx domain; the onnx "
        "checker judged every other node, the numeric oracle that onnxruntime loads it and computes the same"
    )
