"""Generate docs/mutations.md: every rewrite on every model the onnx wheel ships, verified, then checked.

Usage: python scripts/mutation_table.py [--pass ID]... [--out docs/mutations.md] [--limit N] [--budget SECONDS]
First, on every model, the sites each rewrite finds (cheap: no run). Then, model by model until the
time budget is spent (the models not reached are named), the mutants through the equivalence gate
(model runs in the isolation worker) and the passes: per model, the rewrites that applied, how many
mutants, how many passed the gate, and the findings per pass (all oracles; parity findings counted
apart); per rewrite, the sites, the gate's pass rate and the findings, summed over the models.
"""

from __future__ import annotations

import argparse
import collections
import time
from pathlib import Path

import onnx

from passcheck.engine import evaluate
from passcheck.errors import PasscheckError
from passcheck.mutations import REWRITES, mutation_subject
from passcheck.mutations._base import RewriteError
from passcheck.passes.isolation import IsolatedExecutor

#: Small models first, so a time budget covers most models; the light/ models (hundreds of nodes) last.
PATTERNS = (
    "simple/*/model.onnx",
    "pytorch-operator/*/model.onnx",
    "pytorch-converted/*/model.onnx",
    "light/*.onnx",
    "node/*/model.onnx",
)
DEFAULT = ("ort:basic", "onnx:infer-shapes")


def _feed_size(path: Path) -> int:
    """Elements a model's graph inputs take when every dim is known (the light/ models' weights are inputs)."""
    m = onnx.load(str(path))
    total = 0
    for v in m.graph.input:
        n = 1
        for d in v.type.tensor_type.shape.dim:
            n *= d.dim_value or 1
        total += n
    return total


def shipped_models() -> list[tuple[str, Path]]:
    """The shipped models, small ones first (within a pattern, by feed size): a budget reaches most."""
    data = Path(onnx.__file__).parent / "backend/test/data"
    found = [p for pat in PATTERNS for p in sorted(data.glob(pat), key=lambda p: (_feed_size(p), str(p)))]
    return [(str(p.relative_to(data)).removesuffix("/model.onnx").removesuffix(".onnx"), p) for p in found]


class Stats:
    """Per-rewrite sums over the models: sites found, mutants tried / verified, findings per pass."""

    def __init__(self) -> None:
        self.models = collections.Counter()
        self.sites = collections.Counter()
        self.raised = collections.Counter()
        self.tried = collections.Counter()
        self.verified = collections.Counter()
        self.findings: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
        self.parity: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)

    def count_sites(self, model: onnx.ModelProto) -> None:
        for rid, r in REWRITES.items():
            try:
                got = r.apply(model)
            except RewriteError:
                self.raised[rid] += 1
                continue
            if got is not None:
                self.models[rid] += 1
                self.sites[rid] += got[1].count


def row(name: str, path: Path, passes: list[str], executor, stats: Stats | None = None) -> tuple[str, dict]:
    model = onnx.load(str(path))
    refused: dict[str, str] = {}
    unverified: dict[str, str] = {}
    runner = getattr(executor, "run_model", None) if stats is not None else None
    try:
        subject, applied = mutation_subject(
            model, f"model/{name}", refused=refused, unverified=unverified, runner=runner
        )
    except PasscheckError as exc:
        return f"| {name} | – | 0 | – | not checked: {str(exc).split(': ', 1)[-1][:90]} |", {}
    refused.update(unverified)
    tried = len(applied) + len(refused)
    gate = f"{len(applied)}/{tried}" + (f" (refused: {', '.join(sorted(refused))})" if refused else "")
    if stats is not None:
        stats.tried.update([*applied, *refused])
        stats.verified.update(list(applied))
    if not applied:
        if refused:
            return f"| {name} | none | {tried} | {gate} | nothing to compare |", {}
        return f"| {name} | none | 0 | – | nothing to compare |", {}
    cells = evaluate(subject, passes, executor=executor)
    per_pass = collections.defaultdict(lambda: [0, 0])
    gaps = collections.Counter()
    for c in cells:
        for f in c.findings:
            if c.form == "common":
                continue
            per_pass[c.pass_id][0] += 1
            if stats is not None:
                stats.findings[c.form][c.pass_id] += 1
                stats.parity[c.form][c.pass_id] += f.oracle == "parity"
            if f.oracle == "parity":
                per_pass[c.pass_id][1] += 1
                gaps[(c.form, c.pass_id)] += 1
    findings = "; ".join(f"{p}: {n} ({k} parity)" for p, (n, k) in sorted(per_pass.items())) or "none"
    rewrites = ", ".join(f"{rid} ({a.count})" for rid, a in applied.items())
    return f"| {name} | {rewrites} | {tried} | {gate} | {findings} |", dict(gaps)


def per_rewrite(stats: Stats, reached: int) -> list[str]:
    """The per-rewrite table: models and sites (every model), gate and findings (the models reached)."""
    lines = ["| id | models | sites | verified / tried (gate) | findings per pass (parity) |", "|---|---|---|---|---|"]
    for rid in REWRITES:
        tried = stats.tried[rid]
        gate = f"{stats.verified[rid]}/{tried} ({100 * stats.verified[rid] / tried:.0f} %)" if tried else "–"
        if stats.raised[rid]:
            gate += f"; raised on {stats.raised[rid]} models"
        found = "; ".join(f"{p}: {n} ({stats.parity[rid][p]})" for p, n in sorted(stats.findings[rid].items()))
        found = found or "none"
        lines.append(f"| `{rid}` | {stats.models[rid]} | {stats.sites[rid]} | {gate} | {found if tried else '–'} |")
    return lines


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pass", dest="passes", action="append", default=[])
    ap.add_argument("--out", default="docs/mutations.md")
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--budget", type=float, default=1800, help="seconds for the gate-and-passes stage (default 1800)")
    ap.add_argument(
        "--sites-only",
        action="append",
        default=[],
        metavar="PREFIX",
        help="models whose name starts so get the sites stage only (e.g. light/: their runs are long)",
    )
    args = ap.parse_args()
    passes = args.passes or list(DEFAULT)
    models = shipped_models()[: args.limit or None]
    start = time.time()
    stats = Stats()
    for _name, path in models:
        stats.count_sites(onnx.load(str(path)))
    sites_time = time.time() - start
    print(f"sites counted on {len(models)} models in {sites_time:.0f} s", flush=True)
    rows, gaps, skipped = [], collections.Counter(), []
    with IsolatedExecutor() as executor:  # a pass or run that crashes costs one cell
        for name, path in models:
            if time.time() - start - sites_time > args.budget or name.startswith(tuple(args.sites_only)):
                skipped.append(name)
                continue
            text, g = row(name, path, passes, executor, stats)
            rows.append(text)
            gaps.update({f"{form} under {p}": n for (form, p), n in g.items()})
            print(text, flush=True)
    lines = [
        "# Mutations over the models the onnx wheel ships",
        "",
        f"Generated by `python scripts/mutation_table.py --budget {args.budget:.0f}"
        f"{''.join(f' --sites-only {p}' for p in args.sites_only)}` (onnx {onnx.__version__}, "
        f"onnxruntime {_ort_version()}, passes: {', '.join(passes)}, {len(models)} models: sites counted on all in "
        f"{sites_time:.0f} s, then gate and passes on {len(rows)} within the budget, "
        f"{time.time() - start:.0f} s in all). "
        "The wheel ships no node/ models. Findings count the mutants' cells only (form ≠ common); a mutant the "
        "equivalence "
        "gate refuses (or cannot judge) is left out of the run and counted in the verified column (verified/tried). "
        "Each model gets every rewrite's all-at-once form (no single-site forms, no pairs).",
        "",
        "## Per rewrite",
        "",
        "Models and sites: every model. Gate and findings: the models reached within the budget.",
        "",
        *per_rewrite(stats, len(rows)),
        "",
        "## Rewrites",
        "",
        "| id | rewrite | inverse |",
        "|---|---|---|",
        *[f"| `{r.id}` | {r.doc} | {r.inverse or '–'} |" for r in REWRITES.values()],
        "",
        "## Per model",
        "",
        "| model | rewrites applied (sites) | mutants | verified equivalent | findings per pass (parity) |",
        "|---|---|---|---|---|",
        *rows,
        "",
        *(
            [f"Sites only (not reached within the budget, or --sites-only) ({len(skipped)}): {', '.join(skipped)}", ""]
            if skipped
            else []
        ),
        "## Parity findings by rewrite and pass",
        "",
        *([f"- {k}: {n}" for k, n in sorted(gaps.items())] or ["- none"]),
        "",
    ]
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text("\n".join(lines))


def _ort_version() -> str:
    import onnxruntime

    return onnxruntime.__version__


if __name__ == "__main__":
    main()
