"""``passcheck compare A.onnx B.onnx``: two forms of one computation the user supplies, under the same passes."""

from __future__ import annotations

from passcheck.cli._common import (
    add_allow_unavailable_arg,
    add_output_args,
    add_pass_args,
    bind_arg,
    bindings_from,
    pass_count,
)
from passcheck.cli._output import add_reliability_args


def add_parser(sub) -> None:
    p = sub.add_parser(
        "compare",
        help="verify two models compute the same, then report every pass that treats them differently",
        description="Check that A and B give the same outputs (matched by input/output name) under ort:disabled, "
        "then run the passes on both and apply every oracle, parity included (each form is named by its file stem).",
    )
    p.add_argument("a", metavar="A.onnx")
    p.add_argument("b", metavar="B.onnx")
    add_pass_args(p)
    add_allow_unavailable_arg(p)
    p.add_argument(
        "--bind",
        action="append",
        type=bind_arg,
        default=[],
        metavar="SYM=N",
        help="size for a symbolic dim (repeatable)",
    )
    add_output_args(p)
    add_reliability_args(p)
    p.set_defaults(handler=handle)


def handle(args) -> int:
    from passcheck.api import require_available
    from passcheck.cli._output import preflight, session_for
    from passcheck.modelio import load_model
    from passcheck.mutations import check_input
    from passcheck.oracles.validity import Checker

    preflight(args)
    require_available(args.passes)
    a, b = load_model(args.a), load_model(args.b)
    with session_for(args, save=False) as session:  # its worker runs the checker on both models, then every cell
        checker = Checker(session.executor)
        check_input(a, args.a, checker)
        check_input(b, args.b, checker)
        return _compare(args, a, b, session)


def _compare(args, a, b, session) -> int:
    from passcheck import plans
    from passcheck.api import check_model
    from passcheck.cli._output import RunSession, finish, runner_of
    from passcheck.modelio import model_hash

    bind = bindings_from(args)
    name, name_a, name_b, repro, bind = plans.compare_plan(args.a, args.b, a, b, bind)
    selection = {"a": model_hash(a), "b": model_hash(b), "pass": args.passes, "bind": bind}
    with RunSession(args, "compare", selection, planned=2 * (1 + pass_count(args.passes)), session=session) as s:
        plans.equivalence_gate(args.a, args.b, a, b, name, bind, runner_of(s.executor))
        report = s.complete(
            check_model(
                a, args.passes, bind=bind, forms={name_b: b}, form_name=name_a, name=name, repro=repro, **s.options()
            )
        )
    return finish(args, report, title=f"passcheck compare {args.a} {args.b}")
