"""``passcheck mutate MODEL.onnx --out DIR``: write every verified uncommon form of a model, with a manifest."""

from __future__ import annotations

from passcheck.cli._common import add_progress_arg, bind_arg, bindings_from, check_out_folder, progress
from passcheck.cli._output import add_isolation_args


def add_parser(sub) -> None:
    p = sub.add_parser(
        "mutate",
        help="write the model's equivalent uncommon forms (one per rewrite) and a manifest",
        description="Apply each form rewrite that fits MODEL, verify every mutant is equivalent "
        "(checker + same outputs under ort:disabled), and write them to DIR with manifest.json.",
    )
    p.add_argument("model", metavar="MODEL.onnx")
    p.add_argument(
        "--form",
        action="append",
        default=[],
        metavar="ID",
        help="only these forms (repeatable): a rewrite id ('passcheck list --rewrites'), ID@SITE (one site) or A+B; "
        "default: every rewrite",
    )
    p.add_argument("--out", required=True, metavar="DIR", help="folder for the mutants and manifest.json (created)")
    p.add_argument(
        "--bind",
        action="append",
        type=bind_arg,
        default=[],
        metavar="SYM=N",
        help="size for a symbolic dim in the verification feeds",
    )
    add_isolation_args(p)
    add_progress_arg(p, quiet=True)
    p.set_defaults(handler=handle)


def handle(args) -> int:
    import json
    import re
    from pathlib import Path

    import onnx

    from passcheck.cli._output import isolated, runner_of
    from passcheck.cli.check import print_unverified
    from passcheck.modelio import load_model, model_hash
    from passcheck.mutations import verified_mutants
    from passcheck.mutations.registry import describe
    from passcheck.mutations.subject import check_original, feeds_for
    from passcheck.oracles.validity import Checker
    from passcheck.plans import none_applies
    from passcheck.runtime import default_bindings

    check_out_folder("--out", args.out)  # before the mutants are built: writing them is the last step
    from passcheck.mutations.registry import parse_form

    for form in args.form:  # an unknown rewrite id: one line before any work or progress line
        parse_form(form)
    model = load_model(args.model)
    stem = Path(args.model).stem
    feeds = feeds_for(model, stem, default_bindings(model, bindings_from(args)))
    unverified: dict[str, str] = {}
    refused: dict[str, str] = {}  # a rewrite bug: left out with why, never exit 3
    with isolated(args) as executor:  # the gate's runs and checker calls: a crash costs one verdict
        checker = Checker(executor)
        check_original(model, args.model, checker)  # a refused original: one line, before any progress line
        with progress(args, None, "building mutants") as prog:
            found = verified_mutants(
                model,
                args.form or None,
                feeds,
                args.model,
                runner_of(executor),
                refused,
                on_built=lambda n: prog.stage("mutants", n),
                on_verified=lambda rid: prog.advance("", rid),
                checker=checker,
                unverified=unverified,
            )
    print_unverified(unverified, refused=refused)
    unverified.update(refused)
    out = Path(args.out)
    if not found:
        none = (
            f"no mutant could be verified ({len(unverified)} left out)"
            if unverified
            else none_applies(model, args.form or ())
        )
        print(f"{args.model}: {none}; nothing written, nothing to compare")
        return 0
    out.mkdir(parents=True, exist_ok=True)
    entries = []
    for rid, (mutant, applied) in found.items():
        path = out / f"{stem}.{re.sub(r'[^A-Za-z0-9_.+@-]+', '_', rid)}.onnx"  # a site label may hold '/'
        onnx.save(mutant, str(path))
        entries.append(
            {
                "form": rid,
                "doc": describe(rid),
                "file": path.name,
                "sha256": model_hash(mutant),
                "verified_equivalent": True,
                **applied.to_json(),
            }
        )
        shown = ", ".join(applied.nodes[:5]) + (" …" if applied.count > 5 else "")
        print(f"{path}  {rid}: {applied.detail} ({shown})")
    manifest = {"model": str(args.model), "sha256": model_hash(model), "mutants": entries}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    print(f"{len(entries)} mutants, all verified equivalent; manifest: {out / 'manifest.json'}")
    return 0
