"""What a pass inferred of each graph output, with whether the run confirmed it: the record the matrix compares
across environments (:mod:`passcheck.matrix.cross_env`, a ``less-precise`` finding on the environment whose tool
inferred less of the same model bytes).

Only passes that do not rewrite the graph (``optimizes`` false: shape inference, the checker, the converter) are
recorded: their output differs from their input in what they state about values, so a graph output's type is what
the tool concluded from the same bytes. IR.md §Static tensor shapes: a dim is a ``dim_value``, a ``dim_param`` or
unknown, a shape may be absent (rank unknown), and TypeProto.Tensor's ``elem_type`` 0 (UNDEFINED) states nothing.
Cells of a run in a named environment (the matrix worker, ``hunt --env``) carry it; a ``local`` run has no other
environment to compare with and records nothing (:class:`passcheck.oracles.judged.Judged`).
"""

from __future__ import annotations

from typing import Any

from passcheck.oracles import annotations, parity
from passcheck.oracles._context import FormRun
from passcheck.records import INPUT


def recorded(run: FormRun) -> bool:
    """Whether :func:`record` keeps ``run``'s types: a pass (not the input cell) that does not rewrite the graph
    and produced an output."""
    return run.pass_id != INPUT and not run.optimizes and not run.folds_constants and run.output is not None


def record(run: FormRun) -> dict[str, dict[str, Any]]:
    """Graph output name → ``{"type": '[2, "N", ?]', "elem_type": int, "precision": [rank known, dim_values,
    named dims], "dims": [int | None, …] | None, "holds": bool}`` for each tensor-typed graph output of the pass
    output of ``run`` (``{}`` when not :func:`recorded`). ``precision`` is :func:`passcheck.oracles.parity.precision`
    (a name the tool made up for one unknown dim counts as unnamed); ``dims`` gives each ``dim_value`` (None for a
    named or unknown dim), None when the rank is unknown; ``holds`` is
    :func:`passcheck.oracles.annotations.holds`: the annotation was checked in every run and held."""
    if not recorded(run):
        return {}
    fresh = parity.fresh_names(run)
    out: dict[str, dict[str, Any]] = {}
    for o in run.output.graph.output:
        p = parity.precision(o.type, fresh)
        if p is None:
            continue
        tt = o.type.tensor_type
        dims = None
        if tt.HasField("shape"):
            dims = [d.dim_value if d.HasField("dim_value") else None for d in tt.shape.dim]
        out[o.name] = {
            "type": parity.type_str(o.type),
            "elem_type": tt.elem_type,
            "precision": list(p),
            "dims": dims,
            "holds": annotations.holds(run, o.name),
        }
    return out
