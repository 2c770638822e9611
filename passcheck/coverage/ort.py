"""onnxruntime's graph transformers and rewrite rules on the CPU provider, and which a model triggers.

Catalogue: the transformers are the names the installed build prints in its verbose log
(``GraphTransformer <name> modified: 0|1``, one line per transformer and step) for a session at
each level, at the lowest level that lists them; the ones a session with every optimization
disabled already runs (required, not optimizations: ``MemcpyTransformer`` …) and the rule-based
containers (``Level1_RuleBasedTransformer``) are left out. The rules of each level's rule-based
transformer are never logged by name: they come from the attribution table read from
onnxruntime's sources (:mod:`passcheck.attribution.ort`, ``ort_transformers.json`` ``rules``).

Session config keys (:data:`passcheck.passes.ort_config.KEYS`): one ``config`` entry per key (``name=value``,
run by its ``ort:<level>+<key>=<value>`` passes), and the transformers or rules only the key registers
(``GeluApproximation``, ``CastChainElimination`` …) as entries of their own run by those passes alone; a key
triggered when its session's optimized graph differs from the plain level's, and a transformer it enables when
the key's verbose log says ``modified: 1`` (a rule: the key changed the graph, its one added rule is the cause).

Evidence: a transformer triggered when the log says ``GraphTransformer <name> modified: 1``; a
rule when its level's container logged ``modified: 1`` and disabling the rule
(``disabled_optimizers``) changes the optimized graph (found by splitting the rule list in halves,
so a model that triggers k of n rules costs about k·log2(n) sessions). Every function here opens
sessions in the calling process: call it through ``IsolatedExecutor.call``.
"""

from __future__ import annotations

from passcheck.coverage.entry import Entry, key
from passcheck.passes.ort_log import CONTAINER as _CONTAINER
from passcheck.passes.ort_log import LEVEL_NAMES, logged_names, rules
from passcheck.passes.ort_log import MODIFIED as _MODIFIED
from passcheck.passes.ort_log import session as _session

__all__ = ["LEVEL_NAMES", "TOOL", "catalogue", "logged_names", "rules", "triggers"]

TOOL = "onnxruntime"


def _passes(level: str) -> tuple[str, ...]:
    names = list(LEVEL_NAMES.values())
    return tuple(f"ort:{n}" for n in names[names.index(level) :])


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
    return out + _config_entries({e.name for e in out})


def _config_entries(known: set[str]) -> list[Entry]:
    """One ``config`` entry per key of :data:`~passcheck.passes.ort_config.KEYS`, and the transformers and rules
    only a key registers (not in ``known``: what the plain levels log or the table lists)."""
    from passcheck.passes.ort_config import KEYS, pass_id

    out = []
    for k in KEYS:
        passes = tuple(pass_id(lv, k) for lv in k.levels())
        source = f"session config {k.name}={k.value}: {k.reason} (graph_transformer_utils.cc)"
        out.append(Entry(TOOL, "config", f"{k.name}={k.value}", passes, k.level, source))
        for kind, names in (("transformer", k.enables), ("rule", k.adds_rules)):
            out += [Entry(TOOL, kind, n, passes, k.level, source) for n in names if n not in known]
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
    return {**out, **_config_triggers(data)}


def _config_triggers(data: bytes) -> dict[str, str]:
    """The config entries ``data`` triggers at ``ort:all`` (see module docs)."""
    from passcheck.passes.ort_config import KEYS

    _, reference = _session(data, "all")
    out: dict[str, str] = {}
    for k in KEYS:
        log, graph = _session(data, "all", verbose=True, config=k.config)
        if graph == reference:
            continue
        out[key(TOOL, "config", f"{k.name}={k.value}")] = (
            f"session config {k.name}={k.value} changes the graph at ort:all"
        )
        fired = {n for n, m in _MODIFIED.findall(log) if m == "1"}
        for name in k.enables:
            if name in fired:
                out[key(TOOL, "transformer", name)] = f"verbose log at ort:all+{k.name}={k.value}: {name} modified: 1"
        for name in k.adds_rules:  # the key's one added rule is what changed the graph
            out[key(TOOL, "rule", name)] = f"session config {k.name}={k.value} (adds the rule {name}) changes the graph"
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
