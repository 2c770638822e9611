"""onnxoptimizer's passes (``onnxoptimizer:optimize``, ``onnxoptimizer:opt-in`` and each
``onnxoptimizer:pass-NAME``), and which a model triggers.

Catalogue, read from the installed package: one ``pass`` entry per pass ``get_available_passes()`` lists and
passcheck runs (:func:`passcheck.passes.onnxoptimizer_passes.available`: the passes whose own source says they
change the model's interface are left out). An entry names the passcheck passes that run it: its own
``onnxoptimizer:pass-NAME``, and ``onnxoptimizer:optimize`` when ``get_fuse_and_elimination_passes()`` (what
``optimize(model)`` applies) lists it, ``onnxoptimizer:opt-in`` otherwise. Its scope says which of the two.

Evidence, by effect: each pass runs alone on a copy of the model (``optimize(model, [NAME])``) and is
compared with the same model through ``optimize(model, ["nop"])`` (the C++ IR round trip without a rewrite, so
re-serialization is not taken for an effect). A pass triggered when its graph differs; the effect names the first
op type whose node count fell (``fuse_bn_into_conv replaced BatchNormalization node (nodes 3→2)``, the wording
:mod:`passcheck.hunt.nearness` reads op types from), else the first whose count rose (``wrote Gemm node``), else
the initializer counts. All passes are first run together: a model none of them changes costs two calls.
A pass that raises on the model gives no evidence (its failure is a finding of the hunt, not an effect).
"""

from __future__ import annotations

import contextlib
from collections import Counter
from typing import Any

from passcheck.coverage.entry import Entry, key

TOOL = "onnxoptimizer"
DEFAULT = "onnxoptimizer:optimize"
_SOURCE = "onnxoptimizer.get_available_passes() and get_fuse_and_elimination_passes() (installed)"


def catalogue() -> list[Entry]:
    """The entries of the installed onnxoptimizer (see module docs).

    Raises:
        ImportError: onnxoptimizer is not installed (the catalogue is then unavailable, with this reason).
    """
    import onnxoptimizer

    from passcheck.passes.onnxoptimizer_passes import NOT_REWRITING, OPT_IN, available, pass_id

    default = set(onnxoptimizer.get_fuse_and_elimination_passes())
    out = []
    for name in available():
        if name in NOT_REWRITING:
            continue
        runs = DEFAULT if name in default else OPT_IN
        scope = "default passes" if name in default else "opt-in passes"
        out.append(Entry(TOOL, "pass", name, (pass_id(name), runs), scope, _SOURCE))
    return out


def _graph(model: Any) -> bytes:
    return model.graph.SerializeToString(deterministic=True)


def _effect(name: str, before: Any, after: Any) -> str:
    ops0 = Counter(n.op_type for n in before.graph.node)
    ops1 = Counter(n.op_type for n in after.graph.node)
    nodes = f"nodes {len(before.graph.node)}→{len(after.graph.node)}"
    fell = [op for op in ops0 if ops1[op] < ops0[op]]
    if fell:
        return f"{name} replaced {fell[0]} node ({nodes})"
    rose = [op for op in ops1 if ops1[op] > ops0[op]]
    if rose:
        return f"{name} wrote {rose[0]} node ({nodes})"
    return f"{name}: graph changed (initializers {len(before.graph.initializer)}→{len(after.graph.initializer)})"


def triggers(model) -> dict[str, str]:
    """Entry key → effect for every pass that changes ``model``'s graph when run alone (module docs)."""
    import onnxoptimizer

    names = [e.name for e in catalogue()]
    base = onnxoptimizer.optimize(model, ["nop"])
    with contextlib.suppress(Exception):  # some pass fails on this model: look at each one
        if _graph(onnxoptimizer.optimize(model, names)) == _graph(base):
            return {}
    seen: dict[str, str] = {}
    for name in names:
        try:
            got = onnxoptimizer.optimize(model, [name])
        except Exception:  # noqa: BLE001 - a failing pass is a finding elsewhere, not an effect
            continue
        if _graph(got) != _graph(base):
            seen[key(TOOL, "pass", name)] = _effect(name, base, got)
    return seen
