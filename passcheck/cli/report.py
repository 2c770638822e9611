"""``passcheck report FILE``: re-render a stored JSON report or JSON-lines stream.

Exit 0 when the report was re-rendered: the findings it holds already failed the run that made it,
and re-rendering it (for a step summary, another format) is not a new failure. ``--fail-on-findings``
exits 1 when it holds an unexpected finding or an unchecked cell (after ``--baseline``), or is the
partial report of an interrupted run (its missing cells are unchecked), for a job that gates on a
stored report; a partial report is said so on stderr and in the rendering.
"""

from __future__ import annotations

from passcheck.report.partial import PARTIAL, markdown_note


def add_parser(sub) -> None:
    p = sub.add_parser(
        "report",
        help="re-render a stored JSON report in another format",
        description="Re-render a stored report (or a --stream file). Exit 0 once it is rendered, whatever "
        "findings it holds (they failed the run that wrote it); --fail-on-findings to exit 1 on them.",
    )
    p.add_argument("file", metavar="REPORT.json", nargs="?", help="a stored report or stream (or give --rejudge)")
    p.add_argument(
        "--rejudge",
        metavar="RUN_DIR",
        help="judge a run saved with --save-run again with the current oracles "
        "(no pass or model is run) and render those cells instead of a stored report; a folder several "
        "runs saved into: the latest",
    )
    p.add_argument("--format", choices=["terminal", "markdown", "findings", "junit", "json"], default="terminal")
    p.add_argument("--out", metavar="FILE", help="write there instead of stdout (required for junit; '-' is stdout)")
    p.add_argument("--baseline", metavar="FILE", help="known findings to mark as expected")
    p.add_argument("--title", default="passcheck report")
    p.add_argument(
        "--fail-on-findings",
        action="store_true",
        help="exit 1 when the report holds an unexpected finding or an unchecked cell, or is partial "
        "(an interrupted run's; default: exit 0 once rendered)",
    )
    p.set_defaults(handler=handle)


def handle(args) -> int:
    import json
    import sys

    from passcheck.cli._common import check_outputs
    from passcheck.errors import PasscheckError
    from passcheck.report import baseline, junit, markdown, read_report, report_dict, terminal
    from passcheck.report.json_report import atomic_write, is_partial

    check_outputs(args)
    if args.out == "-" and args.format != "junit":
        args.out = None
    if bool(args.file) == bool(args.rejudge):
        raise PasscheckError("give a stored REPORT.json or --rejudge RUN_DIR (one of them)")
    if args.rejudge:
        from passcheck.saved_runs import latest, rejudge, saved_environments, saved_runs

        runs = saved_runs(args.rejudge)
        if len(runs) > 1:  # runs saved into one folder are never mixed: the latest (and what it resumed), said so
            last = latest(runs)
            resumed = f", resuming {len(last) - 1} before it" if len(last) > 1 else ""
            print(
                f"passcheck: {args.rejudge} holds {len(runs)} saved runs; rejudging the latest (started "
                f"{last[-1]['started']}{resumed}: {sum(r['groups'] for r in last)} judged groups), "
                f"the {len(runs) - len(last)} earlier left out",
                file=sys.stderr,
            )
        cells = rejudge(args.rejudge)
        envs = saved_environments(args.rejudge, cells)
    else:
        from passcheck.cli._common import report_file

        cells, envs = read_report(report_file(args.file))
    partial = bool(args.file) and is_partial(args.file)
    if partial:
        print(f"passcheck: {args.file}: {PARTIAL}", file=sys.stderr)
    if args.baseline:
        baseline.apply(cells, baseline.load(args.baseline))
    if args.format == "terminal":
        if args.out:
            from rich.console import Console

            with open(args.out, "w", encoding="utf-8") as f:
                terminal.render(cells, Console(file=f, width=200, soft_wrap=True))
        else:
            terminal.render(cells)
            if partial:
                print(f"PARTIAL: {PARTIAL}")
    elif args.format == "junit":
        if not args.out:
            raise PasscheckError("--format junit needs --out FILE")
        junit.write_junit(args.out, cells, partial=PARTIAL if partial else "", environments=envs)
    else:
        if args.format == "markdown":
            text = markdown.render(cells, envs, title=args.title)
        elif args.format == "findings":
            text = markdown.findings_table(cells, envs, title=args.title)
        else:
            text = json.dumps(report_dict(cells, envs, **({"partial": True} if partial else {})), indent=1)
        if partial and args.format != "json":
            text = markdown_note(text)
        if args.out:
            atomic_write(args.out, text)
        else:
            sys.stdout.write(text)
    from passcheck.records import exit_code

    if args.fail_on_findings and partial:
        return 1
    return exit_code(cells) if args.fail_on_findings else 0
