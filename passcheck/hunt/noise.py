"""What a hunt meets that is neither a finding nor a signature, in three categories the summary
counts apart (issue 30):

- **environment facts**: the installed tools cannot take a form (onnxruntime has no kernel for
  its op and element types, an opset or IR version beyond the installed onnx / onnxruntime, a
  pass output at an opset onnxruntime refuses); the engine reports these cells ``unavailable``
  (:mod:`passcheck.runtime.limits`, :func:`passcheck._versions.beyond_installed_onnx`);
- **documented tool limits**: a pass declines a form by what its tool documents it does not do
  (its adapter's ``why_not``, the version converter's "No Adapter From Version" steps); the cell
  is ``unavailable`` under that pass while the form itself is available;
- **budget artefacts**: an item the hunt's own time limit cut short (status ``unfinished``).

A cell is told apart by where the engine made it ``unavailable``, not by its text: a form
unavailable under pseudo-pass ``input`` is unavailable under every pass (an environment fact); a
pass output onnxruntime cannot load is one too (the engine's message starts with
:data:`OUTPUT_PREFIX`); any other ``unavailable`` cell of a pass is that tool's stated limit.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from passcheck.records import INPUT

ENVIRONMENT = "environment"
TOOL_LIMIT = "tool-limit"
BUDGET = "budget"
#: Category → how the summary names it.
LABELS = {ENVIRONMENT: "environment facts", TOOL_LIMIT: "documented tool limits", BUDGET: "budget artefacts"}
#: How :func:`passcheck.engine.evaluate` begins the reason of a pass output onnxruntime cannot load.
OUTPUT_PREFIX = "the output of "


def classify(cells: Iterable[Any]) -> list[list[str]]:
    """``[category, reason]`` of every ``unavailable`` cell of one item's ``cells``
    (:class:`~passcheck.records.CellResult`), one per distinct pair, in cell order."""
    cells = list(cells)
    form_level = {c.form for c in cells if c.pass_id == INPUT and c.status == "unavailable"}
    out: list[list[str]] = []
    for c in cells:
        if c.status != "unavailable":
            continue
        reason = c.error or "unavailable"
        env = c.pass_id == INPUT or c.form in form_level or reason.startswith(OUTPUT_PREFIX)
        pair = [ENVIRONMENT if env else TOOL_LIMIT, reason]
        if pair not in out:
            out.append(pair)
    return out


def counts(items: Iterable[Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """Category → ``{"items": n, "reasons": {reason: items}}`` over hunt item records (their
    ``unavailable`` lists; status ``unfinished`` counts as a budget artefact, status ``unavailable``
    (an item skipped for a limit recorded before, :mod:`.limits`) as a tool limit). Categories with
    no item are left out."""
    out: dict[str, dict[str, Any]] = {}
    for rec in items:
        pairs = [tuple(p) for p in rec.get("unavailable") or ()]
        if rec.get("status") == "unfinished":
            pairs.append((BUDGET, rec.get("reason") or "the hunt's budget ran out while this item ran"))
        elif rec.get("status") == "unavailable":  # skipped: a limit the tool stated before (hunt.limits)
            pairs.append((TOOL_LIMIT, rec.get("reason") or "a limit the tool states"))
        for cat in dict.fromkeys(c for c, _ in pairs):
            slot = out.setdefault(cat, {"items": 0, "reasons": {}})
            slot["items"] += 1
            for reason in dict.fromkeys(r for c, r in pairs if c == cat):
                slot["reasons"][reason] = slot["reasons"].get(reason, 0) + 1
    return out


def lines(items: Iterable[Mapping[str, Any]]) -> list[str]:
    """The summary's noise section: per category, items and distinct reasons, the commonest reason."""
    found = counts(items)
    out = [
        "noise (neither findings nor signatures): "
        + ", ".join(f"{LABELS[c]} {found.get(c, {}).get('items', 0)} items" for c in LABELS)
    ]
    for cat, label in LABELS.items():
        if cat not in found:
            continue
        reasons = found[cat]["reasons"]
        top, n = max(reasons.items(), key=lambda kv: kv[1])
        out.append(f"  {label}: {found[cat]['items']} items, {len(reasons)} distinct reasons; commonest ({n}): {top}")
    return out


def deaths_line(items: Iterable[Mapping[str, Any]]) -> str | None:
    """The summary's line on tools that died on a form the hunt made (items' ``tool_deaths``,
    :mod:`passcheck.runtime.isolated_tools`: each cost one call in the worker) and on the calls not made for that
    (items' ``tool_skips``: a form that killed the worker is not sent again, nor anything after deaths in a row; M310),
    or None when there were neither."""
    per = [rec.get("tool_deaths") or () for rec in items]
    deaths = [d for ds in per for d in ds]
    skips = [rec.get("tool_skips") or () for rec in items]
    skipped = sum(map(len, skips))
    if not deaths and not skipped:
        return None
    line = f"tool deaths on forms the hunt made: {len(deaths)} in {sum(1 for ds in per if ds)} items, each one call in "
    line += "the isolation worker (items' tool_deaths)"
    if deaths:
        top = max(set(deaths), key=lambda d: (deaths.count(d), d))
        line += f"; commonest ({deaths.count(top)}): {top}"
    if skipped:
        line += f"; {skipped} calls not made, no restart, in {sum(1 for s in skips if s)} items (items' tool_skips)"
    return line
