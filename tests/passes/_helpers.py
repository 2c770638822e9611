"""Shared by the pass tests: a registered (deliberately broken) adapter's cell, and a reproducer's ``apply``."""

from __future__ import annotations

import os
import tempfile

import onnx

from passcheck.api import check_model
from passcheck.passes import register_pass, unregister_pass


def cell_of(adapter, model, name: str):
    """The common-form cell of ``adapter`` (registered for the call only) run by ``check_model`` on ``model``."""
    register_pass(adapter)
    try:
        report = check_model(model, [adapter.id], name=name)
    finally:
        unregister_pass(adapter.id)
    (cell,) = [c for c in report.cells if c.pass_id == adapter.id]
    return cell


def script_apply(call):
    """The ``apply`` function of a reproducer's :class:`~passcheck.repro.tools.ToolCall`, defined as a script does."""
    space = {"onnx": onnx, "os": os, "tempfile": tempfile}
    for line in call.imports:
        exec(line, space)
    exec(call.source, space)
    return space["apply"]


def through_output(out, op_type: str, value: float, name: str):
    """``out`` with its only graph output passed through ``op_type(output, value)`` (a float32 scalar
    initializer ``name``), under the output's name: a planted change of a pass's result."""
    import numpy as np
    from onnx import helper, numpy_helper

    (o,) = out.graph.output
    inner = o.name + "_" + name
    for n in out.graph.node:
        n.output[:] = [inner if x == o.name else x for x in n.output]
    out.graph.initializer.append(numpy_helper.from_array(np.array(value, np.float32), name))
    out.graph.node.append(helper.make_node(op_type, [inner, name], [o.name]))
    return out
