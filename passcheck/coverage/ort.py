"""onnxruntime's graph transformers and rewrite rules on the CPU provider, and which a model triggers.

Catalogue: the transformers are the names the installed build prints in its verbose log
(``GraphTransformer <name> modified: 0|1``, one line per transformer and step) for a session at
each level, at the lowest level that lists them; the ones a session with every optimization
disabled already runs (required, not optimizations: ``MemcpyTransformer`` …) and the rule-based
containers (``Level1_RuleBasedTransformer``) are left out. The rules of each level's rule-based
transformer are never logged by name: they come from the attribution table read from
onnxruntime's sources (:mod:`passcheck.attribution.ort`, ``ort_transformers.json`` ``rules``).

Evidence: a transformer triggered when the log says ``GraphTransformer <name> modified: 1``; a
rule when its level's container logged ``modified: 1`` and disabling the rule
(``disabled_optimizers``) changes the optimized graph (found by splitting the rule list in halves,
so a model that triggers k of n rules costs about k·log2(n) sessions). Every function here opens
sessions in the calling process: call it through ``IsolatedExecutor.call``.
"""

from __future__ import annotations

import json
import re
import tempfile
from collections.abc import Sequence
from functools import cache
from pathlib import Path

from passcheck.coverage._capture import stderr_fd
from passcheck.coverage.entry import Entry, key

TOOL = "onnxruntime"
#: onnxruntime level number → passcheck level name (the pass ``ort:<name>``).
LEVEL_NAMES = {"1": "basic", "2": "extended", "3": "all"}
_MODIFIED = re.compile(r"GraphTransformer (\S+) modified: (\d)")
_CONTAINER = re.compile(r"Level(\d)_RuleBasedTransformer")


def _passes(level: str) -> tuple[str, ...]:
    names = list(LEVEL_NAMES.values())
    return tuple(f"ort:{n}" for n in names[names.index(level) :])


@cache
def rules() -> dict[str, tuple[str, ...]]:
    """Level number → the rewrite rules of its rule-based transformer (from ``ort_transformers.json``)."""
    import passcheck.attribution

    path = Path(passcheck.attribution.__file__).with_name("ort_transformers.json")
    table = json.loads(path.read_text(encoding="utf-8"))
    return {lv: tuple(names) for lv, names in table["rules"].items()}


def _session(model_bytes: bytes, level: str, disabled: Sequence[str] = (), verbose: bool = False) -> tuple[str, bytes]:
    """(the verbose log, the optimized graph's bytes) of a CPU session at ``level`` (``disabled``, ``basic`` …)."""
    import onnx
    import onnxruntime as ort

    from passcheck.passes.ort_optimizer import LEVELS

    with tempfile.TemporaryDirectory(prefix="passcheck-cov-") as d:
        so = ort.SessionOptions()
        so.graph_optimization_level = getattr(ort.GraphOptimizationLevel, LEVELS[level])
        so.optimized_model_filepath = str(Path(d) / "opt.onnx")
        so.intra_op_num_threads = 1
        so.log_severity_level = 0 if verbose else 4
        so.log_verbosity_level = 1 if verbose else 0
        with stderr_fd() as log:
            ort.InferenceSession(
                model_bytes, so, providers=["CPUExecutionProvider"], disabled_optimizers=list(disabled) or None
            )
        graph = onnx.load(so.optimized_model_filepath, load_external_data=False).graph
        return (log[0] if verbose else ""), graph.SerializeToString()


def logged_names(model) -> dict[str, str]:
    """Transformer name → the lowest level (``basic``, ``extended``, ``all``) whose session logs it, for
    ``model`` (any model the build accepts: the names do not depend on it); required transformers
    and the rule-based containers left out."""
    data = model.SerializeToString()
    seen = {n for n, _ in _MODIFIED.findall(_session(data, "disabled", verbose=True)[0])}
    out: dict[str, str] = {}
    for level in LEVEL_NAMES.values():
        for name, _ in _MODIFIED.findall(_session(data, level, verbose=True)[0]):
            if name not in seen and not _CONTAINER.fullmatch(name):
                out.setdefault(name, level)
    return out


def catalogue(logged: dict[str, str]) -> list[Entry]:
    """The entries: ``logged`` (from :func:`logged_names`) as transformers, the table's rules."""
    log = "the installed build's verbose log"
    out = [Entry(TOOL, "transformer", n, _passes(lv), lv, log) for n, lv in sorted(logged.items())]
    for lv, names in rules().items():
        out += [
            Entry(
                TOOL,
                "rule",
                n,
                _passes(LEVEL_NAMES[lv]),
                LEVEL_NAMES[lv],
                f"ort_transformers.json (onnxruntime sources: Level{lv} rewrite rules)",
            )
            for n in names
        ]
    return out


def triggers(model) -> dict[str, str]:
    """Entry key → the effect observed, for every transformer and rule ``model`` triggers (see module docs).

    Raises:
        onnxruntime's exceptions: the model does not load in a session.
    """
    data = model.SerializeToString()
    log, _ = _session(data, "all", verbose=True)
    out: dict[str, str] = {}
    fired = {n for n, m in _MODIFIED.findall(log) if m == "1"}
    for name in sorted(fired):
        if (m := _CONTAINER.fullmatch(name)) is None:
            out[key(TOOL, "transformer", name)] = f"verbose log at ort:all: GraphTransformer {name} modified: 1"
        elif m.group(1) in rules():
            level = LEVEL_NAMES[m.group(1)]
            _, reference = _session(data, level)
            for rule in _changing(data, level, reference, list(rules()[m.group(1)])):
                out[key(TOOL, "rule", rule)] = (
                    f"{name} modified: 1, and disabling {rule} at ort:{level} changes the optimized graph"
                )
    return out


def _changing(data: bytes, level: str, reference: bytes, names: list[str]) -> list[str]:
    """The names of ``names`` whose disabling alone changes the optimized graph (halving: a group
    whose disabling changes nothing is dropped whole)."""
    if not names or _session(data, level, names)[1] == reference:
        return []
    if len(names) == 1:
        return names
    half = len(names) // 2
    return _changing(data, level, reference, names[:half]) + _changing(data, level, reference, names[half:])
