"""``DIR/index.md`` (one table row per candidate) and ``docs/found.md`` (the project's public record:
every candidate with its status, known or new, and the command that reproduces it)."""

from __future__ import annotations

import os
import shlex
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from passcheck.records import brief


def _cell(text: str, limit: int = 160) -> str:
    return brief(text, limit).replace("|", "\\|")


def upstream_phrase(entry: Mapping[str, Any] | None, documented: Mapping[str, Any] | None = None) -> str:
    """:func:`passcheck.triage.known.phrase` of the upstream ``entry``; without one, ``known (found.md row N)`` when
    a documented row (:mod:`passcheck.hunt.documented`) records the candidate, else ``new``."""
    from passcheck.hunt.documented import label
    from passcheck.triage.known import phrase

    if entry is None and documented is not None:
        return f"known ({label(documented)})"
    return phrase(entry)


def _upstream(entry: dict[str, Any] | None, documented: Mapping[str, Any] | None = None) -> str:
    from passcheck.triage.known import phrase

    if entry is None:
        return upstream_phrase(None, documented)
    return f"known: [{entry['link'].rsplit('/', 3)[-3]}#{entry['link'].rsplit('/', 1)[-1]}]({entry['link']})" + (
        f" ({phrase(entry).split('(', 1)[1]}" if "(" in phrase(entry) else ""
    )


def index_md(
    rows: Sequence[Mapping[str, Any]], sources: Sequence[str], versions: Mapping[str, str | None], budget: float | None
) -> str:
    """``index.md``. ``rows``: per candidate ``n``, ``candidate``, ``outcome``, ``upstream``, ``folder``."""
    counts: dict[str, int] = {}
    for r in rows:
        counts[r["outcome"].status] = counts.get(r["outcome"].status, 0) + 1
    lines = [
        "# passcheck triage",
        "",
        f"From: {', '.join(f'`{s}`' for s in sources)}. Versions: "
        + ", ".join(f"{k} {v}" for k, v in versions.items() if v)
        + ".",
        f"Budget: {'none' if budget is None else f'{budget:g} s'}. {len(rows)} candidates"
        + (": " + ", ".join(f"{v} {k}" for k, v in counts.items()) if counts else " (no finding in the sources)")
        + ".",
        "",
        "Rank: crash > wrong result > invalid output > wrong shape or type > missed optimization > other.",
        "",
        "| # | rank | tool | candidate | seen | status | why | upstream | folder |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        c, o = r["candidate"], r["outcome"]
        f = c.finding
        folder = f"[{r['folder']}]({r['folder']}/)" if r.get("written") else "—"
        lines.append(
            f"| {r['n']} | {c.rank} | {c.tool} | {_cell(f'{f.pass_id} {f.oracle} [{f.kind}] {f.message}')} "
            f"| {c.seen} | {o.status} | {_cell(o.why, 200)} "
            f"| {_upstream(r['upstream'], r.get('documented'))} | {folder} |"
        )
    return "\n".join([*lines, *causes_md(rows)]) + "\n"


def _named_ops(f) -> tuple[str, ...]:
    """Op types a finding names whose signature has none: the node computing a violated annotation's value
    (``details["producer"]``), or the op types of the hunt signature a refused hunt finding stands for
    (``details["ops"]``)."""
    d = f.details if isinstance(f.details, dict) else {}
    ops = d.get("ops") or ([d["producer"]] if d.get("producer") else [])
    return tuple(sorted(o for o in ops if isinstance(o, str)))


def causes_md(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """The candidates of ``rows`` grouped by root cause: tool, signature pass, oracle, kind and the pass
    rule (:func:`passcheck.hunt.groups.rule_of` on the representative's message: the op types one form kept
    and the fused op the other gained, the op left unfolded, else the op types and error class), the
    candidates in each listed by number with their statuses, the cause with the most candidates first, a barrier's
    cause (``behind [OP] the pass kept``) after every other. A candidate
    whose rule names neither op types nor an error (a value mismatch) is a cause of its own."""
    from passcheck.hunt.groups import behind, rule_of

    causes: dict[tuple, list[Mapping[str, Any]]] = {}
    for r in rows:
        c = r["candidate"]
        s, f = c.signature, c.finding
        text = rule_of(f.oracle, f.kind, f.message, s.ops or _named_ops(f), s.error)
        # a rule naming neither op types nor an error (a value mismatch) tells no two candidates alike
        key = (c.tool, s.pass_id, s.oracle, s.kind, text) + ((r["n"],) if text == "ops -" else ())
        causes.setdefault(key, []).append(r)
    lines = [
        "",
        f"## By root cause ({len(causes)} causes of {len(rows)} candidates)",
        "",
        "| cause | tool | pass | oracle | kind | rule | candidates | status |",
        "|---|---|---|---|---|---|---|---|",
    ]
    ordered = sorted(causes.items(), key=lambda kv: (behind(kv[0][4]), -len(kv[1])))
    for i, ((tool, pass_id, oracle, kind, text, *_), rs) in enumerate(ordered, 1):
        statuses: dict[str, int] = {}
        for r in rs:
            statuses[r["outcome"].status] = statuses.get(r["outcome"].status, 0) + 1
        numbers = ", ".join(f"#{r['n']}" for r in rs)
        counts = ", ".join(f"{n} {k}" for k, n in statuses.items())
        lines.append(f"| {i} | {tool} | {pass_id} | {oracle} | {kind} | {_cell(text)} | {numbers} | {counts} |")
    return lines


def relative_command(command: str, root: str | Path) -> str:
    """``command`` with each absolute path inside ``root`` written relative to it (``--cases-from
    /repo/docs/hunt/cases/h.py`` → ``--cases-from docs/hunt/cases/h.py`` for root ``/repo``); other words kept."""
    root = Path(root).resolve()

    def rel(word: str) -> str:
        if not os.path.isabs(word):
            return word
        p = Path(word).resolve()
        return p.relative_to(root).as_posix() if p.is_relative_to(root) else word

    try:
        words = shlex.split(command)
    except ValueError:  # unbalanced quotes: shown as recorded
        return command
    return shlex.join(rel(w) for w in words)


def found_md(
    rows: Sequence[Mapping[str, Any]],
    command: str,
    versions: Mapping[str, str | None],
    seconds: float,
    note: str = "",
    root: str | Path | None = None,
) -> str:
    """``docs/found.md``: every candidate with its status, known/new and link, the passcheck command that
    shows it (paths inside ``root``, default the working folder, written relative to it) and its bundle's
    script (the folder under the triage's ``--out``)."""
    root = Path.cwd() if root is None else root
    lines = [
        "# What passcheck found",
        "",
        "Generated by `passcheck triage` (do not edit by hand): every candidate defect, ranked, with its status",
        "here, whether an upstream report is known (`passcheck/triage/known_upstream.json`) and the command that",
        "reproduces it. A bundle's `repro.py` needs only onnx, onnxruntime, numpy and the tool under test; it exits 1",
        "while the bug is present.",
        "",
        f"Command: `{command}` ({seconds:.0f} s). Versions: "
        + ", ".join(f"{k} {v}" for k, v in versions.items() if v)
        + ".",
    ]
    if note:
        lines += ["", note]
    lines += ["", "| # | rank | tool | what | status | upstream | reproduce | bundle |", "|---" * 8 + "|"]
    for r in rows:
        c, o = r["candidate"], r["outcome"]
        f = c.finding
        how = f"`{relative_command(f.repro, root)}`" if f.repro else "—"
        folder = f"`{r['folder']}/repro.py`" if o.status == "reproduced" else "—"
        status = o.status if o.status == "reproduced" else f"{o.status}: {_cell(o.why, 120)}"
        what = _cell(f"{f.case} | {f.form} | {f.pass_id}: [{f.kind}] {f.message}")
        upstream = _upstream(r["upstream"], r.get("documented"))
        lines.append(f"| {r['n']} | {c.rank} | {c.tool} | {what} | {status} | {upstream} | {how} | {folder} |")
    return "\n".join(lines) + "\n"
