"""``passcheck coverage``: what each installed tool can do (the catalogue), which bases trigger
each entry (evidence observed by effect), what a hunt tried under it, and the entries no base
triggers with the reason (see :mod:`passcheck.coverage`)."""

from __future__ import annotations

import fnmatch
import json
import sys

from passcheck.cli._common import AppendUnique


def add_parser(sub) -> None:
    from passcheck.coverage.entry import TOOLS

    p = sub.add_parser(
        "coverage",
        help="the catalogue of each tool's transformers, rules, inference functions and "
        "adapters, and which bases trigger each",
        description="Read what each installed tool does (onnxruntime transformers and rules, onnxscript "
        "rules, fusions and folding, onnx shape inference per (op, since_version), "
        "version-converter adapters, symbolic shape inference handlers), observe every base "
        "(the first form of each hand-written and generated case) under each tool in the "
        "isolation worker, and report per entry the bases that trigger it and the effect, "
        "totals per tool, and the entries no base triggers with the reason. Cached per tool "
        "version ($PASSCHECK_CACHE/coverage).",
    )
    p.add_argument(
        "--pass",
        dest="passes",
        action=AppendUnique,
        default=[],
        metavar="ID",
        help="list only the entries this pass runs (repeatable; e.g. ort:basic, onnxscript:rewrite; a cmd: or "
        "plugin pass: every entry of the tools it declares); an unknown id is a usage error",
    )
    p.add_argument(
        "--case",
        action="append",
        default=[],
        metavar="GLOB",
        help="bases: case id or tag glob (repeatable); default: the hand-written library and the generated set",
    )
    p.add_argument("--tool", action="append", default=[], choices=TOOLS, help="observe only these tools (repeatable)")
    p.add_argument(
        "--entry", action="append", default=[], metavar="GLOB", help="list only entries whose key matches (repeatable)"
    )
    p.add_argument("--no-generated", action="store_true", help="leave the generated set out of the default bases")
    p.add_argument("--all-forms", action="store_true", help="observe every form of each case, not only its first")
    p.add_argument(
        "--hunt",
        action="append",
        default=[],
        metavar="DIR",
        help="a hunt's --out folder: count the spellings it tried under each entry and their findings (repeatable)",
    )
    p.add_argument("--json", metavar="FILE", help="write the map as JSON ('-' for standard output)")
    p.add_argument(
        "--refresh", action="store_true", help="observe every base again (empty this environment's coverage cache)"
    )
    p.add_argument(
        "--recheck",
        metavar="FILE",
        help="observe again the bases a coverage JSON names as evidence (the first of each listed entry) "
        "and say which still show the effect; exit 1 when one does not",
    )
    p.add_argument(
        "--untriggered",
        type=int,
        default=15,
        metavar="N",
        help="untriggered entries listed on the terminal (default: 15)",
    )
    p.set_defaults(handler=handle)


def _hunt_items(folders) -> list[dict]:
    from pathlib import Path

    from passcheck.errors import PasscheckError

    items = []
    for d in folders:
        path = Path(d) / "hunt-state.json"
        try:
            items += json.loads(path.read_text(encoding="utf-8"))["items"]
        except (OSError, ValueError, KeyError) as exc:
            raise PasscheckError(f"--hunt {d}: no readable hunt state ({path}): {exc}") from None
    return items


def handle(args) -> int:
    from passcheck._versions import environment
    from passcheck.coverage import report
    from passcheck.coverage.entry import TOOLS, PassScope
    from passcheck.errors import PasscheckError
    from passcheck.hunt.coverage import library_map
    from passcheck.passes import get_pass

    for p in args.passes:  # an unknown id is a usage error before the catalogue is read
        get_pass(p)
    if args.json and args.json != "-":
        try:
            open(args.json, "a").close()
        except OSError as exc:
            raise PasscheckError(f"--json {args.json}: cannot write: {exc.strerror}") from None
    if args.recheck:
        return _recheck(args)
    items = _hunt_items(args.hunt)
    tools = list(dict.fromkeys(args.tool)) or list(TOOLS)
    err = sys.stderr
    count = [0]

    def on_base(_bid: str) -> None:
        count[0] += 1
        if count[0] % 200 == 0:
            print(f"passcheck coverage: {count[0]} bases observed", file=err, flush=True)

    cmap = library_map(
        args.case,
        generated=not args.no_generated,
        all_forms=args.all_forms,
        tools=tools,
        refresh=args.refresh,
        on_base=on_base,
    )
    from passcheck.cases import registry

    for line in registry().notes():  # what a loaded case source left out (e.g. onnx-node tests skipped)
        print(f"passcheck coverage: {line}", file=err)
    scope = PassScope(cmap.entries.values())  # as the hunt reads it: a cmd: or plugin pass by its tools
    keys = [
        k
        for k, e in cmap.entries.items()
        if (not args.passes or any(scope.runs(e, p) for p in args.passes))
        and (not args.entry or any(fnmatch.fnmatchcase(k, g) for g in args.entry))
    ]
    doc = report.to_json(cmap, items, {k: v for k, v in environment().items()}, keys)
    if args.passes or args.entry:
        doc["totals"] = _totals_of(doc["entries"])
    text = "\n".join(report.lines(doc, args.untriggered))
    if args.json == "-":
        print(text, file=err)
        json.dump(doc, sys.stdout, indent=1)
        print()
    else:
        print(text)
        if args.json:
            with open(args.json, "w", encoding="utf-8") as f:
                json.dump(doc, f, indent=1)
    return 0


def _recheck(args) -> int:
    from passcheck.coverage.recheck import recheck
    from passcheck.errors import PasscheckError
    from passcheck.passes.isolation import executor_for

    try:
        with open(args.recheck, encoding="utf-8") as f:
            rows = json.load(f)["entries"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise PasscheckError(f"--recheck {args.recheck}: not a coverage JSON: {exc}") from None
    chosen = [
        r
        for r in rows
        if r.get("evidence")
        and (not args.passes or set(args.passes) & set(r["passes"]))
        and (not args.entry or any(fnmatch.fnmatchcase(r["key"], g) for g in args.entry))
    ]
    failed = []
    with executor_for(None) as ex:  # its worker holds the tools' block too (M311); kept for the next (M530)
        for r in chosen:
            ok, effect = recheck(r["evidence"][0], ex)
            if not ok:
                failed.append(f"  {r['key']} on {r['evidence'][0]['base']}: {effect}")
    print(f"passcheck coverage: {len(chosen) - len(failed)} of {len(chosen)} evidence records hold")
    if failed:
        print("\n".join(failed))
    return 1 if failed else 0


def _totals_of(rows) -> dict:
    out: dict = {}
    for r in rows:
        t = out.setdefault(r["tool"], {"triggered": 0, "total": 0})
        t["total"] += 1
        t["triggered"] += bool(r["triggered"])
    return out
