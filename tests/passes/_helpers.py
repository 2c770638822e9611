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
