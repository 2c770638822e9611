"""The verdict grid (case × form → verdict per pass), laid out for where it is printed.

- On a terminal where the full table fits: one row per (case, form), a column per pass id, each
  cell the verdict label (``ok``, ``missed-opt``, ``known`` …); a case's id only on its first row.
- On a terminal too narrow for it (80 columns, many passes): the same rows with one mark per pass
  (``✓`` ok, a letter per finding kind), numbered pass columns and a legend of numbers and marks.
- Anywhere else (a pipe, a log file): one plain line per (case, form[, env]), no box drawing,
  ``CASE FORM [ENV] PASS=LABEL …`` separated by single spaces, so ``grep`` and ``awk`` work by line.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.console import Console
from rich.table import Table, box
from rich.text import Text

from passcheck.records import CellResult
from passcheck.report.summary import ABBREV, grid, label

STYLE = {"ok": "green", "known": "yellow", "skip": "dim", "n/a": "dim"}

#: One letter per finding kind in the compact grid.
KIND_MARKS = {
    "wrong-result": "W", "annotation-violated": "A", "invalid-model": "I", "rejected": "R",
    "missed-optimization": "M", "less-precise": "P", "expectation-failed": "E",
}
#: Marks of the verdicts without an unexpected finding, and their meaning in the legend.
STATE_MARKS = {"ok": ("✓", "ok"), "expected": ("k", "known"), "skipped": ("-", "skipped"), "unavailable": ("?", "n/a")}


def mark(cell: CellResult) -> str:
    """One or a few characters for ``cell``: ``✓``, ``k``, ``-``, ``?``, the kinds' letters, or ``!``."""
    if cell.verdict == "findings":
        return "".join(sorted({KIND_MARKS.get(f.kind, "!") for f in cell.findings if not f.expected}))
    return STATE_MARKS.get(cell.verdict, ("!", ""))[0]


def print_grid(cells: Iterable[CellResult], console: Console) -> None:
    """Print the grid of ``cells`` in the layout that fits ``console`` (see the module doc)."""
    cells = list(cells)
    passes, rows = grid(cells)
    if not rows:
        return
    multi_env = len({c.env for c in cells}) > 1
    if not console.is_terminal:
        for (case, form, env), by_pass in rows.items():
            cols = [case, form] + ([env] if multi_env else [])
            cols += [f"{p}={label(by_pass[p])}" for p in passes if p in by_pass]
            console.print(Text(" ".join(cols)), soft_wrap=True, no_wrap=True, overflow="ignore", crop=False)
        return
    table = _table(passes, rows, multi_env)
    if table.__rich_measure__(console, console.options.update_width(1 << 20)).maximum <= console.width:
        console.print(table)
        return
    _compact(passes, rows, multi_env, console)


def _table(passes: list[str], rows: dict, multi_env: bool) -> Table:
    t = Table(box=box.SIMPLE_HEAD, show_edge=False, header_style="bold", pad_edge=False, padding=(0, 1))
    for name in ["case", "form"] + (["env"] if multi_env else []) + passes:
        t.add_column(name, no_wrap=True)
    last = None
    for (case, form, env), by_pass in rows.items():
        row = ["" if case == last else case, form] + ([env] if multi_env else [])
        last = case
        for p in passes:
            text = label(by_pass[p]) if p in by_pass else ""
            row.append(Text(text, style=STYLE.get(text, "bold red")))
        t.add_row(*row)
    return t


def _compact(passes: list[str], rows: dict, multi_env: bool, console: Console) -> None:
    """Case on its own line, then each form with one mark per numbered pass column."""
    marks = {key: {p: mark(c) for p, c in by_pass.items()} for key, by_pass in rows.items()}
    width = max([len(str(len(passes)))] + [len(m) for ms in marks.values() for m in ms.values()])
    names = {key: key[1] + (f" @{key[2]}" if multi_env else "") for key in rows}
    left = max(len(n) for n in names.values()) + 4  # two spaces of indent, two before the marks
    console.print(Text(" " * left + " ".join(str(i).rjust(width) for i in range(1, len(passes) + 1)), style="bold"),
                  soft_wrap=True)
    last = None
    for key in rows:
        if key[0] != last:
            console.print(Text(key[0], style="bold"), soft_wrap=True)
            last = key[0]
        line = Text(f"  {names[key]}".ljust(left))
        for i, p in enumerate(passes):
            m = marks[key].get(p, "·")
            line.append(("" if i == 0 else " ") + m.rjust(width), style=_mark_style(m))
        console.print(line, soft_wrap=True)
    console.print(Text("passes: " + "  ".join(f"{i}={p}" for i, p in enumerate(passes, 1)), style="dim"))
    used = {ch for ms in marks.values() for m in ms.values() for ch in m}
    kinds = {letter: ABBREV.get(kind, kind) for kind, letter in KIND_MARKS.items()}
    legend = [f"{m}={what}" for m, what in STATE_MARKS.values() if m in used]
    legend += [f"{letter}={kinds[letter]}" for letter in sorted(kinds) if letter in used]
    legend += ["!=error"] if "!" in used else []
    legend += ["·=not-run"] if any(len(ms) < len(passes) for ms in marks.values()) else []
    console.print(Text("marks: " + "  ".join(legend), style="dim"))


def _mark_style(m: str) -> str:
    for state, (ch, _what) in STATE_MARKS.items():
        if m == ch:
            return {"ok": "green", "expected": "yellow"}.get(state, "dim")
    return "dim" if m == "·" else "bold red"
