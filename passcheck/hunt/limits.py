"""Documented tool limits a hunt reaches through an op its rewrite brought in: environment facts,
not findings.

A tool may state that it does not do something (the onnx version converter: "No Adapter From
Version $14 for Reshape", "No Adapter To Version …", "No Adapter For …", "No Previous Version of
…", onnx ``version_converter/convert.h``); passcheck records that as ``unavailable`` with the
tool's words (:data:`passcheck.passes._base.STATED_LIMIT`), and the acceptance oracle still
reports it when the tool accepts another form. In a hunt that rule meets rewrites that *add* ops
(``neutral-shape-ops`` adds Reshape, Transpose, Slice; ``split-as-slices`` turns a Split into
Slices): when the op the limit names is not in the base at all, the tool accepted nothing of that
op, so the decline says nothing about a spelling: it is the tool's stated limit for that op,
recorded once per (pass, limit) in the hunt's state as an environment fact, and later items under
that pass whose rewritten form brings the same op into a base at the same opset are skipped
(``unavailable``). The same holds when the rewrite changed the conversion asked for (``axes-as-attribute``
writes a Reduce op at an older opset, so ``onnx:convert-opset-down`` converts it from another
version to another boundary than the base). A limit naming an op the base has too, met on the
same conversion (the tool converts the op in one spelling and not in the other), stays a finding.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import onnx

    from passcheck.records import Finding

#: The op a converter limit names (its four messages end with "for OP" / "For OP" / "of OP").
_OP = re.compile(r"No (?:Adapter (?:From|To) Version \$?\d+ for|Adapter For|Previous Version of|Next Version of) (\w+)")


def ops(model: onnx.ModelProto) -> set[str]:
    """ai.onnx op types of ``model``'s graph and its subgraphs."""
    found: set[str] = set()
    graphs = [model.graph]
    while graphs:
        g = graphs.pop()
        for n in g.node:
            if n.domain in ("", "ai.onnx"):
                found.add(n.op_type)
            for a in n.attribute:
                graphs += ([a.g] if a.HasField("g") else []) + list(a.graphs)
    return found


def opset(model: onnx.ModelProto) -> int | None:
    return next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), None)


def stated(finding: Finding) -> tuple[str, str] | None:
    """(the tool's words, the op they name) when ``finding`` is the acceptance oracle's report of a
    limit the tool states, else None."""
    from passcheck.passes._base import STATED_LIMIT

    d = finding.details if isinstance(finding.details, dict) else {}
    error = str(d.get("error") or "")
    if finding.oracle != "acceptance" or not error.startswith(STATED_LIMIT):
        return None
    words = (
        error[len(STATED_LIMIT) :].split(" (", 1)[0].strip()
    )  # the boundary adapter's "(opset a → b …)" is per model
    m = _OP.search(words)
    return (words, m.group(1)) if m else None


def step(pass_id: str, model: onnx.ModelProto) -> str | None:
    """The conversion a per-model boundary pass (``onnx:convert-opset-down`` / ``-up``) makes of
    ``model`` (``"13->12"``), or None for any other pass (a fixed target is the same for every model)."""
    from passcheck.passes import conversion

    return conversion(pass_id, model)


def key(pass_id: str, words: str) -> str:
    return f"{pass_id}|{words}"


def split(
    findings: Iterable[Finding], pass_id: str, base: onnx.ModelProto, mutant: onnx.ModelProto
) -> tuple[list[Finding], list[tuple[str, str]]]:
    """(``findings`` that stay findings, (words, op) of the stated limits that are not about a
    spelling: the op they name is not in ``base``, or the tool was asked another conversion of
    ``mutant`` than of ``base`` (another opset, or another boundary step))."""
    have = ops(base)
    same_step = opset(base) == opset(mutant) and step(pass_id, base) == step(pass_id, mutant)
    kept, facts = [], []
    for f in findings:
        limit = stated(f)
        if limit is not None and (limit[1] not in have or not same_step):
            facts.append(limit)
        else:
            kept.append(f)
    return kept, facts


def record(
    environment: dict[str, dict[str, Any]],
    pass_id: str,
    facts: Iterable[tuple[str, str]],
    base: onnx.ModelProto,
    mutant: onnx.ModelProto,
    where: dict[str, str],
) -> None:
    """Add ``facts`` (from :func:`split`, met on ``mutant``, a rewrite of ``base``) to a hunt state's
    ``environment`` (one entry per pass and limit: ``items`` that met it, ``skipped`` items that
    would have met it again)."""
    for words, op in facts:
        new = {
            "pass": pass_id,
            "reason": words,
            "op": op,
            "opset": opset(base),
            "step": step(pass_id, mutant),
            "items": 0,
            "skipped": 0,
            "first": where,
        }
        rec = environment.setdefault(key(pass_id, words), new)
        rec["items"] += 1


def known(
    environment: dict[str, dict[str, Any]], pass_id: str, base: onnx.ModelProto, mutant: onnx.ModelProto
) -> dict[str, Any] | None:
    """The record of the limit an item under ``pass_id`` would reach again (``mutant`` brings in the op
    it names, absent from ``base``, at the same opset and, for a boundary pass, the same step), or None."""
    if not environment:
        return None
    have, brought, at = ops(base), ops(mutant), opset(base)
    for rec in environment.values():
        if (
            rec["pass"] == pass_id
            and rec["op"] in brought
            and rec["op"] not in have
            and rec["opset"] == at
            and rec.get("step") == step(pass_id, mutant)
        ):
            return rec
    return None
