"""``passcheck generate``: build (or reuse) the generated cases and print what was built and dropped."""

from __future__ import annotations

from passcheck.cli._common import console as console_
from passcheck.errors import PasscheckError


def add_parser(sub) -> None:
    p = sub.add_parser("generate", help="generate cases from the onnx operator schemas (cached per onnx version)")
    p.add_argument("--stats", action="store_true", help="print, per op, the pairs built and the pairs dropped and why")
    p.add_argument(
        "--op",
        action="append",
        default=[],
        metavar="GLOB",
        help="only ops whose name matches (a partial set, cached separately; for development)",
    )
    p.add_argument(
        "--examples",
        action="store_true",
        help="with --stats: the first dropped pair of each op and reason, with the tool's message",
    )
    p.add_argument(
        "--refresh", action="store_true", help="regenerate even when the cache holds this onnx version's set"
    )
    p.add_argument(
        "--drops",
        action="store_true",
        help="list every pair the gates dropped (the generated set and the schema-built families), grouped by "
        "(tool, op, reason class) and triaged: a limit the tool states, passcheck's own reason, a known row, or a "
        "candidate finding (then exit 1)",
    )
    p.add_argument(
        "--family",
        action="append",
        default=[],
        metavar="NAME",
        help="with --drops: only these sources (generated, contrib, contrib-static, function-body, interior, "
        "body-written, commuted, gemm-written; default: all)",
    )
    p.add_argument("--json", metavar="FILE", help="write the stats (with --drops: the drop classes) as JSON")
    p.set_defaults(handler=handle)


def handle(args) -> int:
    import json

    from rich.table import Table

    from passcheck.generate import cache_dir, index

    console = console_()
    if args.op:
        import fnmatch

        from passcheck.generate.build import schema_history

        names = {name for _d, name in schema_history()}
        for pat in args.op:
            if not any(fnmatch.fnmatchcase(n, pat) for n in names):
                raise PasscheckError(f"--op {pat!r} matches no operator of the installed onnx's schemas")
    if args.drops:
        return _drops(args, console)
    if args.family:
        raise PasscheckError("--family needs --drops")
    doc = index(refresh=args.refresh, ops=args.op)
    stats = doc["stats"]
    ref_only = stats.get("reference_only", {})
    ops = sorted(set(stats["built"]) | set(ref_only) | set(stats["dropped"]) | set(stats["skipped"]))
    built = sum(stats["built"].values())
    dropped = {}
    for op in ops:
        for key, n in stats["dropped"].get(op, {}).items():
            dropped[key] = dropped.get(key, 0) + n
    attempted = built + sum(ref_only.values()) + sum(dropped.values())
    own = sum(n for k, n in dropped.items() if k.startswith("passcheck|"))
    if args.stats:
        t = Table("op", "built", "reference-only", "dropped (category|reason: n)", "not attempted", header_style="bold")
        for op in ops:
            t.add_row(
                op,
                str(stats["built"].get(op, 0)),
                str(ref_only.get(op, 0)),
                "; ".join(f"{k}: {n}" for k, n in sorted(stats["dropped"].get(op, {}).items())),
                "; ".join(f"{k}: {n}" for k, n in sorted(stats["skipped"].get(op, {}).items())),
            )
        console.print(t)
        t = Table("dropped: category|reason", "pairs", header_style="bold")
        for k, n in sorted(dropped.items(), key=lambda kv: -kv[1]):
            t.add_row(k, str(n))
        console.print(t)
        dissent: dict[str, int] = {}
        for per_op in stats.get("dissent", {}).values():
            for k, n in per_op.items():
                dissent[k] = dissent.get(k, 0) + n
        if dissent:  # passcheck.generate.dissent: who was outvoted, or no majority; the pair kept or dropped
            t = Table("runtimes disagreed: outvoted|pair", "forms", "first such pair", header_style="bold")
            examples = stats.get("dissent_examples", {})
            for k, n in sorted(dissent.items(), key=lambda kv: -kv[1]):
                first = next((v for e, v in sorted(examples.items()) if e.split("|", 1)[1] == k), "")
                t.add_row(k, str(n), first)
            console.print(t)
        if args.examples:
            t = Table("op|reason", "first dropped pair: form: message", header_style="bold")
            for k, v in sorted(stats.get("examples", {}).items()):
                t.add_row(k, v)
            console.print(t)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump({"onnx": doc["onnx"], "cases": len(doc["cases"]), "stats": stats}, fh, indent=1)
    n_ops = len({c["op"] for c in doc["cases"]})
    console.print(
        f"{len(doc['cases'])} generated cases over {n_ops} operators (onnx {doc['onnx']}, cache {cache_dir()}); "
        f"{attempted} pairs attempted, {sum(dropped.values())} dropped ({own} for passcheck's own reasons"
        f"{f', {100 * own / attempted:.1f}%' if attempted else ''}), "
        f"{sum(ref_only.values())} kept as reference-only bases, not cases (onnxruntime has no kernel for "
        f"their opset-1…6 schemas, or a schema no pair of which passed the gate: its common form the checker "
        f"accepts and one runtime runs; observed by shape inference and the converter only); "
        f"select them with --case 'generated/*'"
    )
    return 0


def _drops(args, console) -> int:
    """``--drops``: :func:`passcheck.triage.gate_drops.listing`, printed; 1 when a candidate class remains."""
    import json

    from rich.table import Table

    from passcheck.generate import index
    from passcheck.triage import gate_drops

    sources = args.family or ["generated", *gate_drops.FAMILIES]
    unknown = [s for s in sources if s != "generated" and s not in gate_drops.FAMILIES]
    if unknown:
        raise PasscheckError(f"--family {unknown[0]!r}: one of generated, {', '.join(gate_drops.FAMILIES)}")
    doc = index(refresh=args.refresh, ops=args.op) if "generated" in sources else None  # --op: a partial set
    got = gate_drops.listing([s for s in sources if s != "generated"], doc, args.op)
    t = Table("status", "tool", "op", "reason class", "drops", "first: id form: message", header_style="bold")
    for c in got.classes:
        d = c.drops[0]
        said = f"row {c.row}" if c.row else c.why
        t.add_row(
            c.status + (f" ({said})" if said else ""),
            c.tool,
            c.op,
            c.reason,
            str(len(c.drops)),
            f"{d.id} {d.form}: {d.detail[:200]}" + (f" [{', '.join(d.files.values())}]" if d.files else ""),
        )
    console.print(t)
    for c in got.candidates:
        console.print(f"candidate: {c.tool} | {c.op} | {c.reason} ({len(c.drops)} drops); rerun: {c.repro}")
    for why in got.missing.values():
        console.print(f"not read: {why}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(
                {"sources": got.notes, "missing": got.missing, "classes": [c.to_json() for c in got.classes]},
                fh,
                indent=1,
            )
    n = {s: sum(1 for c in got.classes if c.status == s) for s in ("candidate", "known", "limit", "passcheck")}
    console.print(
        f"{len(got.drops)} drops in {len(got.classes)} classes (tool, op, reason class): {n['candidate']} candidate, "
        f"{n['known']} known, {n['limit']} a limit the tool states, {n['passcheck']} passcheck's own or not applicable"
    )
    return 1 if got.candidates else 0
