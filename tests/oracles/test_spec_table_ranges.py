"""The opset range of every spec_table rule that states one, against onnx's own schema history
(``onnx.defs.get_all_schemas_with_history``): a rule about an attribute or input starts at the first
version of its op whose schema has it, rules about one attribute or input follow each other without gap or
overlap at versions where the op's schema changed, and the last one holds to the end unless the schema
drops the attribute or input (then it ends there). The rules' ``section`` names what they read
(``Slice, input steps``; an attribute when no kind is said)."""

from __future__ import annotations

import re
from collections import defaultdict

import onnx.defs

from passcheck.oracles.spec_table import RULES

_SECTION = re.compile(r"[^,]+, (?:(attribute|input) )?(\w+)")


def _versions(op: str) -> dict[int, onnx.defs.OpSchema]:
    return {s.since_version: s for s in onnx.defs.get_all_schemas_with_history() if s.name == op and s.domain == ""}


def _has(schema: onnx.defs.OpSchema, kind: str, name: str) -> bool:
    return name in schema.attributes if kind == "attribute" else any(f.name == name for f in schema.inputs)


def _chains() -> dict[tuple, list]:
    chains = defaultdict(list)
    for rule in RULES:
        if rule.since == (1, None):
            continue
        m = _SECTION.fullmatch(rule.section)
        assert m, f"{rule.id}: section {rule.section!r} names no attribute or input"
        chains[(rule.ops, m.group(1) or "attribute", m.group(2))].append(rule)
    return chains


def test_every_rule_with_an_opset_range_is_where_onnx_gives_its_op_what_it_reads():
    chains = _chains()
    assert len(chains) >= 10
    for (ops, kind, name), rules in chains.items():
        rules.sort(key=lambda r: r.since[0])
        for op in ops:
            versions = _versions(op)
            having = sorted(v for v, s in versions.items() if _has(s, kind, name))
            assert having, (op, kind, name)
            assert rules[0].since[0] == having[0], (rules[0].id, op, having)
            for before, after in zip(rules, rules[1:]):
                assert before.since[1] == after.since[0] in versions, (before.id, after.id, sorted(versions))
            dropped = [v for v in versions if v > having[0] and v not in having]
            assert rules[-1].since[1] == (min(dropped) if dropped else None), (rules[-1].id, op, sorted(versions))
