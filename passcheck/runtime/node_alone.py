"""A second opinion on a value only onnx's reference evaluator observed (M252).

onnxruntime cannot expose values inside If/Loop/Scan bodies and model-local functions, so passcheck reads them
from one reference-evaluator run (:mod:`passcheck.runtime.completion`), trusted once its graph outputs agree
with onnxruntime's. An evaluator that computes one inner node wrongly while the graph outputs still agree (a
Gather on zero indices returned as ``float[0]`` instead of ``data.shape[:axis] + indices.shape + …``,
Operators.md Gather, onnx 1.16–1.22) would then make a correct annotation look violated, and the pass blamed.

:func:`evaluator_departs` runs the value's producer node alone on onnxruntime, its inputs the values the
evaluator itself computed for them in the same iteration or call, and compares element type and shape. Where
they differ, the two runtimes disagree on that node: the evaluator's value is no evidence for or against the
annotation."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import numpy as np

from passcheck.runtime.plan import Repeated, graph_scopes

#: ``scope::name`` or ``scope::name#i`` (iteration or call ``i``).
_KEY = re.compile(r"^(?P<scope>.+)::(?P<name>[^#]+?)(?:#(?P<i>\d+))?$")


def _producer(model: Any, scope: str, name: str) -> Any:
    """The node of ``scope`` (a subgraph or model-local function, :func:`graph_scopes`) computing ``name``."""
    for s, g in graph_scopes(model):
        if s == scope:
            return next((n for n in g.node if name in n.output), None)
    return None


def _value(observed: Mapping[str, Any], scope: str, name: str, i: int) -> Any:
    """``name`` as seen from ``scope`` at iteration / call ``i``: the scope's own value, else an enclosing
    subgraph's when it took one value in the run, else the main graph's; None when not observed (or when an
    enclosing scope ran more than once: which of its values this call read is not recorded)."""
    own = True
    while True:
        v = observed.get(f"{scope}::{name}" if scope else name)
        if isinstance(v, Repeated):
            v = v[i] if own and i < len(v) else (v[0] if len(v) == 1 and not own else None)
        if v is not None or not scope or scope.startswith("function"):
            return v
        scope, own = (scope.rsplit("/", 1)[0] if "/" in scope else ""), False


def evaluator_departs(model: Any, observed: Mapping[str, Any], key: str) -> str | None:
    """Why the reference evaluator's value of ``key`` (``scope::name[#i]``, a value inside a subgraph or
    model-local function of ``model``) is no evidence, or None.

    ``observed``: the evaluator's run of ``model`` (``RunResult.observed``: every value of every scope,
    :class:`~passcheck.runtime.plan.Repeated` per iteration or call). The value's producer node is built into a
    one-node model (the model's opset imports; each input a graph input of the observed dtype and shape) and run
    on onnxruntime (CPU, unoptimized) with the evaluator's own values of its inputs. A string when onnxruntime's
    output has another element type or shape than the evaluator's value (the two runtimes disagree on the same
    node and inputs). None when they agree, or when no second opinion can be had: a main-graph key, a node with
    a graph attribute, an attribute reference, a call of a model-local function, an input not observed or not a
    tensor, or onnxruntime failing on the node alone. Never raises."""
    import onnx
    from onnx import helper

    from passcheck.runtime.session import run_ort

    m = _KEY.match(key)
    if m is None:
        return None
    scope, name, i = m["scope"], m["name"], int(m["i"] or 0)
    node = _producer(model, scope, name)
    local = {(f.domain, f.name) for f in model.functions}
    if (
        node is None
        or (node.domain, node.op_type) in local
        or any(
            a.ref_attr_name or a.type in (onnx.AttributeProto.GRAPH, onnx.AttributeProto.GRAPHS) for a in node.attribute
        )
    ):
        return None
    ours = _value(observed, scope, name, i)
    feeds = {n: _value(observed, scope, n, i) for n in node.input if n}
    if not isinstance(ours, np.ndarray) or not all(isinstance(v, np.ndarray) for v in feeds.values()):
        return None
    try:
        inputs = [
            helper.make_tensor_value_info(n, helper.np_dtype_to_tensor_dtype(v.dtype), v.shape)
            for n, v in feeds.items()
        ]
        outputs = [helper.make_value_info(o, onnx.TypeProto()) for o in node.output if o]
        alone = helper.make_model(
            helper.make_graph([node], "alone", inputs, outputs),
            opset_imports=list(model.opset_import),
            ir_version=model.ir_version,
        )
    except (TypeError, ValueError, KeyError):  # a dtype onnx has no element type for
        return None
    run = run_ort(alone, feeds)
    got = None if run.error else run.outputs.get(name)
    if not isinstance(got, np.ndarray):
        return None
    if got.shape == ours.shape and got.dtype == ours.dtype:
        return None
    return (
        f"onnx's reference evaluator computes {ours.dtype}{list(ours.shape)} where onnxruntime runs the "
        f"{node.op_type} node alone on the evaluator's own inputs to {got.dtype}{list(got.shape)}: "
        "the evaluator's value is no evidence"
    )
