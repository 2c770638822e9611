"""Fixed dims: a pass that states it fixes a binding (``FormRun.fixes``: symbols to sizes, or one graph input to a
shape; :mod:`passcheck.passes.ort_dim_fix`) writes exactly that binding into the model's annotations.

Seed 000 ("Setup"): a ``dim_param`` names one size per run, the same everywhere it occurs, subgraphs included
(IR.md §Static tensor shapes: dimension variables are not scoped); fixing ``N`` to ``3`` keeps the meaning of the
model for the runs where ``N`` is 3 when every occurrence of ``N`` becomes ``dim_value 3`` and nothing else
changes. Read over every annotated value (:func:`passcheck.runtime.plan.annotated_values`: main graph, every
subgraph, every model-local function's ``value_info``) and every type kind nested in it (seed 001: tensor,
sparse tensor, sequence, optional, map values), axis by axis, the input model against the output:

- ``symbol-left``: an occurrence of a fixed symbol is still that symbol (the tool's docstring: "Iterate all
  values in the graph, replacing dim_param");
- ``fixed-wrong``: an occurrence of a fixed symbol became anything but its size;
- ``dim-changed``: a dim the fix does not cover changed (an unfixed symbol, a ``dim_value``, a dim with neither
  field, a rank), except a main-graph output's dim becoming a ``dim_value`` (``fix_output_shapes`` copies an
  inferred fixed shape there: whether it holds is judged at run time by the ``annotations`` oracle).

A value the output no longer annotates is not this oracle's (nothing is asserted of it). Passes without
``fixes`` are not judged.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Mapping
from typing import Any

from passcheck.oracles._context import FormRun
from passcheck.oracles._contract import BaseOracle, Cells
from passcheck.oracles.descriptions import nested_types, type_dims
from passcheck.passes.ort_dim_fix import resolve
from passcheck.records import Finding
from passcheck.runtime.plan import PRECONDITION, annotated_values
from passcheck.typestr import dim_str

NAME = "fixed_dims"
KINDS = ("symbol-left", "fixed-wrong", "dim-changed")


def _sites(model) -> dict[tuple[str, str, str, int], Any]:
    """(scope, role, name, n-th occurrence) → TypeProto, for every annotated value of ``model``."""
    seen: dict[tuple[str, str, str], int] = defaultdict(int)
    out = {}
    for a in annotated_values(model):
        k = (a.scope, a.role, a.name)
        out[(*k, seen[k])] = a.type
        seen[k] += 1
    return out


def _field(d) -> tuple[str | None, Any]:
    which = d.WhichOneof("value")
    return which, getattr(d, which) if which else None


def changes(before, after, fixes: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    """(kind, one line) for each axis of an annotation of ``before`` that ``after`` does not write as ``fixes``
    says (the module docstring's three kinds), in annotation order. ``fixes``: ``{"symbols": {name: size},
    "input": name or None, "shape": sizes or None}`` (:func:`passcheck.passes.ort_dim_fix.resolve`'s answer)."""
    symbols: Mapping[str, int] = fixes.get("symbols") or {}
    fixed_input, shape = fixes.get("input"), fixes.get("shape")
    outputs = {v.name for v in after.graph.output}
    got = _sites(after)
    for key, tp in _sites(before).items():
        scope, role, name, _ = key
        if key not in got:
            continue
        refinable = scope == "" and role != PRECONDITION and name in outputs
        where = f"{'graph' if not scope else scope} {'input' if role == PRECONDITION else 'value'} {name!r}"
        for (path, t), (_, u) in zip(nested_types(tp), nested_types(got[key])):
            a, b = type_dims(t), type_dims(u)
            at = f"{where}{' ' + path if path else ''}"
            if a is None:
                continue
            if b is None or len(a) != len(b):
                if not (refinable and b is not None):
                    yield "dim-changed", f"{at}: rank {len(a)} -> {'none' if b is None else len(b)}"
                continue
            for i, (da, db) in enumerate(zip(a, b)):
                fa, fb = _field(da), _field(db)
                if fa[0] == "dim_param" and fa[1] in symbols:
                    want = symbols[fa[1]]
                    if fb == fa:
                        yield "symbol-left", f"{at} axis {i}: {dim_str(da)} left, fixed to {want}"
                    elif fb != ("dim_value", want):
                        yield "fixed-wrong", f"{at} axis {i}: {dim_str(da)} -> {dim_str(db)}, fixed to {want}"
                elif scope == "" and role == PRECONDITION and name == fixed_input and fa[0] is None:
                    if fb != ("dim_value", shape[i]):
                        yield "fixed-wrong", f"{at} axis {i}: ? -> {dim_str(db)}, fixed to {shape[i]}"
                elif fb != fa and not (refinable and fb[0] == "dim_value"):
                    yield "dim-changed", f"{at} axis {i}: {dim_str(da)} -> {dim_str(db)} (not fixed)"


def check(run: FormRun) -> list[Finding]:
    """One finding per kind of :func:`changes` on ``run``'s output (details: ``sites``, every line); none for a
    pass without ``fixes`` or a failed pass."""
    out = run.output
    if out is None or not run.fixes:
        return []
    fixes = resolve(run.fixes, run.model)
    by_kind: dict[str, list[str]] = defaultdict(list)
    for kind, line in changes(run.model, out, fixes):
        by_kind[kind].append(line)
    said = {
        "symbol-left": "left a symbol it fixed in place",
        "fixed-wrong": "wrote a size other than the one it fixed",
        "dim-changed": "changed a dim it did not fix",
    }
    fixed = ", ".join(f"{s}={n}" for s, n in fixes["symbols"].items())
    if fixes["input"]:
        fixed += f"{'; ' if fixed else ''}{fixes['input']}={list(fixes['shape'])}"
    return [
        run.finding(
            kind,
            NAME,
            f"{run.pass_id} ({fixed}) {said[kind]}: "
            + "; ".join(lines[:3])
            + (f"; and {len(lines) - 3} more" if len(lines) > 3 else ""),
            sites=lines,
        )
        for kind in KINDS
        if (lines := by_kind.get(kind))
    ]


class FixedDimsOracle(BaseOracle):
    id = NAME

    def check(self, run: FormRun, cells: Cells) -> list[Finding]:
        return check(run)


ORACLE = FixedDimsOracle()
