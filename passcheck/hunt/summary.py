"""The summary of a hunt: one row per distinct signature (a rich table on a terminal, plain
tab-separated lines elsewhere), then each saved pair's reproduce command.

Columns: ``nodes`` the shrunk pair's node counts (common/uncommon), ``hits`` the findings that
counted for the signature, ``reproduces`` whether the saved case module shows it again, ``in case``
whether the base's case shows a finding of the same pass, oracle and kind on its own forms (the
hand-written or generated library already has it)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, TextIO

COLUMNS = ("#", "pass", "oracle", "kind", "ops", "rewrite", "nodes", "hits", "reproduces", "in case", "case")


def rows(signatures: dict[str, dict[str, Any]]) -> list[tuple[str, ...]]:
    out = []
    for i, rec in enumerate(signatures.values(), 1):
        s = rec["signature"]
        nodes = "{}/{}".format(*rec["nodes"]) if rec.get("nodes") else "-"
        repro = {True: "yes", False: "no"}.get(rec.get("reproduces"), "-")
        library = "-" if "library" not in rec else "yes" if rec["library"] else "no"
        out.append(
            (
                str(i),
                s["pass_id"],
                s["oracle"],
                s["kind"],
                ",".join(s["ops"]) or "-",
                s["rewrite"],
                nodes,
                str(rec["hits"]),
                repro,
                library,
                rec.get("case") or rec.get("note", ""),
            )
        )
    return out


def table(signatures: dict[str, dict[str, Any]], stream: TextIO) -> None:
    """Print the summary of ``signatures`` (a :class:`~passcheck.hunt.store.Store`'s) to ``stream``."""
    if not signatures:
        print("no finding the rewrites are to blame for", file=stream)
        return
    body = rows(signatures)
    if stream.isatty():
        from rich.console import Console
        from rich.table import Table

        t = Table(title=f"{len(body)} distinct signatures (nodes: common/uncommon of the shrunk pair)")
        for c in COLUMNS:
            t.add_column(c, overflow="fold")  # a narrow terminal folds a cell, never cuts it
        for r in body:
            t.add_row(*r)
        Console(file=stream).print(t)
    else:
        print("\t".join(COLUMNS), file=stream)
        for r in body:
            print("\t".join(r), file=stream)
    for i, rec in enumerate(signatures.values(), 1):
        if rec.get("repro"):
            print(f"#{i} reproduce: {rec['repro']}", file=stream)
        else:
            f = rec["found_on"]
            print(f"#{i} found on {f['base']} rewritten as {f['form']} under {f['pass']}: {f['message']}", file=stream)


def coverage_lines(cmap, before: Iterable[Mapping[str, Any]], after: Iterable[Mapping[str, Any]]) -> list[str]:
    """Per tool: catalogue entries with at least one spelling tried before this run and after it,
    of the entries the bases trigger and of the catalogue (items from a hunt's state)."""
    from passcheck.coverage.report import tried

    was, now = tried(list(before), cmap), tried(list(after), cmap)
    out = ["coverage (catalogue entries with a spelling tried under them, before -> after this run):"]
    tools = dict.fromkeys(e.tool for e in cmap.entries.values())
    for tool in tools:
        keys = [k for k, e in cmap.entries.items() if e.tool == tool]
        reach = [k for k in keys if cmap.triggered(k)]
        n0, n1 = sum(k in was for k in reach), sum(k in now for k in reach)
        pairs0 = sum(len(was[k]["forms"]) for k in reach if k in was)
        pairs1 = sum(len(now[k]["forms"]) for k in reach if k in now)
        out.append(
            f"  {tool}: {n0} -> {n1} of {len(reach)} triggered entries ({len(keys)} in the catalogue); "
            f"(entry, spelling) pairs {pairs0} -> {pairs1}"
        )
    return out
