"""``passcheck run``: the case library (or a selection) under the passes, in this environment."""

from __future__ import annotations

from passcheck.cli._common import add_allow_unavailable_arg, add_output_args, add_pass_args, add_unknown_dim_arg
from passcheck.cli._output import add_reliability_args


def add_parser(sub) -> None:
    p = sub.add_parser(
        "run",
        help="run cases × passes here and judge them with every oracle",
        description="Run the selected cases' forms through the passes and report a verdict per case × form × pass.",
    )
    p.add_argument(
        "--case",
        action="append",
        default=[],
        metavar="GLOB[:FORM]",
        help="case id or tag glob (repeatable), e.g. 'shape/*' or fusion; 'GLOB:FORMGLOB' reports only the "
        "matching forms (e.g. 'shape/*:dim-param*'); an unknown case or form is an error; default: all",
    )
    p.add_argument(
        "--cases-from", action="append", default=[], metavar="PATH", help="also load case modules from a file or folder"
    )
    add_pass_args(p, "the passes each case targets (passcheck list --json), else every default pass")
    add_allow_unavailable_arg(p)
    add_unknown_dim_arg(p)
    add_output_args(p)
    add_reliability_args(p)
    p.set_defaults(handler=handle)


def handle(args) -> int:
    from passcheck.cli._output import session_for

    # the isolation worker starts first: its start-up (importing the tools) overlaps loading the
    # case library here (importing them too, building the generated set's registry)
    with session_for(args, args.cases_from, save=False) as started:
        return _run(args, started)


def _run(args, started) -> int:
    from passcheck.api import require_available, run
    from passcheck.cli._common import load_cases_from
    from passcheck.cli._output import RunSession, finish

    load_cases_from(args.cases_from)  # they may register passes (loading is idempotent: run loads them again)
    require_available(args.passes)  # before a stream is opened
    selection = {
        "case": args.case,
        "pass": args.passes,
        "cases_from": [str(p) for p in args.cases_from],
        **({"unknown_dim_param": args.unknown_dim_param} if args.unknown_dim_param else {}),
    }
    planned = planned_cells(args.case, args.passes, args.cases_from)
    with RunSession(args, "run", selection, preload=args.cases_from, planned=planned, session=started) as s:
        report = s.complete(
            run(
                args.case,
                args.passes,
                cases_from=args.cases_from,
                unknown_dim_param=args.unknown_dim_param,
                **s.options(),
            )
        )
    return finish(args, report)


def planned_cells(patterns, passes, cases_from=()) -> int:
    """Cells a run will produce: per form of each selected case, its input judgement and each pass.

    Raises:
        UnknownIdError / PasscheckError: as :func:`passcheck.api.run` (a glob matching nothing, a bad module).
    """
    from passcheck.cases import form_wanted, load_path, registry
    from passcheck.cli._common import pass_count

    for path in cases_from:
        load_path(path)
    pass_count(passes)
    return sum(
        sum(form_wanted(c, f, patterns) for f in c.forms) * (1 + pass_count(passes or c.passes))
        for c in registry().select(patterns)
    )
