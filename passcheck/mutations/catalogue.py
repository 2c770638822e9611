"""The spelling catalogue: every freedom the ONNX spec leaves a model's writer (a way to write the
same computation differently), each with the spec section it rests on and the rewrite(s) that
produce it, or the reason no rewrite can.

A freedom is data (:class:`Freedom`). Rows live next to what produces them: a rewrite module
declares ``FREEDOMS`` beside ``REWRITES``; freedoms with no rewrite of their own, and the rows of the
earlier rewrite modules, live in the row modules named in :data:`ROW_MODULES`. :func:`freedoms`
gathers them in catalogue order; :func:`problems` lists what is inconsistent (a rewrite with no
row, a row naming no rewrite, a row with neither a rewrite nor a reason); :func:`markdown` is
``docs/spellings.md``.

Usage: ``python -m passcheck.mutations.catalogue --markdown [--out docs/spellings.md]`` writes the
document; ``--check`` exits 1 when :func:`problems` finds any or the document is stale.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import sys
from pathlib import Path

#: The areas of the catalogue, in document order (IR.md's sections, then the operator schemas').
AREAS = (
    "graphs", "nodes", "values", "initializers", "tensor storage", "attributes", "opset imports",
    "functions", "subgraphs", "optional and variadic slots", "names and domains", "data types",
    "operator schemas", "algebra",
)

#: Modules holding rows not declared by a rewrite module (one line each, to ease merges).
ROW_MODULES = (
    "passcheck.mutations.freedoms_ir",
    "passcheck.mutations.freedoms_ops",
)


@dataclasses.dataclass(frozen=True)
class Freedom:
    """One way to write the same computation differently.

    Attributes:
        id: stable kebab-case id, unique in the catalogue.
        area: one of :data:`AREAS`.
        source: the spec section it rests on (``IR.md §Graphs``, ``Operators.md Slice-13``,
            ``onnx.proto TensorProto``), cited, never quoted.
        summary: one sentence in our words: the two (or more) spellings and why they mean the same.
        rewrites: ids of the rewrites that produce it (both directions where both exist).
        sites: where the rewrites apply (main graph, subgraphs, function bodies; which positions)
            and how they compose.
        none_because: why no rewrite produces it (required when ``rewrites`` is empty).
        evidence: ``path::test`` of the test that shows the equivalence would not hold, or what
            the tools do with the spelling, when ``none_because`` says a rewrite cannot exist.
    """

    id: str
    area: str
    source: str
    summary: str
    rewrites: tuple[str, ...] = ()
    sites: str = ""
    none_because: str = ""
    evidence: str = ""


def _rewrite_modules() -> tuple[str, ...]:
    from passcheck.mutations.registry import MODULES

    return MODULES


def freedoms() -> list[Freedom]:
    """Every row: those the rewrite modules declare (``FREEDOMS``), then the row modules', sorted by area."""
    rows: list[Freedom] = []
    for name in (*_rewrite_modules(), *ROW_MODULES):
        rows.extend(getattr(importlib.import_module(name), "FREEDOMS", ()))
    order = {a: i for i, a in enumerate(AREAS)}
    return sorted(rows, key=lambda f: order.get(f.area, len(AREAS)))


def problems(rows: list[Freedom] | None = None) -> list[str]:
    """What is inconsistent between the catalogue and the registry, one line each (empty: none)."""
    from passcheck.mutations.registry import REWRITES

    rows = freedoms() if rows is None else rows
    out: list[str] = []
    seen: set[str] = set()
    covered: set[str] = set()
    for f in rows:
        if f.id in seen:
            out.append(f"freedom {f.id!r} is listed twice")
        seen.add(f.id)
        if f.area not in AREAS:
            out.append(f"freedom {f.id!r}: unknown area {f.area!r}")
        if not f.source or not f.summary:
            out.append(f"freedom {f.id!r}: no spec source or summary")
        if not f.rewrites and not f.none_because:
            out.append(f"freedom {f.id!r}: neither a rewrite nor the reason there is none")
        for rid in f.rewrites:
            if rid not in REWRITES:
                out.append(f"freedom {f.id!r} names rewrite {rid!r}, which does not exist")
            covered.add(rid)
        if f.evidence and not _evidence_exists(f.evidence):
            out.append(f"freedom {f.id!r}: evidence {f.evidence!r} names no test")
    out.extend(f"rewrite {rid!r} has no catalogue row" for rid in REWRITES if rid not in covered)
    return out


def _evidence_exists(evidence: str) -> bool:
    """Whether ``path::name`` names a test function defined in that file (relative to the repository)."""
    path, _, name = evidence.partition("::")
    file = Path(__file__).resolve().parents[2] / path
    return file.is_file() and (not name or f"def {name.split('[')[0]}(" in file.read_text())


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ") or "–"


def markdown(rows: list[Freedom] | None = None) -> str:
    """``docs/spellings.md``: a summary, then one table per area."""
    from passcheck.mutations.registry import REWRITES

    rows = freedoms() if rows is None else rows
    with_rewrite = [f for f in rows if f.rewrites]
    lines = [
        "# Spellings: every freedom the ONNX spec allows",
        "",
        "Generated by `python -m passcheck.mutations.catalogue --markdown` from the rows in `passcheck/mutations/` "
        "(`FREEDOMS` beside each rewrite module's `REWRITES`, and the row modules); do not edit by hand. "
        "`tests/mutations/test_catalogue.py` fails when a rewrite has no row, a row names a rewrite that does not "
        "exist, "
        "or this file is stale.",
        "",
        f"{len(rows)} freedoms; {len(with_rewrite)} produced by a rewrite ({len(REWRITES)} rewrite ids), "
        f"{len(rows) - len(with_rewrite)} with the reason none does. Sources cite the ONNX spec by document and "
        f"section "
        "(IR.md, Operators.md, Broadcasting.md, Versioning.md, onnx.proto); summaries are ours.",
        "",
    ]
    for area in AREAS:
        part = [f for f in rows if f.area == area]
        if not part:
            continue
        lines += [f"## {area[0].upper()}{area[1:]}", "", "| id | freedom | spec | rewrites | sites, composition, "
        "or why none |",
                  "|---|---|---|---|---|"]
        for f in part:
            rewrites = ", ".join(f"`{r}`" for r in f.rewrites) or "none"
            why = f.sites if f.rewrites else f"**none:** {f.none_because}"
            if f.evidence:
                why += f" (test: `{f.evidence}`)"
            lines.append(f"| `{f.id}` | {_cell(f.summary)} | {_cell(f.source)} | {rewrites} | {_cell(why)} |")
        lines.append("")
    return "\n".join(lines)


DOC = Path(__file__).resolve().parents[2] / "docs" / "spellings.md"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m passcheck.mutations.catalogue", description=__doc__.split("\n\n")[0])
    ap.add_argument("--markdown", action="store_true", help="write the document")
    ap.add_argument("--out", type=Path, default=DOC)
    ap.add_argument("--check", action="store_true", help="exit 1 on a catalogue problem or a stale document")
    args = ap.parse_args(argv)
    found = problems()
    for line in found:
        print(line, file=sys.stderr)
    text = markdown() + "\n"
    if args.markdown:
        args.out.write_text(text)
        print(f"wrote {args.out} ({len(freedoms())} freedoms)")
    if args.check and not args.markdown and (not args.out.is_file() or args.out.read_text() != text):
        print(f"{args.out} is stale: run python -m passcheck.mutations.catalogue --markdown", file=sys.stderr)
        return 1
    return 1 if found and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
