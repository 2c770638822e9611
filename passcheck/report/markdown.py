"""Markdown (CI step summaries, docs pages): the verdict grid and the findings table."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from passcheck.records import CellResult, nothing_checked
from passcheck.report.rootcause import root_causes, unexpected_phrase
from passcheck.report.summary import (
    NOTHING_CHECKED,
    counts,
    coverage_line,
    empty_outputs_line,
    form_against,
    grid,
    label,
    spec_rules_line,
    unavailable_lines,
    unchecked_lines,
    unchecked_phrase,
)


def _esc(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render(
    cells: Iterable[CellResult],
    environments: dict[str, dict[str, Any]] | None = None,
    *,
    title: str = "passcheck report",
) -> str:
    cells = list(cells)
    passes, rows = grid(cells)
    n = counts(cells)
    causes = root_causes(cells)
    out = [
        f"# {title}",
        "",
        f"{n['cells']} cells: **{n['unexpected']} unexpected findings ({unexpected_phrase(causes)})**, "
        f"{n['expected']} known, **{unchecked_phrase(n)}**, {n['skipped']} skipped, "
        f"{n['unavailable']} unavailable.",
        "",
    ]
    if nothing_checked(cells):
        out += [f"**{NOTHING_CHECKED}**", ""]
    if cov := coverage_line(cells):
        out += [f"Coverage: {_esc(cov)}.", ""]
    if spec := spec_rules_line(cells):
        out += [f"Conformance: {_esc(spec)}.", ""]
    if empty := empty_outputs_line(cells):
        out += [f"Numeric: {_esc(empty)}.", ""]
    for env, versions in (environments or {}).items():
        out.append(f"- `{env}`: " + ", ".join(f"{k} {v}" for k, v in versions.items() if v))
    out += [
        "",
        "| case | form | env | " + " | ".join(f"`{p}`" for p in passes) + " |",
        "|---" * (3 + len(passes)) + "|",
    ]
    for (case, form, env), by_pass in rows.items():
        out.append(
            f"| `{case}` | {form} | {env} | "
            + " | ".join(label(by_pass[p]) if p in by_pass else "" for p in passes)
            + " |"
        )
    if causes:  # one row per root cause; "also explains" lists the other cells it accounts for
        out += [
            "",
            "## Findings",
            "",
            "| case | form | pass | env | oracle | kind | what | also explains | known |",
            "|---|---|---|---|---|---|---|---|---|",
        ]
        for rc in causes:
            f = rc.finding
            also = "; ".join(f"{form_against(o)} \\| `{o.pass_id}` {o.kind}" for o in rc.others)
            out.append(
                f"| `{f.case}` | {f.form} | `{f.pass_id}` | {f.env} | {f.oracle} | {f.kind} | "
                f"{_esc(f.message)}{_attributed(f)} | {also} | {_esc(f.reason) if rc.expected else ''} |"
            )
    if lines := unchecked_lines(cells):
        out += ["", "## Not checked", "", *(f"- {_esc(line)}" for line in lines)]
    if lines := unavailable_lines(cells):
        out += ["", "## Not run here (n/a)", "", *(f"- {_esc(line)}" for line in lines)]
    return "\n".join(out) + "\n"


def _attributed(f) -> str:
    return f" (attributed to: {', '.join(f.attribution)})" if f.attribution else ""


#: The tool a pass id exercises, for the "versions affected" column.
_TOOL = {"ort": ("onnxruntime",), "onnx": ("onnx",), "onnxscript": ("onnxscript",), "input": ("onnx", "onnxruntime")}


def _affected(
    pass_id: str, envs_seen: list[str], environments: dict[str, dict[str, Any]], cell_versions: dict[str, Any]
) -> str:
    tools = _TOOL.get(pass_id.split(":", 1)[0], ("onnx", "onnxruntime", "onnxscript"))
    parts = []
    for e in envs_seen:
        v = (environments or {}).get(e) or cell_versions
        parts.append(" ".join(f"{t} {v[t]}" for t in tools if v.get(t)) or e)
    everywhere = environments and len(environments) > 1 and set(envs_seen) == set(environments)
    return ("every environment: " if everywhere else "") + "; ".join(dict.fromkeys(parts))


def findings_table(
    cells: Iterable[CellResult], environments: dict[str, dict[str, Any]] | None = None, *, title: str = "Findings"
) -> str:
    """One row per (pass, oracle, kind, form): how many cases show it, one example, and the
    versions of the tool under test in each environment where it was seen."""
    groups: dict[tuple[str, str, str, str], list] = {}
    for c in cells:
        for f in c.findings:
            groups.setdefault((f.pass_id, f.oracle, f.kind, f.form), []).append((f, c))
    out = [f"# {title}", ""]
    for env, versions in (environments or {}).items():
        out.append(f"- `{env}`: " + ", ".join(f"{k} {v}" for k, v in versions.items() if v and k != "error"))
    out += [
        "",
        "| pass | oracle | kind | form | cases | example | versions affected |",
        "|---|---|---|---|---|---|---|",
    ]
    for (pid, oracle, kind, form), items in sorted(groups.items()):
        cases = sorted({f.case for f, _ in items})
        f, c = items[0]
        seen = sorted(
            {x.env for x, _ in items},
            key=lambda e: [int(t) if t.isdigit() else t for t in __import__("re").split(r"(\d+)", e)],
        )
        shown = ", ".join(f"`{x}`" for x in cases[:4]) + (f" (+{len(cases) - 4})" if len(cases) > 4 else "")
        out.append(
            f"| `{pid}` | {oracle} | {kind} | {form} | {len(cases)}: {shown} | `{f.case}`: "
            f"{_esc(f.message)} | {_affected(pid, seen, environments or {}, c.versions or {})} |"
        )
    return "\n".join(out) + "\n"
