"""commuted/*: an onnxscript rule case's first form with its commutative nodes' operands swapped, for the rules
onnxscript itself applies in both operand orders (M351).

Spec freedom: Add, Mul, Sum, Max, Min, Equal, And, Or and Xor are commutative (Operators.md; opset >= 7 broadcasting
is symmetric), so ``op(b, a)`` computes what ``op(a, b)`` does (:mod:`passcheck.mutations.commute`).

onnxscript builds some rule sets with ``commute=True`` (``RewriteRuleSet(rules, commute=True)``, or a rule's own
``commute()``): it then applies the rule once per operand order of each commutative op in its target pattern, as
rules of the same name (``rewriter/rules/common/_fuse_hardswish.py``: ``HardSwishFusion`` over its Add and Mul,
four rules; ``HardSigmoidFusion`` over its Add, two). The coverage catalogue lists them ``<name>``, ``<name>#2`` …;
a hand-written rule case writes one order, so only the first was ever triggered.

A twin per non-empty set of the first form's commutative nodes (at most three nodes, so at most seven twins) of every
rule case (:data:`passcheck.cases.rules.TARGET`) whose rule name occurs more than once among the rules the installed
onnxscript applies (the default rules, the opt-in ``rules.common`` rules, ``ORT_PATTERN_REWRITE_RULES``): a rule
written in one order only would make the twin a parity finding of every default run, not a spelling of its match.
Forms: ``common`` the swapped first form, ``as-written`` the case's first form. Each twin is kept where its forms pass
the schema-built families' gate (:func:`passcheck.cases.schema_gate.judge`); the rule names, the twins and the
verdicts are computed once per generator hash, onnxscript version and module text and cached under
``<cache>/commuted/<key>/`` (onnxscript is imported only then).
"""

from __future__ import annotations

import dataclasses
import itertools
import re

from passcheck.case_model import Case, Form
from passcheck.cases._registry import REGISTRY
from passcheck.cases.rules import TARGET
from passcheck.mutations.commute import swap

FAMILY = "commuted"
#: What a selection names this family's cases by (a twin carries its rule case's tags): read without importing
#: this module (:class:`passcheck.cases.sources.GatedModule`), which is imported, and its gate judged, only when
#: one does.
SELECTED_BY = {
    "ids": ["commuted/*"],
    "tags": ["commuted"],
    "tags_of": "passcheck.cases.rules:rule_case_tags",
}
#: At most this many commutative nodes of a first form are combined (2^3 - 1 twins).
MOST = 3


def commuted_rule_names() -> set[str]:
    """Names of the rules the installed onnxscript applies in more than one operand order (a name that occurs more
    than once among its default, opt-in and ORT pattern rules); empty without onnxscript or with one that has not
    these rule tables."""
    try:
        from onnxscript import rewriter
        from onnxscript.rewriter import ort_fusions

        from passcheck.passes.onnxscript_rules import opt_in_rules

        applied = (*rewriter._DEFAULT_REWRITE_RULES, *ort_fusions.ORT_PATTERN_REWRITE_RULES, *opt_in_rules())
    except (ImportError, AttributeError):  # no onnxscript, or one older than these rule tables (0.1.0, 0.2.0)
        return set()
    rules = {id(r): r for r in applied}
    names = [r.name for r in rules.values() if r.name]
    return {n for n in names if names.count(n) > 1}


def _rule(case: Case) -> str | None:
    lines = case.doc.strip().splitlines()
    m = TARGET.search(lines[-1]) if lines else None
    return m.group(1) if m else None


def _swapped(source: str, labels: tuple[str, ...]):
    m = REGISTRY.get(source).forms["common"].build()
    swap(m, frozenset(labels))
    return m


def _op(label: str) -> str:
    """The op type of an unnamed node's label (``#3:Add``), else the node's name."""
    return label.split(":", 1)[1] if label.startswith("#") else label


def twin(source: Case, labels: tuple[str, ...]) -> Case:
    """``source``'s twin with the nodes ``labels`` (:func:`passcheck.mutations._base.node_label`) swapped."""
    ops = "-".join(re.sub(r"[^a-z0-9]+", "-", _op(lb).lower()).strip("-") for lb in labels)
    slug = source.id.replace("/", "-")
    commutative = ", ".join(sorted({_op(lb) for lb in labels}))
    return dataclasses.replace(
        source,
        id=f"{FAMILY}/{slug}.{ops}",
        forms={
            "common": Form(build=lambda: _swapped(source.id, labels), doc=""),
            "as-written": Form(build=source.forms["common"].build, doc=f"{source.id}'s first form"),
        },
        doc=f"""{source.id}'s first form with the operands of {", ".join(labels)} swapped.

Uncommon: as-written: the operands in {source.id}'s order (Operators.md: {commutative} commutative).
Valid: opset {source.opset}.
Targets onnxscript's rule {_rule(source)} ({next(p for p in source.passes if p.startswith("onnxscript:"))}).""",
        tags=source.tags | {FAMILY},
    )


def _candidates(names: set[str]) -> dict[str, tuple[str, tuple[str, ...]]]:
    """Twin id → (source case id, swapped node labels), for the registered rule cases of ``names``."""
    import onnx

    out = {}
    for case in list(REGISTRY):
        # passcheck's own rule cases only: a user module's (--cases-from) would change the verdicts cached per key
        if _rule(case) not in names or case.id.startswith(f"{FAMILY}/") or REGISTRY.user_module(case.id):
            continue
        model = case.forms["common"].build()
        probe = onnx.ModelProto()
        probe.CopyFrom(model)
        sites = swap(probe)
        if not sites or len(sites) > MOST:
            continue
        for k in range(1, len(sites) + 1):
            for labels in itertools.combinations(sites, k):
                out[twin(case, labels).id] = (case.id, labels)
    return out


def _judge() -> dict:
    from passcheck.cases import schema_gate

    twins = {tid: (source, labels) for tid, (source, labels) in _candidates(commuted_rule_names()).items()}
    judged = schema_gate.judge_all(
        (schema_gate.of_case(twin(REGISTRY.get(source), labels)) for source, labels in twins.values()), family=FAMILY
    )
    return {tid: {"source": s, "labels": list(lab), "gate": judged[tid]} for tid, (s, lab) in twins.items()}


def _parts() -> tuple:
    from importlib import metadata
    from pathlib import Path

    from passcheck.generate import generator_hash

    try:
        version = metadata.version("onnxscript")
    except metadata.PackageNotFoundError:
        version = ""
    return (generator_hash(), version, Path(__file__))


def gate_key() -> str:
    """The verdicts' cache key (:func:`passcheck.cases.schema_gate.gate_key`: the generator's hash, the onnxscript
    version, this module): ``<cache>/commuted/<key>/``."""
    from passcheck.cases import schema_gate

    return schema_gate.gate_key(_parts())


def _kept() -> dict[str, tuple[str, tuple[str, ...]]]:
    """Twin id → (source case id, swapped labels) of the twins whose every form passes the gate, judged once per
    :func:`gate_key` (:func:`passcheck.cases.schema_gate.cached`)."""
    from passcheck.cases import schema_gate

    index = schema_gate.cached(FAMILY, _parts(), _judge)
    return {
        t: (d["source"], tuple(d["labels"]))
        for t, d in index.items()
        if d["gate"]["forms"] and len(schema_gate.kept_forms(d["gate"])) == len(d["gate"]["forms"])
    }


for _source, _labels in _kept().values():
    if _source in REGISTRY:
        REGISTRY.register(twin(REGISTRY.get(_source), _labels))
