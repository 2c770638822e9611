"""``passcheck check MODEL.onnx``: the passes on a user's model with synthesized feeds."""

from __future__ import annotations

from passcheck.cli._common import (
    add_allow_unavailable_arg,
    add_output_args,
    add_pass_args,
    add_unknown_dim_arg,
    bind_arg,
    bindings_from,
)
from passcheck.cli._output import add_reliability_args
from passcheck.plans import DEFAULT_MAX_SITES, form_repro  # noqa: F401 - form_repro: named here for the CLI


def add_parser(sub) -> None:
    p = sub.add_parser(
        "check",
        help="run the passes on a model and judge validity, numbers and annotations",
        description="Run the passes on MODEL with feeds synthesized from its input annotations "
        "(every symbolic dim bound to 2, then 3; --bind to choose), or, when MODEL's folder "
        "holds test_data_set_K/input_J.pb, with those inputs.",
    )
    p.add_argument("model", metavar="MODEL.onnx")
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
    p.add_argument(
        "--feeds",
        metavar="PATH",
        help="run on these inputs instead of synthesized ones: a .npz, or a folder in the ONNX backend-test layout "
        "(test_data_set_K/input_J.pb)",
    )
    p.add_argument(
        "--synthesize-feeds",
        action="store_true",
        help="synthesize feeds even when the model's folder holds test_data_set_K/input_J.pb (used by default)",
    )
    p.add_argument(
        "--mutations",
        action="store_true",
        help="also check every uncommon-but-valid rewrite of the model (parity with the original)",
    )
    p.add_argument(
        "--form",
        action="append",
        default=[],
        metavar="ID",
        help="with --mutations: only these rewrite ids (ID: every site and up to --max-sites single sites; ID@SITE: "
        "that site only; A+B: B after A; 'passcheck list --rewrites' lists the ids)",
    )
    p.add_argument(
        "--max-sites",
        type=_count,
        default=None,
        metavar="N",
        help="with --mutations: single-site forms ID@SITE per rewrite, one per site signature (op type and "
        "readers), beyond N the sites ranked toward op types passes look at kept first (default "
        f"{DEFAULT_MAX_SITES}; 0: every site at once only); what it cut is printed",
    )
    p.add_argument(
        "--depth",
        type=int,
        choices=(1, 2),
        default=1,
        help="with --mutations: 2 also tries pairs of rewrites A+B (all at once, and up to --max-sites single-site "
        "pairs, neighbouring sites first)",
    )
    add_unknown_dim_arg(p)
    add_output_args(p)
    add_reliability_args(p)
    p.set_defaults(handler=handle)


def handle(args) -> int:
    import sys

    from passcheck.cli._common import pass_count
    from passcheck.cli._output import preflight, session_for
    from passcheck.modelio import load_model

    human = sys.stderr if preflight(args) else sys.stdout  # outputs and pass ids are checked before any work
    n_passes = pass_count(args.passes)  # an unknown pass id: exit 2 before reading the model
    from passcheck.mutations.registry import parse_form

    for form in args.form:  # an unknown rewrite id, likewise: one line before any work or progress line
        parse_form(form)
    model = load_model(args.model)
    with session_for(args, save=False) as session:  # its worker runs the checker on the model, then every cell
        return _check(args, model, session, human, n_passes)


def _check(args, model, session, human, n_passes: int) -> int:
    from passcheck import plans
    from passcheck.api import check_model, require_available
    from passcheck.cli._output import RunSession, finish, runner_of
    from passcheck.errors import PasscheckError
    from passcheck.modelio import model_hash, model_name
    from passcheck.oracles.validity import Checker
    from passcheck.runtime import default_bindings

    checker = Checker(session.executor)  # every checker call of this run, in the session's worker
    rejected = plans.precheck(args.model, model, checker)
    require_available(args.passes)
    bind = bindings_from(args)
    default_bindings(model, bind)  # an unknown --bind symbol: exit 2 before any work
    forms = {}
    feeds = None
    if args.feeds:
        from passcheck.runtime.feed_files import read_feeds, require_declared

        if bind:
            raise PasscheckError("--bind and --feeds cannot be combined: the feed files fix every size")
        feeds = read_feeds(args.feeds, model)
        require_declared(feeds, model, args.feeds)
    elif not bind and not args.synthesize_feeds:
        from passcheck.api import feeds_beside
        from passcheck.runtime.feed_files import data_sets_beside

        if (feeds := feeds_beside(args.model, model)) is not None:
            print(
                f"feeds: {data_sets_beside(args.model)[1]} (--synthesize-feeds to synthesize them instead)", file=human
            )
    plans.refuse_mutation_flags(args.mutations, args.form, args.max_sites, args.depth)
    max_sites = DEFAULT_MAX_SITES if args.max_sites is None else args.max_sites
    head = plans.check_head(args.model, bind, args.feeds, args.synthesize_feeds, args.unknown_dim_param)
    repro = plans.check_repro(head, args.mutations, max_sites, args.depth, args.form)
    selection = {
        "model_sha256": model_hash(model),
        "pass": args.passes,
        "bind": bind,
        "mutations": args.mutations,
        "form": args.form,
        **({"max_sites": max_sites, "depth": args.depth} if args.mutations else {}),
        **({"unknown_dim_param": args.unknown_dim_param} if args.unknown_dim_param else {}),
    }
    with RunSession(args, "check", selection, session=session) as s:
        if args.mutations and (alone := plans.alone_because(model, rejected, checker)):
            print(f"--mutations: {alone}; checking the model alone", file=human)
        elif args.mutations:
            s.progress.stage("building mutants", None)
            unverified: dict[str, str] = {}
            forms = _mutants(
                model,
                args.form,
                bind,
                model_name(args.model),
                feeds,
                human,
                s.progress,
                runner_of(s.executor),
                max_sites,
                args.depth,
                checker,
                unverified,
            )
            if not forms:
                none = (
                    f"no mutant could be verified ({len(unverified)} left out)"
                    if unverified
                    else plans.none_applies(model, args.form)
                )
                print(f"{none}: nothing to compare with; checking the model alone", file=human)
        s.progress.stage("cells", (1 + len(forms)) * (1 + n_passes), done=len(s.previous))
        report = s.complete(
            check_model(
                model,
                args.passes,
                bind=bind,
                forms=forms,
                feeds=feeds,
                name=model_name(args.model),
                repro=repro,
                form_repro={f: plans.form_repro(head, f) for f in forms},
                unknown_dim_param=args.unknown_dim_param,
                **s.options(),
            )
        )
    return finish(args, report, title=f"passcheck check {args.model}")


def _mutants(
    model,
    form_ids,
    bind,
    name,
    feeds=None,
    out=None,
    prog=None,
    runner=None,
    max_sites=0,
    depth=1,
    checker=None,
    unverified=None,
):
    """:func:`passcheck.plans.mutants`, rendered: one line per mutant (where it rewrote) and per
    mutant left out; ``prog`` (a :class:`passcheck.progress.Progress`) counts the verified ones."""
    from passcheck import plans

    unverified = {} if unverified is None else unverified
    ranking, budget = plans.site_ranking(), {}
    refused: dict[str, str] = {}  # a rewrite bug: the mutant is left out with why, the run goes on (never exit 3)
    found = plans.mutants(
        model,
        form_ids,
        bind,
        name,
        feeds,
        runner,
        max_sites,
        depth,
        checker,
        unverified,
        on_built=prog and (lambda n: prog.stage("mutants", n)),
        on_verified=prog and (lambda rid: prog.advance("", rid)),
        rank=ranking.rank,
        budget=budget,
        refused=refused,
    )
    print(budget_line(budget, max_sites, ranking.source), file=out)
    print_unverified(unverified, out, refused)
    unverified.update(refused)
    for rid, (_m, applied) in found.items():
        shown = ", ".join(applied.nodes[:6]) + (f", … ({applied.count} in all)" if applied.count > 6 else "")
        print(f"mutant {rid}: {applied.detail or 'rewritten'} at {shown}", file=out)
    return {rid: m for rid, (m, _a) in found.items()}


def budget_line(budget: dict[str, tuple[int, int, int]], max_sites: int, ranked_by: str) -> str:
    """What the site budget let through, in one line: ``N of M sites tried alone`` over the rewrites
    with more than one site (rewrite id → (tried, distinct signatures, sites), see ``iter_mutants``),
    what one-site-per-signature and ``max_sites`` cut, and how to raise it. Every rewrite that
    applies is also tried at all its sites at once."""
    tried, total = sum(b[0] for b in budget.values()), sum(b[2] for b in budget.values())
    head = f"sites: every rewrite that applies at all its sites at once, and {tried} of {total} sites alone"
    if tried == total:
        return f"{head} (--max-sites {max_sites}: nothing cut)"
    parts = [f"one per site signature ({sum(b[1] for b in budget.values())} signatures)"]
    cut = sorted(rid for rid, (t, n, _) in budget.items() if t < n)
    if cut:
        shown = ", ".join(cut[:4]) + (f", … ({len(cut)} in all)" if len(cut) > 4 else "")
        parts.append(f"--max-sites {max_sites} per rewrite cut {shown}, keeping the sites ranked first by {ranked_by}")
    return f"{head} ({'; '.join(parts)})" + ("; raise with --max-sites N" if cut else "")


def print_unverified(unverified: dict[str, str], out=None, refused: dict[str, str] | None = None) -> None:
    """One line per mutant left out unverified, and per mutant the gate refused (a rewrite bug in
    passcheck, reported, never a finding nor the end of the run); form → why, see ``verified_mutants``."""
    for rid, why in unverified.items():
        print(f"mutant {rid}: left out, unverified ({why})", file=out)
    for rid, why in (refused or {}).items():
        print(
            f"mutant {rid}: left out, the equivalence gate refused it (a passcheck rewrite bug; "
            f"please report it): {why}",
            file=out,
        )


def _count(text: str) -> int:
    """argparse type: an integer >= 0."""
    import argparse

    try:
        n = int(text)
    except ValueError:
        n = -1
    if n < 0:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 0, got {text!r}")
    return n
