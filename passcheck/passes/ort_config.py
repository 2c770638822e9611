"""onnxruntime's graph optimizer behind its session config keys, and with one transformer removed.

Some of onnxruntime's transformers are switched on or off by a session config entry
(``SessionOptions.add_session_config_entry``; the keys and their values are documented in
``include/onnxruntime/core/session/onnxruntime_session_options_config_keys.h``), not by the level: the
level's list is built in ``onnxruntime/core/optimizer/graph_transformer_utils.cc`` (``GenerateTransformers``,
``GenerateRewriteRules``), which reads each key there. :data:`KEYS` holds the keys whose value changes which
transformers a CPU session registers or what one of them writes, each with the transformers it enables
(``enables``), removes (``removes``) or changes (``changes``); the pass ``ort:<level>+<key>=<value>``
(:class:`OrtConfigAdapter`) is the optimizer at that level with the entry set, its optimized model saved as
``ort:<level>`` saves it, and judged by the same oracles. Keys that only change kernels or threads
(``session.disable_prepacking``, ``session.set_denormal_as_zero``, spinning) leave the saved graph as it is and
have no pass.

onnxruntime ignores a config key it does not read (``add_session_config_entry`` stores any string), so on a release
older than the key the pass would run the plain level under the key's name. :func:`unread_keys` asks the installed
build: a key whose name, as a NUL-terminated string, is in none of the package's shared libraries cannot be read by
it (the optimizer compares the entry's key with that literal), and the pass is ``unavailable`` there, saying so.
The test is one-way: a name present is not proof that a transformer reads it. The pinned releases: onnxruntime 1.18.1
lacks ``optimization.enable_cast_chain_elimination``, ``session.enable_dq_matmulnbits_fusion`` and
``session.qdq_matmulnbits_accuracy_level``; 1.20.1 and 1.22.1 the first two; 1.23.2 the second; 1.24.4 on hold
all seven.

``ort:<level>-without-<Name>`` is the optimizer at that level with one transformer or rewrite rule named in
``disabled_optimizers`` (``FilterTransformers`` / ``GenerateRewriteRules`` drop it by its ``Name()``), so a
finding can be attributed by removing one transformer. onnxruntime ignores a name it does not register, so a
name outside :func:`known_names` is refused (:class:`~passcheck.errors.PasscheckError`) rather than run as the
plain level. A known name the installed release does not register at the pass's level (a transformer added in a
later release, ``DQMatMulNBitsFusion`` before 1.24; ``GeluFusion`` where the level-suffixed ``GeluFusionL1`` /
``L2`` replaced it from 1.24 on, and those before; one gated by a config key the pass does not set; an
x86 or ROCm one this machine does not run) makes the pass ``unavailable``, saying so (:func:`unregistered`): the
transformers from the installed build's own verbose log at that level and config (``GraphTransformer <name>
modified``, :func:`passcheck.passes.ort_log.names_at`), the rewrite rules, never logged by name, from the library
search of :func:`unread_keys` (a rule's ``Name()`` is a string literal; one-way as above). The library search is not
used for transformers: onnxruntime 1.25.1 on builds ``ConvActivationFusion``'s name without a NUL-terminated literal
and still honours ``disabled_optimizers`` for it.
"""

from __future__ import annotations

import dataclasses
import re
from functools import cache
from pathlib import Path

from passcheck._versions import tool_version
from passcheck.errors import PasscheckError
from passcheck.passes.ort_optimizer import LEVELS, OrtOptimizerAdapter


@dataclasses.dataclass(frozen=True)
class Key:
    """One session config entry that changes the graph the optimizer writes.

    Attributes:
        name / value: the config key and the value that departs from its default.
        level: the lowest level whose transformers read it (``basic``: Level1, ``extended``: Level2).
        enables / removes: transformer names the entry adds to / drops from the session's list.
        adds_rules: rewrite rules the entry adds to its level's rule-based transformer (never logged by name).
        changes: transformers the entry hands another setting (registered either way).
        precision: the bound its transformers' own source states they change values by, in the numeric oracle's
            terms (:attr:`~passcheck.passes.Capabilities.precision`), or None: the result stays exact.
        reason: where onnxruntime says what the entry does.
        also: entries the key's pass sets with it, so that what it judges is the transformer, not a setting
            documented to approximate (written in the pass id too).
    """

    name: str
    value: str
    level: str
    enables: tuple[str, ...] = ()
    adds_rules: tuple[str, ...] = ()
    removes: tuple[str, ...] = ()
    changes: tuple[str, ...] = ()
    precision: str | None = None
    reason: str = ""
    also: tuple[tuple[str, str], ...] = ()

    @property
    def transformers(self) -> tuple[str, ...]:
        """Every transformer or rule whose presence or setting the entry decides."""
        return (*self.enables, *self.adds_rules, *self.removes, *self.changes)

    @property
    def config(self) -> tuple[tuple[str, str], ...]:
        """The entries its pass sets: the key, then :attr:`also`."""
        return ((self.name, self.value), *self.also)

    def levels(self) -> tuple[str, ...]:
        """The levels a pass is offered at: the lowest one that reads the key, and ``all``."""
        return tuple(dict.fromkeys((self.level, "all")))


#: The keys of onnxruntime's CPU session that decide a transformer (read where ``graph_transformer_utils.cc``
#: consumes each one; names as the verbose log of onnxruntime 1.32.0 prints them for a one-node model).
KEYS: tuple[Key, ...] = (
    Key(
        "optimization.enable_gelu_approximation",
        "1",
        "extended",
        enables=("GeluApproximation",),
        # the header: GeluApproximation "may change the inference results"; it writes FastGelu's tanh form, at most
        # 4.8e-4 from erf's Gelu (about one float16 unit at magnitude 1)
        precision="float16",
        reason="Level2 registers GeluApproximation only with the key set",
    ),
    Key(
        "optimization.enable_cast_chain_elimination",
        "1",
        "basic",
        adds_rules=("CastChainElimination",),
        # cast_chain_elimination.h: a chain of Casts back to its input's type is cut to its last Cast, the roundings
        # of the intermediate types included (float32 -> float16 -> int4 -> float32 loses them): the widest bound
        precision="int4",
        reason="GenerateRewriteRules adds the Level1 rule CastChainElimination only with the key set",
    ),
    Key(
        "session.disable_quant_qdq",
        "1",
        "basic",
        removes=(
            "QDQPropagationTransformer",
            "WeightBiasQuantization",
            "EnsureUniqueDQForNodeUnit",
            "QDQS8ToU8Transformer",
            "QDQSelectorActionTransformer",
            "WhereDummyDq",
        ),
        changes=("ConstantFolding",),
        reason="the QDQ transformers are skipped, and ConstantFolding folds DequantizeLinear of constants",
    ),
    Key(
        "session.enable_quant_qdq_cleanup",
        "1",
        "extended",
        changes=("QDQFinalCleanupTransformer",),
        # the header: removing a QuantizeLinear -> DequantizeLinear pair drops its rounding
        precision="uint8",
        reason="QDQFinalCleanupTransformer also removes Q -> DQ pairs",
    ),
    Key(
        "session.disable_double_qdq_remover",
        "1",
        "basic",
        removes=("DoubleQDQPairsRemover",),
        reason="Level1 registers DoubleQDQPairsRemover unless the key is set",
    ),
    Key(
        "session.qdqisint8allowed",
        "1",
        "extended",
        removes=("QDQS8ToU8Transformer",),
        changes=("QDQSelectorActionTransformer",),
        reason="on x86-64 int8 QDQ is kept as int8: no S8->U8 conversion, the selectors accept int8",
    ),
    Key(
        "session.enable_dq_matmulnbits_fusion",
        "1",
        "extended",
        enables=("DQMatMulNBitsFusion",),
        reason="Level2 registers DQMatMulNBitsFusion only with the key set (onnxruntime 1.32.0's verbose log)",
        # the MatMulNBits it writes computes at session.qdq_matmulnbits_accuracy_level, "4" unless set: int8
        # activations, an approximation by design; "1" keeps float32, so the fusion itself is what is judged
        also=(("session.qdq_matmulnbits_accuracy_level", "1"),),
    ),
)

_BY_ID: dict[str, Key] = {}


def pass_id(level: str, key: Key) -> str:
    return f"ort:{level}" + "".join(f"+{k}={v}" for k, v in key.config)


class OrtConfigAdapter(OrtOptimizerAdapter):
    """``ort:<level>`` with session config entries set and / or transformers disabled; see the module docs.

    Raises (from :meth:`apply`): :class:`~passcheck.passes.PassDeclined` when the session refuses the model or
    the entry (onnxruntime's own error text)."""

    def __init__(
        self,
        level: str,
        config: tuple[tuple[str, str], ...] = (),
        disabled: tuple[str, ...] = (),
        precision: str | None = None,
    ):
        super().__init__(level)
        self.config = config
        self.disabled = disabled
        self.precision = precision  # type: ignore[misc]
        # the level's own transformers run as they do at ort:<level> (one added, dropped or set otherwise): a defect
        # documented at the plain level that shows the same way here is that level's (hunt.documented.which)
        self.steps = (f"ort:{level}",)
        self.id = f"ort:{level}" + "".join(f"+{k}={v}" for k, v in config) + "".join(f"-without-{n}" for n in disabled)
        what = [f"session config {k}={v}" for k, v in config] + [f"disabled_optimizers [{n}]" for n in disabled]
        self.doc = f"onnxruntime graph optimization level {LEVELS[level]} with {', '.join(what)}, optimized model saved"

    def unavailable_reason(self) -> str | None:
        """onnxruntime missing, or a config key the installed build does not read (:func:`unread_keys`): the pass would
        run as ``ort:<level>``, and a verdict under the key's name would promise what was not run."""
        reason = super().unavailable_reason()
        unread = None if reason or not self.config else unread_keys(tuple(k for k, _ in self.config))
        if unread:
            return (
                f"onnxruntime {tool_version('onnxruntime')} does not read session config key {', '.join(unread)} "
                f"(no library of its package names it): it would ignore the entry and run ort:{self.level}"
            )
        absent = None if reason or not self.disabled else unregistered(self.level, self.config, self.disabled)
        if absent:
            plain = self.id.split("-without-")[0]
            return (
                f"onnxruntime {tool_version('onnxruntime')} registers no {', '.join(absent)} at ort:{self.level}"
                f"{' with ' + ', '.join(f'{k}={v}' for k, v in self.config) if self.config else ''} (its verbose log; "
                f"a rule: no library of its package names it): disabled_optimizers would ignore the name and run "
                f"{plain}"
            )
        return reason


ADAPTERS: tuple[OrtConfigAdapter, ...] = tuple(
    OrtConfigAdapter(level, k.config, precision=k.precision) for k in KEYS for level in k.levels()
)


def key_of(pass_id_: str) -> Key | None:
    """The :class:`Key` a config pass id sets, or None for any other id."""
    if not _BY_ID:
        _BY_ID.update({pass_id(lv, k): k for k in KEYS for lv in k.levels()})
    return _BY_ID.get(pass_id_)


@cache
def _libraries() -> tuple[Path, ...]:
    """The shared libraries of the installed onnxruntime package (``capi/*.so*``, ``*.dll``, ``*.dylib``)."""
    import importlib.util

    spec = importlib.util.find_spec("onnxruntime")
    roots = [Path(p) for p in (spec.submodule_search_locations or ())] if spec else []
    return tuple(
        sorted(
            p for r in roots for p in r.rglob("*") if p.is_file() and re.search(r"\.(so(\.[\d.]+)?|dll|dylib)$", p.name)
        )
    )


@cache
def unread_keys(names: tuple[str, ...]) -> tuple[str, ...]:
    """The config keys of ``names`` that no shared library of the installed onnxruntime holds as a NUL-terminated
    string (see the module docs), in the given order; ``()`` when onnxruntime is not installed or none is missing.
    Reads each library once (memory-mapped)."""
    import mmap

    left = {n: n.encode() + b"\0" for n in names}
    for lib in _libraries():
        if not left:
            break
        with lib.open("rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as m:
            left = {n: b for n, b in left.items() if m.find(b) < 0}
    return tuple(n for n in names if n in left) if _libraries() else ()


def unregistered(level: str, config: tuple[tuple[str, str], ...], names: tuple[str, ...]) -> tuple[str, ...]:
    """The names of ``names`` the installed onnxruntime does not register at ``level`` with the session config entries
    ``config``, in the given order (see the module docs): a rewrite rule of ``ort_transformers.json`` when
    :func:`unread_keys` finds no literal of it, any other name when the verbose log of such a session does not print it.
    ``()`` when onnxruntime is not installed or its log cannot be read (no log, no conclusion). The log is read once
    per onnxruntime version, level and config, in an isolation worker (the session writes to file descriptor 2)."""
    from passcheck.passes.ort_log import rules

    rule_names = {n for group in rules().values() for n in group}
    absent = set(unread_keys(tuple(n for n in names if n in rule_names)))
    if any(n not in rule_names for n in names):
        logged = _names_at(tool_version("onnxruntime"), level, tuple(config))
        absent |= {n for n in names if n not in rule_names and logged is not None and n not in logged}
    return tuple(n for n in names if n in absent)


#: Seconds the worker may take to open one session on the one-node model.
LOG_TIMEOUT = 120.0


@cache
def _names_at(version: str | None, level: str, config: tuple[tuple[str, str], ...]) -> frozenset[str] | None:
    if version is None:
        return None
    try:
        from passcheck.execution import Worker
        from passcheck.passes.ort_log import names_at, probe_model

        with Worker(timeout=LOG_TIMEOUT) as worker:
            return worker.call(names_at, probe_model(), level, config)
    except Exception:  # noqa: BLE001 - no log, no conclusion: the pass runs as before
        return None


WITHOUT = re.compile(r"^ort:(basic|extended|all)-without-([A-Za-z0-9_]+)$")


@cache
def known_names() -> frozenset[str]:
    """Transformer and rule names ``disabled_optimizers`` can remove: the attribution table's (from onnxruntime's
    sources, ``passcheck/attribution/ort_transformers.json``), the config-gated ones of :data:`KEYS`, and the
    level-suffixed names the installed build logs for the transformers registered at two levels
    (``GeluFusionL1``, ``LayerNormFusionL2``)."""
    import json

    table = json.loads((Path(__file__).parents[1] / "attribution" / "ort_transformers.json").read_text("utf-8"))
    names = {n for group in ("rules", "levels") for names in table[group].values() for n in names}
    names |= {n for k in KEYS for n in k.transformers}
    names |= {f"{n}L{i}" for n in ("GeluFusion", "LayerNormFusion") for i in (1, 2)}
    return frozenset(names)


def without(pass_id_: str) -> OrtConfigAdapter:
    """The adapter of an ``ort:<level>-without-<Name>`` id.

    Raises:
        PasscheckError: the id is malformed, or the name is not one :func:`known_names` holds (onnxruntime would
            ignore it, and the pass would run the plain level under another name)."""
    m = WITHOUT.match(pass_id_)
    if m is None:
        raise PasscheckError(f"pass {pass_id_!r}: expected ort:<basic|extended|all>-without-<TransformerName>")
    level, name = m.groups()
    if name not in known_names():
        import difflib

        close = difflib.get_close_matches(name, sorted(known_names()), n=3)
        hint = f" (did you mean {', '.join(close)}?)" if close else ""
        raise PasscheckError(f"pass {pass_id_!r}: {name!r} is not a transformer or rule onnxruntime registers{hint}")
    return OrtConfigAdapter(level, disabled=(name,))
