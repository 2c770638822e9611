"""The verdict grid (case × form → verdict per pass), laid out for where it is printed.

- On a terminal where the full table fits: one row per (case, form), a column per pass id, each
  cell the verdict label (``ok``, ``missed-opt``, ``known`` …); a case's id only on its first row.
- On a terminal too narrow for it (80 columns, many passes): the same rows with one mark per pass
  (``✓`` ok, a letter per finding kind), numbered pass columns and a legend of numbers and marks.
- Anywhere else (a pipe, a log file): one plain line per (case, form[, env]), no box drawing,
  ``CASE FORM [ENV] PASS=LABEL …`` separated by single spaces, so ``grep`` and ``awk`` work by line.

The matrix uses the same layouts with environments as the columns (:func:`print_rows`).
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.console import Console
from rich.table import Table, box
from rich.text import Text

from passcheck.records import CellResult
from passcheck.report.summary import ABBREV, grid, label

STYLE = {"ok": "green", "known": "yellow", "unchecked": "magenta", "skip": "dim", "n/a": "dim"}

#: One letter per finding kind in the compact grid.
KIND_MARKS = {
    "wrong-result": "W",
    "annotation-violated": "A",
    "invalid-model": "I",
    "rejected": "R",
    "missed-optimization": "M",
    "less-precise": "P",
    "expectation-failed": "E",
    "validity-disagreement": "D",
    "spec-violation": "S",
    "description-dropped": "T",
}
#: Marks of the verdicts without an unexpected finding, and their meaning in the legend.
STATE_MARKS = {
    "ok": ("✓", "ok"),
    "expected": ("k", "known"),
    "unchecked": ("u", "unchecked"),
    "skipped": ("-", "skipped"),
    "unavailable": ("?", "n/a"),
}


def mark(cell: CellResult) -> str:
    """One or a few characters for ``cell``: ``✓``, ``k``, ``-``, ``?``, the kinds' letters, or ``!``."""
    if cell.verdict == "findings":
        return "".join(sorted({KIND_MARKS.get(f.kind, "!") for f in cell.findings if not f.expected}))
    return STATE_MARKS.get(cell.verdict, ("!", ""))[0]


def print_grid(cells: Iterable[CellResult], console: Console) -> None:
    """Print the grid of ``cells`` in the layout that fits ``console`` (see the module doc)."""
    cells = list(cells)
    passes, rows = grid(cells)
    multi_env = len({c.env for c in cells}) > 1
    keyed = {(case, form, *([env] if multi_env else [])): by_pass for (case, form, env), by_pass in rows.items()}
    print_rows(["case", "form"] + (["env"] if multi_env else []), passes, keyed, console)


def print_rows(
    headers: list[str],
    columns: list[str],
    rows: dict[tuple[str, ...], dict[str, CellResult]],
    console: Console,
    *,
    what: str = "passes",
) -> None:
    """Rows keyed by (group, name, …) as in ``headers`` (``case``, ``form`` …), one verdict per
    column (pass ids, or environments in a matrix: ``what`` names them in the legend), in the
    layout that fits ``console``."""
    if not rows:
        return
    if not console.is_terminal:
        for key, by_col in rows.items():
            cols = list(key) + [f"{c}={label(by_col[c])}" for c in columns if c in by_col]
            console.print(Text(" ".join(cols)), soft_wrap=True, no_wrap=True, overflow="ignore", crop=False)
        return
    table = _table(headers, columns, rows)
    if table.__rich_measure__(console, console.options.update_width(1 << 20)).maximum <= console.width:
        console.print(table)
        return
    _compact(columns, rows, console, what)


def _table(headers: list[str], columns: list[str], rows: dict) -> Table:
    t = Table(box=box.SIMPLE_HEAD, show_edge=False, header_style="bold", pad_edge=False, padding=(0, 1))
    for name in headers + columns:
        t.add_column(name, no_wrap=True)
    last = None
    for key, by_col in rows.items():
        row = ["" if key[0] == last else key[0], *key[1:]]
        last = key[0]
        for c in columns:
            text = label(by_col[c]) if c in by_col else ""
            row.append(Text(text, style=STYLE.get(text, "bold red")))
        t.add_row(*row)
    return t


def _compact(columns: list[str], rows: dict, console: Console, what: str) -> None:
    """Group (case) on its own line, then each row with one mark per numbered column."""
    marks = {key: {c: mark(cell) for c, cell in by_col.items()} for key, by_col in rows.items()}
    width = max([len(str(len(columns)))] + [len(m) for ms in marks.values() for m in ms.values()])
    names = {key: " ".join(key[1:]) for key in rows}
    left = max(len(n) for n in names.values()) + 4  # two spaces of indent, two before the marks
    console.print(
        Text(" " * left + " ".join(str(i).rjust(width) for i in range(1, len(columns) + 1)), style="bold"),
        soft_wrap=True,
    )
    last = None
    for key in rows:
        if key[0] != last:
            console.print(Text(key[0], style="bold"), soft_wrap=True)
            last = key[0]
        line = Text(f"  {names[key]}".ljust(left))
        for i, c in enumerate(columns):
            m = marks[key].get(c, "·")
            line.append(("" if i == 0 else " ") + m.rjust(width), style=_mark_style(m))
        console.print(line, soft_wrap=True)
    console.print(
        Text(f"{what}: " + "  ".join(f"{i}={c}" for i, c in enumerate(columns, 1)), style="dim"), soft_wrap=False
    )
    used = {ch for ms in marks.values() for m in ms.values() for ch in m}
    kinds = {letter: ABBREV.get(kind, kind) for kind, letter in KIND_MARKS.items()}
    legend = [f"{m}={what}" for m, what in STATE_MARKS.values() if m in used]
    legend += [f"{letter}={kinds[letter]}" for letter in sorted(kinds) if letter in used]
    legend += ["!=error"] if "!" in used else []
    legend += ["·=not-run"] if any(len(ms) < len(columns) for ms in marks.values()) else []
    console.print(Text("marks: " + "  ".join(legend), style="dim"), soft_wrap=False)  # wrapped between items


def _mark_style(m: str) -> str:
    for state, (ch, _what) in STATE_MARKS.items():
        if m == ch:
            return {"ok": "green", "expected": "yellow", "unchecked": "magenta"}.get(state, "dim")
    return "dim" if m == "·" else "bold red"
