"""The lowest optimization level at which the installed onnxruntime runs a graph transformer.

A fusion case states that its transformer fuses the common form at ``ort:<level>`` and above
(:func:`passcheck.cases.fusion.expect_fused`). That is a fact about an onnxruntime version, not about
the model: transformers move between levels across releases. GeluFusion and LayerNormFusion run at
Level2 only in onnxruntime 1.18, and at Level1 too (registered as ``GeluFusionL1``/``LayerNormFusionL1``)
since microsoft/onnxruntime#21332 ("Move Gelu and LayerNorm fusion to L1 optimization"). Where the
installed build does not run the transformer at the pass's level, the statement is not this version's
promise: it is not checked, and the cell's notes say why.

The levels are read from the installed build's own verbose log (``GraphTransformer <name> modified``,
:func:`passcheck.passes.ort_log.logged_names` on a one-node model), once per process and onnxruntime
version, in an isolation worker (:class:`passcheck.execution.Worker`): the sessions' log goes to
file descriptor 2, which the worker redirects, so the calling process's own standard error (progress
lines a front door writes meanwhile) is never redirected. Rewrite rules
(``Pad_Fusion`` …) are never logged by name; for them, and when the log cannot be read, nothing is
concluded and the statement is checked as before.
"""

from __future__ import annotations

import functools
import re

from passcheck.passes.ort_log import LEVEL_NAMES

#: ``ort:<level>`` pass levels, lowest first (a level runs every lower one too).
LEVELS = tuple(LEVEL_NAMES.values())


#: Seconds the worker may take to open the four sessions on the one-node model.
PROBE_TIMEOUT = 120.0


def registered() -> dict[str, str] | None:
    """Transformer name → the lowest level (``basic``, ``extended``, ``all``) whose session logs it, for
    the installed onnxruntime (read once per version, in an isolation worker); None when onnxruntime or
    onnx is missing, a session fails or the worker dies."""
    from passcheck._versions import tool_version

    return _registered(tool_version("onnxruntime"))


@functools.cache
def _registered(version: str | None) -> dict[str, str] | None:
    if version is None:
        return None
    try:
        from passcheck.execution import Worker
        from passcheck.passes.ort_log import logged_names, probe_model

        model = probe_model()
        with Worker(timeout=PROBE_TIMEOUT) as worker:
            return worker.call(logged_names, model)
    except Exception:  # noqa: BLE001 - no log, no conclusion: the statement is checked
        return None


def _rules() -> set[str]:
    from passcheck.passes.ort_log import rules

    return {n for names in rules().values() for n in names}


def level_of(transformer: str, logged: dict[str, str]) -> str | None:
    """The lowest level ``logged`` gives ``transformer`` or a level-suffixed registration of it
    (``GeluFusionL1``), or None when the log names neither."""
    found = [lv for name, lv in logged.items() if re.fullmatch(rf"{re.escape(transformer)}(L\d)?", name)]
    return min(found, key=LEVELS.index) if found else None


def not_at(transformer: str, pass_id: str) -> str | None:
    """Why the installed onnxruntime does not run ``transformer`` at ``pass_id``'s level (``ort:basic`` …),
    as a sentence; None when it does, when ``pass_id`` is not an ``ort:<level>`` pass, when the name is
    a rewrite rule (never logged) or when the log could not be read."""
    level = pass_id.removeprefix("ort:")
    if not transformer or not pass_id.startswith("ort:") or level not in LEVELS or transformer in _rules():
        return None
    logged = registered()
    if logged is None:
        return None
    from passcheck._versions import tool_version

    found = level_of(transformer, logged)
    here = f"onnxruntime {tool_version('onnxruntime')} here"
    if found is None:
        return f"{here} registers no transformer {transformer} at any level (its verbose log)"
    if LEVELS.index(found) > LEVELS.index(level):
        return f"{here} runs {transformer} from ort:{found} on, not at ort:{level} (its verbose log)"
    return None
