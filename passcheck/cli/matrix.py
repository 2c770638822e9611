"""``passcheck matrix``: the same model bytes through every pinned environment, one report."""

from __future__ import annotations

from pathlib import Path

from passcheck.cli._common import AppendUnique, add_progress_arg, positive, progress_mode


def add_parser(sub) -> None:
    p = sub.add_parser(
        "matrix",
        help="run the cases in every pinned environment (onnx / onnxruntime / onnxscript versions)",
        description="Build the models once, run them in pinned environments created with uv (cached), "
        "and report verdicts with environments as columns. Writes DIR/results.jsonl as results "
        "arrive, then DIR/report.json, report.xml (JUnit), report.md.",
    )
    p.add_argument("--list", action="store_true", help="list the environments and their pins, then exit")
    p.add_argument(
        "--env",
        action="append",
        default=[],
        metavar="ID|PINS.txt",
        help="environment id or a pins file (repeatable); default: every file in ci/envs",
    )
    p.add_argument(
        "--envs-dir", metavar="DIR", help="folder of pins files (default: ci/envs of the passcheck source tree)"
    )
    p.add_argument(
        "--case",
        action="append",
        default=[],
        metavar="GLOB[:FORM]",
        help="case id or tag glob (repeatable); 'GLOB:FORMGLOB' reports only those forms; default: all",
    )
    p.add_argument(
        "--cases-from",
        action="append",
        default=[],
        metavar="PATH",
        help="also load case (and pass) modules from a file or folder",
    )
    p.add_argument(
        "--pass",
        dest="passes",
        action=AppendUnique,
        default=[],
        metavar="ID",
        help="pass id (repeatable); default: each case's passes ('input', each form judged itself, always runs)",
    )
    p.add_argument("--jobs", type=int, metavar="N", help="environments run at once (default: CPU count)")
    p.add_argument("--out", default="passcheck-matrix", metavar="DIR", help="output folder (default: %(default)s)")
    p.add_argument("--shard", default="1/1", metavar="I/N", help="run the I-th of N deterministic slices of the cells")
    p.add_argument("--resume", action="store_true", help="keep DIR's results and run only the missing cells")
    p.add_argument(
        "--timeout",
        type=positive(float),
        default=300.0,
        metavar="S",
        help="seconds a worker may go without a result or a step (a form run, a pass) before it is killed "
        "(default: %(default)s)",
    )
    p.add_argument(
        "--source",
        metavar="DIR",
        help="passcheck source tree installed into each environment (default: found automatically)",
    )
    p.add_argument(
        "--cache-dir", metavar="DIR", help="environment cache (default: $PASSCHECK_CACHE or ~/.cache/passcheck)"
    )
    add_progress_arg(p)
    p.add_argument(
        "-q", "--quiet", action="store_true", help="print only the differences and the summary (no progress)"
    )
    add_verdict_args(p)
    p.add_argument(
        "--exit-zero",
        action="store_true",
        help="exit 0 on findings (still 2 when an environment or input is unusable): for shard jobs whose verdict "
        "comes from 'passcheck merge'",
    )
    p.set_defaults(handler=handle)


def add_verdict_args(p) -> None:
    """``--baseline`` / ``--write-baseline`` of ``matrix`` and ``merge``."""
    p.add_argument(
        "--baseline",
        metavar="FILE",
        help="known findings (JSON; an entry's optional 'envs' limits it to those environments): "
        "matched findings are expected, not failures",
    )
    p.add_argument(
        "--write-baseline",
        metavar="FILE",
        help="write every finding as a baseline: one entry per finding id, 'envs' listing where it occurs unless it "
        "occurs in every environment",
    )


def handle(args) -> int:
    from rich.console import Console

    from passcheck.errors import PasscheckError
    from passcheck.matrix import envs as envmod
    from passcheck.matrix import plan, runner
    from passcheck.matrix.plan import INPUT
    from passcheck.report import baseline

    specs = envmod.select(args.env, args.envs_dir)
    console = Console(soft_wrap=True)
    if args.list:
        for s in specs:
            console.print(f"[bold]{s.id}[/bold]  {' '.join(s.pins)}  [dim]{s.path}[/dim]")
            if s.doc:
                console.print(f"    [dim]{s.doc.splitlines()[0]}[/dim]")
        return 0
    if args.baseline:
        baseline.load(args.baseline)  # a bad file is a usage error before any work
    if args.jobs is not None and args.jobs < 1:
        raise PasscheckError(f"--jobs {args.jobs}: must be at least 1")
    if args.timeout <= 0:
        raise PasscheckError(f"--timeout {args.timeout:g}: must be positive")
    source = envmod.installable_source(args.source)  # the flag, $PASSCHECK_SOURCE, the checkout, pip's recorded origin
    opts = runner.Options(
        envs=specs,
        out=Path(args.out),
        source=source,
        cases=args.case,
        passes=[p for p in args.passes if p != INPUT],
        cases_from=args.cases_from,
        jobs=args.jobs or runner.default_jobs(),
        shard=plan.parse_shard(args.shard),
        resume=args.resume,
        timeout=args.timeout,
        cache=Path(args.cache_dir).resolve() if args.cache_dir else None,
        repro_env={s.id: r for s, r in zip(specs, args.env or [s.id for s in specs])},
        progress=progress_mode(args),
        baseline=Path(args.baseline) if args.baseline else None,
    )
    outcome = runner.run(opts)
    cells = outcome.cells
    if any(":" in pat for pat in args.case):  # GLOB:FORMGLOB: every form ran, these are judged
        # the registry only then: the parent may have no onnx to load case modules with (models built in an env)
        from passcheck.cases import form_wanted, registry

        chosen = {c.id: c for c in registry().select(args.case)}
        cells = [c for c in cells if c.case not in chosen or form_wanted(chosen[c.case], c.form, args.case)]
    return conclude(args, opts.out, cells, outcome.environments, console)


def conclude(args, out: Path, cells, environments, console) -> int:
    """Print the tables and notes, write ``--write-baseline``, return the exit code (matrix and merge)."""
    import json

    from passcheck.matrix import report, verdict

    report.render_terminal(cells, environments, console, tables=not args.quiet)
    meta = json.loads((out / "report.json").read_text(encoding="utf-8")).get("matrix", {})
    for line in verdict.notes(meta):
        console.print(line, style="bold red" if line.startswith("PARTIAL") else None, highlight=False)
    if args.write_baseline:
        verdict.write_baseline(
            args.write_baseline, cells, verdict.ran_envs(cells, [e["id"] for e in meta.get("environments", [])])
        )
        console.print(f"wrote {args.write_baseline}: edit each reason, then pass it with --baseline", highlight=False)
    console.print(f"report: {out}/report.json, report.xml (JUnit), report.md", highlight=False)
    return verdict.exit_code(cells, environments, exit_zero=getattr(args, "exit_zero", False))
