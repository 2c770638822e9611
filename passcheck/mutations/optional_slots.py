"""Every optional slot, in every scope (IR.md §Optional Inputs and Outputs, static-optional: an
unused optional input or output may be left off the end of the list or written as ``""``; an
optional output that is named is computed, one that is not may be skipped).

- ``all-empty-optional-inputs`` / ``no-empty-optional-inputs``: every omitted trailing optional
  input slot of a default-domain node written as ``""`` (up to the schema's last optional,
  non-variadic input) / every trailing ``""`` dropped; main graph, subgraphs and function bodies.
- ``named-optional-outputs`` / ``unnamed-optional-outputs``: omitted or empty optional outputs
  given fresh names nothing reads / optional outputs nothing reads (and no graph output is)
  emptied (``""``) or, when trailing, dropped.
- ``empty-optional-outputs``: omitted trailing optional outputs written as ``""``.

BatchNormalization is left alone by ``named-optional-outputs``: its optional outputs exist only in training mode
(Operators.md BatchNormalization-9: output case #2, test mode, is ``Y`` alone; -14/-15: ``training_mode``), so
naming them changes the computation. ``empty-optional-outputs`` writes its ``""`` slots like any op's: an empty name
is an omitted output (IR.md), and a tool that refuses it (onnx 1.16-1.23's inference on BatchNormalization-15,
found.md row 905) or dies on it (onnxruntime 1.18-1.32 on BatchNormalization-9, row 906) is a finding: the gate
judges such a form through its spelling without the empty slots
(:mod:`passcheck.mutations.slot_canonical`) and runs it in the caller's isolation worker.

Sites: node labels (see :mod:`passcheck.mutations._scopes`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite, all_names, chosen, fresh_name
from passcheck.mutations._freedom import Freedom
from passcheck.mutations._graph_edit import trim_trailing_empty
from passcheck.mutations._scopes import opset_of, scopes

if TYPE_CHECKING:
    import onnx

#: Ops whose optional outputs exist only in another mode of the op (Operators.md): never named by a rewrite.
_TRAINING_OUTPUTS = {"BatchNormalization"}


def _formal(model, scope, node, outputs: bool):
    """The schema's inputs (or outputs) for ``node`` in ``scope``, or None for other domains / unknown ops."""
    import onnx.defs

    if node.domain not in ("", "ai.onnx"):
        return None
    try:
        s = onnx.defs.get_schema(node.op_type, opset_of(model, scope), "")
    except onnx.defs.SchemaError:
        return None
    return s.outputs if outputs else s.inputs


def _optional(p) -> bool:
    import onnx.defs

    return p.option == onnx.defs.OpSchema.FormalParameterOption.Optional


def _nodes(model, only):
    for scope in scopes(model):
        for i, n in enumerate(scope.body.node):
            if chosen(only, label := scope.label(n, i)):
                yield scope, n, label


def all_empty_inputs(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Every omitted trailing optional input → ``""``."""
    sites = []
    for scope, n, label in _nodes(model, only):
        formal = _formal(model, scope, n, outputs=False)
        added = False
        while formal is not None and len(n.input) < len(formal) and _optional(formal[len(n.input)]):
            n.input.append("")
            added = True
        if added:
            sites.append(label)
    return sites


def no_empty_inputs(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Every trailing ``""`` input dropped."""
    sites = []
    for _scope, n, label in _nodes(model, only):
        if trim_trailing_empty(n.input):
            sites.append(label)
    return sites


def _read(model: onnx.ModelProto) -> set[str]:
    read: set[str] = set()
    for scope in scopes(model):
        b = scope.body
        for n in b.node:
            read.update(n.input)
        read.update(v.name for v in b.output) if scope.is_graph else read.update(b.output)
    return read


def named_outputs(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Omitted or empty optional outputs → fresh names nothing reads."""
    taken, sites = all_names(model), []
    for scope, n, label in _nodes(model, only):
        formal = _formal(model, scope, n, outputs=True)
        if formal is None or n.op_type in _TRAINING_OUTPUTS or any(p.option == p.option.Variadic for p in formal):
            continue
        changed = False
        for k, p in enumerate(formal):
            if not _optional(p):
                continue
            if k < len(n.output) and not n.output[k]:
                n.output[k] = fresh_name(taken, f"{n.op_type}_{p.name}")
                changed = True
            elif k >= len(n.output):
                while len(n.output) < k:
                    n.output.append("")
                n.output.append(fresh_name(taken, f"{n.op_type}_{p.name}"))
                changed = True
        if changed:
            sites.append(label)
    return sites


def unnamed_outputs(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Optional outputs nothing reads → ``""``, trailing ones dropped."""
    read, sites = _read(model), []
    for scope, n, label in _nodes(model, only):
        formal = _formal(model, scope, n, outputs=True)
        if formal is None or any(p.option == p.option.Variadic for p in formal):
            continue
        changed = False
        for k, p in enumerate(formal[: len(n.output)]):
            if _optional(p) and n.output[k] and n.output[k] not in read:
                n.output[k] = ""
                changed = True
        changed = trim_trailing_empty(n.output) or changed
        if changed and any(n.output):
            sites.append(label)
    return sites


def empty_outputs(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Omitted trailing optional outputs → ``""``."""
    sites = []
    for scope, n, label in _nodes(model, only):
        formal = _formal(model, scope, n, outputs=True)
        if formal is None or any(p.option == p.option.Variadic for p in formal):
            continue
        added = False
        while len(n.output) < len(formal) and _optional(formal[len(n.output)]):
            n.output.append("")
            added = True
        if added:
            sites.append(label)
    return sites


REWRITES = (
    Rewrite(
        "all-empty-optional-inputs",
        'every omitted trailing optional input → "" (every scope)',
        all_empty_inputs,
        inverse="no-empty-optional-inputs",
    ),
    Rewrite(
        "no-empty-optional-inputs",
        'every trailing "" input → omitted (every scope)',
        no_empty_inputs,
        inverse="all-empty-optional-inputs",
    ),
    Rewrite(
        "named-optional-outputs",
        "omitted or empty optional outputs → fresh names nothing reads",
        named_outputs,
        inverse="unnamed-optional-outputs",
    ),
    Rewrite(
        "unnamed-optional-outputs",
        'optional outputs nothing reads → "" (trailing ones dropped)',
        unnamed_outputs,
        inverse="named-optional-outputs",
    ),
    Rewrite(
        "empty-optional-outputs",
        'omitted trailing optional outputs → ""',
        empty_outputs,
        inverse="unnamed-optional-outputs",
    ),
)

FREEDOMS = (
    Freedom(
        "every-optional-input-slot",
        "optional and variadic slots",
        "IR.md §Optional Inputs and Outputs (static-optional)",
        'Each unused optional input slot may be omitted (trailing) or written as ""; a node may spell every trailing '
        "slot explicitly.",
        ("all-empty-optional-inputs", "no-empty-optional-inputs"),
        "every default-domain node of every scope (main graph, subgraphs, function bodies); composes with "
        "trailing-optional-input (which writes only the first slot, main graph).",
    ),
    Freedom(
        "optional-output-named-or-not",
        "optional and variadic slots",
        "IR.md §Optional Inputs and Outputs (an "
        "optional "
        "output that is named is computed; one left unnamed may be skipped)",
        "An optional output nothing reads may be named (and computed for nothing) or left unnamed; the other outputs "
        "are the same.",
        ("named-optional-outputs", "unnamed-optional-outputs"),
        "default-domain nodes of every scope (Dropout mask, MaxPool Indices, LSTM/GRU/RNN Y and Y_h, "
        "LayerNormalization Mean/InvStdDev, …); BatchNormalization left alone (training-mode outputs).",
        evidence="tests/mutations/test_catalogue_limits.py::test_batchnorm_9_with_empty_optional_outputs_crashes_onnxruntime",
    ),
    Freedom(
        "optional-output-empty-name",
        "optional and variadic slots",
        "IR.md §Optional Inputs and Outputs (the empty string in place of an output name)",
        "An omitted trailing optional output may be written as the empty name instead.",
        ("empty-optional-outputs", "unnamed-optional-outputs"),
        "default-domain nodes of every scope, BatchNormalization too (onnx's inference refuses "
        'BatchNormalization-15 with "" outputs, found.md row 905; onnxruntime dies on BatchNormalization-9 with them, '
        "row 906: the gate judges the form through its spelling without the empty slots, mutations/slot_canonical.py); "
        'unnamed-optional-outputs drops trailing "" outputs again.',
        evidence="tests/mutations/test_slot_canonical.py::test_the_gate_keeps_batchnorm_9_with_empty_outputs_onnxruntime_dies_on",
    ),
)
