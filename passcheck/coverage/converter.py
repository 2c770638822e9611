"""The onnx version converter's adapters (op, from → to), and which a model triggers.

onnx registers its adapters in C++ (``onnx/version_converter/convert.h``) and exposes no list to
Python, so the catalogue is derived from the schemas as the converter documents its work
(``docs/VersionConverter.md``): it steps one opset at a time, and at each step every node whose
op has a schema introduced at that step (``since_version``) needs an adapter for (op, from → to);
when there is none, the conversion fails. So every ``since_version`` ``v`` of an ai.onnx op after
its first gives two entries, ``Op:(v-1)->v`` (up, ``onnx:convert-opset-up``) and ``Op:v->(v-1)``
(down, ``onnx:convert-opset-down``). A step onnx registers no adapter for stays untriggered, and
the reason is the converter's own error on a base that reaches it.

Evidence, by effect: the model is converted step by step to each opset where one of its ops
changes version (up to onnx's newest, down to 1); a conversion that succeeds, whose output imports
the target opset and still has the node's op there, triggered the adapter of each op whose
resolved ``since_version`` changed at that step. The chain stops at the first failure, whose
message is kept as the reason for the steps beyond. The model the up chain ends with is converted
down step by step too (its own ops), so a base at an old opset also reaches the down adapters of
the newest versions (whose own opset no runtime may run).
"""

from __future__ import annotations

import re

from passcheck.coverage._graph import opsets, since
from passcheck.coverage.entry import Entry, key

TOOL = "onnx-version-converter"
UP, DOWN = ("onnx:convert-opset-up",), ("onnx:convert-opset-down",)
#: The opsets the issue's acceptance counts adapters between.
RANGE = (7, 23)


def catalogue() -> list[Entry]:
    import onnx

    versions: dict[str, list[int]] = {}
    for s in onnx.defs.get_all_schemas_with_history():
        if s.domain == "":
            versions.setdefault(s.name, []).append(s.since_version)
    out = []
    for op, vs in sorted(versions.items()):
        for v in sorted(vs)[1:]:
            scope = f"opsets {RANGE[0]}-{RANGE[1]}" if RANGE[0] <= v - 1 and v <= RANGE[1] else "outside 7-23"
            src = "derived from onnx.defs since_version history (the C++ adapter registry is not exposed)"
            out.append(Entry(TOOL, "adapter", f"{op}:{v - 1}->{v}", UP, scope, src))
            out.append(Entry(TOOL, "adapter", f"{op}:{v}->{v - 1}", DOWN, scope, src))
    return out


def triggers(model) -> dict[str, str]:
    """Entry key → effect for every adapter converting ``model`` up and down step by step runs;
    ``"!" + key`` → the converter's error for the step where a chain stopped (the reason that entry is untriggered)."""
    import onnx

    start = opsets(model).get("")
    ops = sorted({n.op_type for n in model.graph.node if n.domain in ("", "ai.onnx")})
    if start is None or not ops:
        return {}
    out: dict[str, str] = {}
    newest = onnx.defs.onnx_opset_version()
    top, top_at = _chain(model, start, "up", ops, newest, out, "")
    _chain(model, start, "down", ops, newest, out, "")
    if top_at > start:  # the down adapters from the newest versions, on the model the converter brought up
        top_ops = sorted({n.op_type for n in top.graph.node if n.domain in ("", "ai.onnx")})
        _chain(top, top_at, "down", top_ops, newest, out, f" (on the base converted up to opset {top_at})")
    return out


def _chain(model, start: int, direction: str, ops: list[str], newest: int, out: dict[str, str], note: str):
    """Convert step by step from ``start`` in ``direction``, recording each adapter's effect in ``out``
    (see :func:`triggers`); returns the last model converted and its opset."""
    import onnx

    cur, at = model, start
    while True:
        target = _next(ops, at, newest, direction)
        if target is None:
            break
        try:
            converted = onnx.version_converter.convert_version(cur, target)
        except Exception as exc:  # noqa: BLE001 - the converter's refusal is the reason, not a crash of passcheck
            why = f"convert_version {at}->{target} failed{note}: {type(exc).__name__}: "
            why += str(exc).splitlines()[0][-160:]
            named = re.search(r" for (\w+)\s*$", str(exc).splitlines()[0])
            for op in [named.group(1)] if named and named.group(1) in ops else ops:
                if (a := since(op, "", at)) != since(op, "", target):
                    # down: the step from the op's version at ``at`` (the opset may be above it)
                    step = f"{op}:{target - 1}->{target}" if direction == "up" else f"{op}:{a}->{(a or 1) - 1}"
                    out.setdefault("!" + key(TOOL, "adapter", step), why)
            break
        have = {n.op_type for n in converted.graph.node if n.domain in ("", "ai.onnx")}
        if opsets(converted).get("") != target:
            break
        for op in ops:
            a, b = since(op, "", at), since(op, "", target)
            if a != b and a is not None and b is not None:
                step = f"{op}:{target - 1}->{target}" if direction == "up" else f"{op}:{a}->{a - 1}"
                kept = "the node's op is still there" if op in have else f"the adapter replaced {op}"
                out.setdefault(
                    key(TOOL, "adapter", step),
                    f"convert_version {at}->{target} succeeded{note}: {op} since_version {a} -> {b} ({kept})",
                )
        cur, at = converted, target
    return cur, at


def _next(ops: list[str], at: int, newest: int, direction: str) -> int | None:
    """The next opset (up: above ``at``; down: below it) where one of ``ops`` changes version."""
    if direction == "up":
        return next((v for v in range(at + 1, newest + 1) if any(since(op, "", v) == v for op in ops)), None)
    tops = [s for op in ops if (s := since(op, "", at)) is not None and s > 1]
    if not tops:
        return None
    target = max(tops) - 1
    return target if all(since(op, "", target) is not None for op in ops) else None
