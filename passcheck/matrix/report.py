"""The matrix view: per case family, one row per (case, form, pass), environments as columns,
and the differences across environments as headlines.

A *difference* is a row whose verdict labels differ between environments (ignoring cells
skipped or unavailable there). A row that is ``ok`` in some environments and has findings in
others is a *headline*: "this form passes on onnx 1.21 and fails on 1.20".
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from passcheck.matrix.verdict import env_order  # noqa: F401 - part of this module's vocabulary
from passcheck.records import CellResult, nothing_checked
from passcheck.report.summary import NOTHING_CHECKED, counts, label

Row = tuple[str, str, str]  # case, form, pass


def _env_key(env: str):
    """Sort ``onnx-1.9`` before ``onnx-1.18``: numbers compare as numbers."""
    import re

    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", env)]


@dataclasses.dataclass
class Difference:
    case: str
    form: str
    pass_id: str
    labels: dict[str, str]  # env → label
    headline: bool
    why: dict[str, str]  # env → first finding message / error text, for envs with findings
    repro: dict[str, str]  # env → reproduce command

    def text(self) -> str:
        groups: dict[str, list[str]] = {}
        for env, lab in self.labels.items():
            groups.setdefault(lab, []).append(env)
        parts = "; ".join(f"{lab} on {', '.join(sorted(envs, key=_env_key))}" for lab, envs in groups.items())
        return f"{self.case} | {self.form} | {self.pass_id}: {parts}"

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def table(cells: Iterable[CellResult]) -> dict[str, dict[Row, dict[str, CellResult]]]:
    """{family: {(case, form, pass): {env: cell}}} in order of appearance."""
    out: dict[str, dict[Row, dict[str, CellResult]]] = {}
    for c in cells:
        out.setdefault(c.case.split("/", 1)[0], {}).setdefault((c.case, c.form, c.pass_id), {})[c.env] = c
    return out


def _why(cell: CellResult) -> str:
    new = [f for f in cell.findings if not f.expected]
    text = (new[0].message if new else "") or (cell.error or "")
    if cell.error and cell.error.splitlines()[0] not in text:
        text += f" — error: {cell.error.splitlines()[0]}"
    return text.strip()


def differences(cells: Iterable[CellResult]) -> list[Difference]:
    """Rows whose verdict differs across environments, headlines first."""
    out = []
    for rows in table(cells).values():
        for (case, form, pass_id), by_env in rows.items():
            labels = {e: label(c) for e, c in by_env.items()}
            ran = {e: lab for e, lab in labels.items() if lab not in ("skip", "n/a")}
            if len(set(ran.values())) < 2:
                continue
            failing = {e: c for e, c in by_env.items() if c.verdict == "findings"}
            out.append(
                Difference(
                    case,
                    form,
                    pass_id,
                    labels,
                    headline="ok" in ran.values() and bool(failing),
                    why={e: _why(c) for e, c in failing.items()},
                    repro={e: next((f.repro for f in c.findings if f.repro), "") for e, c in failing.items()},
                )
            )
    return sorted(out, key=lambda d: not d.headline)


def merged(diffs: Sequence[Difference]) -> list[tuple[Difference, list[str]]]:
    """The differences with rows that say the same thing joined: each first row with the pass ids of
    the later rows of the same case and form whose labels and per-environment texts (the pass id
    masked) are equal, in order. Several passes that are one tool under another name (a level and its
    config-keyed variants, ``ort:all+<key>``, when the key changes nothing there) then read as one
    row naming its other passes, instead of one headline per pass. ``differences`` and its count keep
    every row."""
    out: list[tuple[Difference, list[str]]] = []
    seen: dict[tuple, int] = {}
    for d in diffs:
        key = (
            d.case,
            d.form,
            d.headline,
            tuple(sorted(d.labels.items())),
            tuple(sorted((e, w.replace(d.pass_id, "{pass}")) for e, w in d.why.items())),
        )
        if key in seen:
            out[seen[key]][1].append(d.pass_id)
        else:
            seen[key] = len(out)
            out.append((d, []))
    return out


def _also(others: Sequence[str]) -> str:
    return f" (the same under {len(others)} more: {', '.join(others)})" if others else ""


def render_terminal(
    cells: Sequence[CellResult], environments: dict[str, Any], console=None, *, tables: bool = True
) -> None:
    """Print one rich table per family, then the differences and every finding's reproduce line."""
    from rich.console import Console
    from rich.text import Text

    from passcheck.report.layout import print_rows

    console = console or Console(soft_wrap=True)
    envs = env_order(cells, environments)
    for family, rows in (table(cells) if tables else {}).items():
        console.print(Text(f"{family}/*", style="bold"))
        print_rows(
            ["case", "form", "pass"],
            envs,
            {(case.split("/", 1)[1], form, pass_id): by_env for (case, form, pass_id), by_env in rows.items()},
            console,
            what="environments",
        )
    diffs = differences(cells)
    if diffs:
        console.print(Text("Differences across environments", style="bold"))
    for d, others in merged(diffs):
        console.print(
            Text(
                ("HEADLINE " if d.headline else "") + d.text() + _also(others),
                style="bold red" if d.headline else "yellow",
            )
        )
        for e, why in d.why.items():
            console.print(Text(f"    {e}: {why}"))
            if d.repro.get(e):
                console.print(Text(f"    reproduce: {d.repro[e]}", style="dim"))
    diff_keys = {(d.case, d.form, d.pass_id) for d in diffs}
    same: dict[tuple[str, str, str, str, str], list] = {}
    for c in cells:
        if (c.case, c.form, c.pass_id) in diff_keys:
            continue
        for f in c.findings:
            if not f.expected:
                same.setdefault((f.case, f.form, f.pass_id, f.oracle, f.kind), []).append(f)
    if same:
        console.print(Text("Findings in every environment that ran them", style="bold"))
    for (case, form, pass_id, oracle, kind), fs in same.items():
        envs_seen = sorted({f.env for f in fs})
        console.print(
            Text(
                f"{case} | {form} | {pass_id} | {', '.join(envs_seen)} | {oracle}: [{kind}] {fs[0].message}",
                style="red",
            ),
            soft_wrap=True,
        )
        if fs[0].repro:
            console.print(Text(f"    reproduce: {fs[0].repro}", style="dim"), soft_wrap=True)
    for e in envs:
        err = (environments.get(e) or {}).get("error")
        if err:
            console.print(Text(f"environment {e} is unavailable: {err}", style="bold red"), soft_wrap=True)
    n = counts(cells)
    findings = sum(1 for c in cells for f in c.findings if not f.expected)
    console.print(
        f"{n['cells']} cells in {len(envs)} environments: {findings} unexpected findings, "
        f"{len(diffs)} rows differ across environments ({sum(d.headline for d in diffs)} headlines), "
        f"{n['skipped']} skipped, {n['unavailable']} unavailable"
    )
    if nothing_checked(cells):
        console.print(Text(NOTHING_CHECKED, style="magenta"), soft_wrap=True)


def _esc(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render_markdown(
    cells: Sequence[CellResult],
    environments: dict[str, Any],
    *,
    title: str = "passcheck matrix",
    notes: Sequence[str] = (),
) -> str:
    """Markdown for a CI step summary: headlines, ``notes`` (partial merge, baseline status), one
    table per family, findings with reproduce commands."""
    envs = env_order(cells, environments)
    diffs = differences(cells)
    n = counts(cells)
    out = [
        f"# {title}",
        "",
        f"{n['cells']} cells in {len(envs)} environments: **{n['unexpected']} unexpected findings**, "
        f"{len(diffs)} rows differ across environments, {n['skipped']} skipped, {n['unavailable']} unavailable.",
        "",
    ]
    for e in envs:
        v = environments.get(e) or {}
        out.append(
            f"- `{e}`: "
            + ", ".join(f"{k} {x}" for k, x in v.items() if x and k != "error")
            + (f" — {v['error']}" if v.get("error") else "")
        )
    if notes:
        out += ["", *(f"- **{_esc(n)}**" if n.startswith("PARTIAL") else f"- {_esc(n)}" for n in notes)]
    if diffs:
        out += ["", "## Differences across environments", ""]
        for d, others in merged(diffs):
            out.append(
                f"- {'**headline** ' if d.headline else ''}`{d.case}` | {d.form} | `{d.pass_id}`: "
                + "; ".join(f"{lab} on {e}" for e, lab in d.labels.items())
                + _esc(_also(others))
            )
            for e, why in d.why.items():
                out.append(f"  - {e}: {_esc(why)}" + (f" — `{d.repro[e]}`" if d.repro.get(e) else ""))
    for family, rows in table(cells).items():
        out += [
            "",
            f"## {family}/*",
            "",
            "| case | form | pass | " + " | ".join(f"`{e}`" for e in envs) + " |",
            "|---" * (3 + len(envs)) + "|",
        ]
        for (case, form, pass_id), by_env in rows.items():
            out.append(
                f"| `{case}` | {form} | `{pass_id}` | "
                + " | ".join(label(by_env[e]) if e in by_env else "" for e in envs)
                + " |"
            )
    found = [f for c in cells for f in c.findings if not f.expected]
    if found:
        out += [
            "",
            "## Findings",
            "",
            "| case | form | pass | env | oracle | kind | what | reproduce |",
            "|---|---|---|---|---|---|---|---|",
        ]
        for f in found:
            out.append(
                f"| `{f.case}` | {f.form} | `{f.pass_id}` | {f.env} | {f.oracle} | {f.kind} | {_esc(f.message)} "
                f"| `{f.repro}` |"
            )
    return "\n".join(out) + "\n"


def write_all(
    out: Path, cells: Sequence[CellResult], environments: dict[str, Any], meta: dict[str, Any]
) -> dict[str, Any]:
    """Write ``report.json`` (canonical), ``report.xml`` (JUnit), ``report.md`` in ``out``;
    returns the environments in plan order. ``meta["partial"]`` (an interrupted run, a partial
    merge: why the cells are not the whole plan) marks each as partial: ``"partial": true`` in JSON
    (what ``passcheck report`` reads), a failing ``interrupted`` testcase in JUnit, a note in Markdown."""
    from passcheck.matrix import verdict
    from passcheck.report import junit, write_report
    from passcheck.report.json_report import atomic_write

    order = [e["id"] for e in meta.get("environments", [])]
    envs = {e: environments.get(e, {}) for e in env_order(cells, order)}
    partial = str(meta.get("partial") or "")
    write_report(
        out / "report.json",
        cells,
        envs,
        **({"partial": True} if partial else {}),
        matrix={**meta, "differences": [d.to_json() for d in differences(cells)]},
    )
    junit.write_junit(out / "report.xml", cells, suite="passcheck-matrix", partial=partial, environments=envs)
    atomic_write(out / "report.md", render_markdown(cells, envs, notes=verdict.notes(meta)))
    return envs


def load(out: Path) -> tuple[list[CellResult], dict[str, Any], dict[str, Any]]:
    """Read a matrix output folder's report.json (or results.jsonl) → (cells, environments, meta)."""
    from passcheck.report import read_report

    path = out / "report.json" if (out / "report.json").is_file() else out / "results.jsonl"
    cells, envs = read_report(path)
    meta: dict[str, Any] = {}
    try:
        meta = json.loads(path.read_text(encoding="utf-8")).get("matrix", {}) if path.suffix == ".json" else {}
    except ValueError:
        pass
    if not meta and (out / "plan.json").is_file():  # interrupted before report.json
        try:
            meta = json.loads((out / "plan.json").read_text(encoding="utf-8"))
        except ValueError:
            pass
    return cells, envs, meta
