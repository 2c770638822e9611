"""``passcheck check MODEL.onnx``: the passes on a user's model with synthesized feeds."""

from __future__ import annotations

from passcheck.cli._common import add_output_args, add_pass_args, add_unknown_dim_arg, bind_arg, bindings_from
from passcheck.cli._output import add_reliability_args

#: ``--max-sites`` default: single-site forms tried per rewrite.
DEFAULT_MAX_SITES = 1


def add_parser(sub) -> None:
    p = sub.add_parser("check", help="run the passes on a model and judge validity, numbers and annotations",
                       description="Run the passes on MODEL with feeds synthesized from its input annotations "
                                   "(every symbolic dim bound to 2, then 3; --bind to choose), or, when MODEL's folder "
                                   "holds test_data_set_K/input_J.pb, with those inputs.")
    p.add_argument("model", metavar="MODEL.onnx")
    add_pass_args(p)
    p.add_argument("--bind", action="append", type=bind_arg, default=[], metavar="SYM=N", help="size for a symbolic dim (repeatable)")
    p.add_argument("--feeds", metavar="PATH", help="run on these inputs instead of synthesized ones: a .npz, or a folder in the ONNX backend-test layout (test_data_set_K/input_J.pb)")
    p.add_argument("--synthesize-feeds", action="store_true", help="synthesize feeds even when the model's folder holds test_data_set_K/input_J.pb (used by default)")
    p.add_argument("--mutations", action="store_true", help="also check every uncommon-but-valid rewrite of the model (parity with the original)")
    p.add_argument("--form", action="append", default=[], metavar="ID", help="with --mutations: only these rewrite ids (ID: every site and up to --max-sites single sites; ID@SITE: that site only; A+B: B after A)")
    p.add_argument("--max-sites", type=_count, default=None, metavar="N", help=f"with --mutations: single-site forms ID@SITE per rewrite, one per site signature (op type and readers), sampled beyond N (default {DEFAULT_MAX_SITES}; 0: every site at once only)")
    p.add_argument("--depth", type=int, choices=(1, 2), default=1, help="with --mutations: 2 also tries pairs of rewrites A+B (all at once, and up to --max-sites single-site pairs, neighbouring sites first)")
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
    import shlex

    from passcheck.api import check_model, require_available
    from passcheck.cli._output import RunSession, finish, runner_of
    from passcheck.errors import PasscheckError
    from passcheck.modelio import model_hash
    from passcheck.oracles.validity import Checker
    from passcheck.runtime import default_bindings

    checker = Checker(session.executor)  # every checker call of this run, in the session's worker
    rejected = _precheck(args.model, model, checker)
    require_available(args.passes)
    bind = bindings_from(args)
    default_bindings(model, bind)  # an unknown --bind symbol: exit 2 before any work
    forms = {}
    feeds = None
    if args.feeds:
        from passcheck.runtime.feed_files import read_feeds

        if bind:
            raise PasscheckError("--bind and --feeds cannot be combined: the feed files fix every size")
        feeds = read_feeds(args.feeds, model)
    elif not bind and not args.synthesize_feeds:
        from passcheck.api import feeds_beside
        from passcheck.runtime.feed_files import data_sets_beside

        if (feeds := feeds_beside(args.model, model)) is not None:
            print(f"feeds: {data_sets_beside(args.model)[1]} (--synthesize-feeds to synthesize them instead)", file=human)
    for flag, given in (("--form", args.form), ("--max-sites", args.max_sites is not None), ("--depth", args.depth != 1)):
        if given and not args.mutations:
            raise PasscheckError(f"{flag} needs --mutations")
    max_sites = DEFAULT_MAX_SITES if args.max_sites is None else args.max_sites
    head = f"passcheck check {shlex.quote(args.model)}" + "".join(f" --bind {s}={n}" for s, n in bind.items()) + (f" --feeds {shlex.quote(args.feeds)}" if args.feeds else "") \
        + (" --synthesize-feeds" if args.synthesize_feeds else "") + (f" --unknown-dim-param {shlex.quote(args.unknown_dim_param)}" if args.unknown_dim_param else "")
    extra = (" --mutations" if args.mutations else "") + (f" --max-sites {max_sites}" if args.mutations and max_sites != DEFAULT_MAX_SITES else "") \
        + (f" --depth {args.depth}" if args.depth != 1 else "") + "".join(f" --form {shlex.quote(f)}" for f in args.form)
    repro = f"{head}{extra} --pass {{pass}}"
    selection = {"model_sha256": model_hash(model), "pass": args.passes, "bind": bind, "mutations": args.mutations, "form": args.form, **({"max_sites": max_sites, "depth": args.depth} if args.mutations else {}), **({"unknown_dim_param": args.unknown_dim_param} if args.unknown_dim_param else {})}
    with RunSession(args, "check", selection, session=session) as s:
        from passcheck.oracles.validity import CheckerDied

        if args.mutations and rejected and (plain := checker(model, full_check=False)):
            why = f"{plain} on this model" if isinstance(plain, CheckerDied) else "the onnx checker rejects this model"
            print(f"--mutations: {why}, so no rewrite of it can be verified; checking the model alone", file=human)
        elif args.mutations and (died := checker.inference_died(model)):
            print(f"--mutations: {died} on this model, so no rewrite of it can be built; checking the model alone", file=human)
        elif args.mutations:
            s.progress.stage("building mutants", None)
            unverified: dict[str, str] = {}
            forms = _mutants(model, args.form, bind, _name(args.model), feeds, human, s.progress, runner_of(s.executor), max_sites, args.depth,
                             checker, unverified)
            if not forms:
                none = f"no mutant could be verified ({len(unverified)} left out)" if unverified else "no rewrite applies to this model"
                print(f"{none}: nothing to compare with; checking the model alone", file=human)
        s.progress.stage("cells", (1 + len(forms)) * (1 + n_passes), done=len(s.previous))
        report = s.complete(check_model(model, args.passes, bind=bind, forms=forms, feeds=feeds, name=_name(args.model),
                                        repro=repro, form_repro={f: form_repro(head, f) for f in forms},
                                        unknown_dim_param=args.unknown_dim_param, **s.options()))
    return finish(args, report, title=f"passcheck check {args.model}")


def form_repro(head: str, form: str) -> str:
    """The command (``{pass}`` to fill in) that checks the one mutant ``form`` against the model:
    ``head`` (``passcheck check MODEL`` and its feed flags) ``--mutations --form FORM``, with
    ``--max-sites 0`` for a bare rewrite id (every site at once, no single-site forms besides)."""
    import shlex

    bare = "@" not in form and "+" not in form
    return f"{head} --mutations --form {shlex.quote(form)}{' --max-sites 0' if bare else ''} --pass {{pass}}"


def _precheck(path: str, model, checker_error) -> str | None:
    """Refuse (exit 2) a model that neither the onnx checker nor onnxruntime accepts. A model the
    checker rejects but onnxruntime loads is checked: the ``input`` cell reports the tools'
    disagreement (``validity-disagreement``). ``checker_error``: how the checker runs (a
    :class:`~passcheck.oracles.validity.Checker`). Returns the checker's message, or None."""
    from passcheck.errors import ModelLoadError
    from passcheck.modelio import check_runnable

    check_runnable(model, path)
    if (err := checker_error(model)) and (ort_err := _ort_load_error(model)):
        raise ModelLoadError(f"{path}: the onnx checker rejects this model: {err}; onnxruntime cannot load it either ({ort_err}); "
                             "fix the model (onnx.checker.check_model(model, full_check=True) shows the same)")
    return err


def _ort_load_error(model) -> str | None:
    """The last line onnxruntime prints when it cannot create a session for ``model`` (in a child
    process: a model that crashes onnxruntime costs only that child), or None when it loads."""
    import subprocess
    import sys

    from passcheck.passes.command import headline

    code = ("import sys, onnxruntime as ort\n"
            "ort.InferenceSession(sys.stdin.buffer.read(), providers=['CPUExecutionProvider'])")
    try:
        p = subprocess.run([sys.executable, "-c", code], input=model.SerializeToString(), capture_output=True, timeout=600)
    except subprocess.TimeoutExpired:
        return "creating a session did not finish in 600 s"
    return None if p.returncode == 0 else (headline(p.stderr.decode(errors="replace")) or f"exit {p.returncode}")


def _mutants(model, form_ids, bind, name, feeds=None, out=None, prog=None, runner=None, max_sites=0, depth=1, checker=None, unverified=None):
    """Every form that applies (each rewrite at every site, at up to ``max_sites`` single sites,
    and pairs at ``depth`` 2), each verified equivalent on the feeds the run will use
    (models run by ``runner`` and checked by ``checker``, in the isolation worker; ``prog``: a
    :class:`passcheck.progress.Progress` counting the verified mutants). A mutant the checker's
    worker dies on is left out, named on ``out`` and in ``unverified`` (form → why) when given."""
    from passcheck.api import subject_id
    from passcheck.mutations.subject import feeds_for, verified_mutants
    from passcheck.runtime import default_bindings

    sid = subject_id(name)
    unverified = {} if unverified is None else unverified
    refused: dict[str, str] = {}  # a rewrite bug: the mutant is left out with why, the run goes on (never exit 3)
    found = verified_mutants(model, form_ids or None, feeds or feeds_for(model, sid, default_bindings(model, bind)), sid, runner,
                             refused, on_built=prog and (lambda n: prog.stage("mutants", n)),
                             on_verified=prog and (lambda rid: prog.advance("", rid)), max_sites=max_sites, depth=depth,
                             checker=checker, unverified=unverified)
    print_unverified(unverified, out, refused)
    unverified.update(refused)
    for rid, (_m, applied) in found.items():
        shown = ", ".join(applied.nodes[:6]) + (f", … ({applied.count} in all)" if applied.count > 6 else "")
        print(f"mutant {rid}: {applied.detail or 'rewritten'} at {shown}", file=out)
    return {rid: m for rid, (m, _a) in found.items()}


def print_unverified(unverified: dict[str, str], out=None, refused: dict[str, str] | None = None) -> None:
    """One line per mutant left out unverified, and per mutant the gate refused (a rewrite bug in
    passcheck, reported, never a finding nor the end of the run); form → why, see ``verified_mutants``."""
    for rid, why in unverified.items():
        print(f"mutant {rid}: left out, unverified ({why})", file=out)
    for rid, why in (refused or {}).items():
        print(f"mutant {rid}: left out, the equivalence gate refused it (a passcheck rewrite bug; please report it): {why}",
              file=out)


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


def _name(path: str) -> str:
    """The model's stem, or its folder's name for backend-test layouts (``test_x/model.onnx``)."""
    from pathlib import Path

    p = Path(path)
    return p.parent.name if p.stem == "model" and p.parent.name else p.stem
