"""``passcheck list``: cases with their forms, tags (families) and passes.

A table on a terminal; one plain line per record elsewhere (``passcheck list | grep conv``), fields
separated by tabs; ``--json`` for a JSON array on stdout.
"""

from __future__ import annotations

import json
import sys

from passcheck.cli._common import console as console_


def add_parser(sub) -> None:
    p = sub.add_parser(
        "list",
        help="list cases, forms, tags, passes and rewrites",
        description="List the cases (or --tags, --passes, --rewrites): a table on a terminal, one tab-separated "
        "line per record in a pipe, a JSON array with --json.",
    )
    p.add_argument(
        "--case",
        action="append",
        default=[],
        metavar="GLOB[:FORM]",
        help="only cases whose id or tag matches; 'GLOB:FORMGLOB' lists only those forms",
    )
    p.add_argument("--tags", action="store_true", help="list the tags (families) with their case counts")
    p.add_argument("--passes", action="store_true", help="list the pass ids")
    p.add_argument(
        "--rewrites",
        action="store_true",
        help="list the rewrite ids that check --mutations --form and mutate --form take (ID, ID@SITE, A+B)",
    )
    p.add_argument(
        "--cases-from", action="append", default=[], metavar="PATH", help="also load case modules from a file or folder"
    )
    p.add_argument(
        "--json",
        action="store_true",
        help="print a JSON array: cases {id, forms: [{id, description}], opset, tags, family, passes, description}, "
        "or with --passes {id, default, folds_constants, optimizes, needs_feeds, opsets, install, description} "
        "(install: empty when the pass runs here, else what to pip install or why not), "
        "with --tags {tag, cases, family}, with --rewrites {id, description}",
    )
    p.set_defaults(handler=handle)


def handle(args) -> int:
    from passcheck.cli._common import load_cases_from

    load_cases_from(args.cases_from)
    if args.passes:
        records = _passes()
    elif args.rewrites:
        records = _rewrites()
    elif args.tags:
        records = _tags(args.case)
    else:
        records = _cases(args.case)
    if not (args.passes or args.tags or args.rewrites):
        from passcheck.cases import registry

        for line in registry().notes():  # what a loaded source left out: never on stdout (a table/JSON)
            print(f"passcheck: {line}", file=sys.stderr)
    if not (args.passes or args.rewrites):
        for line in _unclaimed():
            print(f"passcheck: {line}", file=sys.stderr)
    if args.json:
        sys.stdout.write(json.dumps(records, indent=1) + "\n")
        return 0
    hidden = set() if args.passes or args.tags or args.rewrites else HIDDEN
    shown = [k for k in (records[0] if records else {"id": ""}) if k not in hidden]
    console = console_()
    if not console.is_terminal:
        for r in records:
            print("\t".join(_text(r[k]) for k in shown))
        return 0
    from rich.table import Table

    t = Table(*shown, header_style="bold")
    for r in records:
        t.add_row(*(_text(r[k]) for k in shown))
    console.print(t)
    if not (args.passes or args.tags or args.rewrites):
        console.print(f"{len(records)} cases in {len({r['family'] for r in records})} families")
    return 0


def _unclaimed() -> list[str]:
    """One line per gated library family not listed (:meth:`~passcheck.cases.CaseRegistry.unclaimed`): the glob and
    tags that name it, and that naming it judges its bases once per cache."""
    from passcheck.cases import registry

    out = []
    for s in registry().unclaimed():
        ids, tags = getattr(s, "ids", ()) or (f"{s.id}/*",), getattr(s, "tags", ())
        more = f" (or a tag: {', '.join(tags)}{', …' if getattr(s, 'tags_of', None) else ''})" if tags else ""
        out.append(
            f"not listed: {s.id}, bases kept by running them once per cache (minutes the first time); "
            f"list or run them with --case '{ids[0]}'{more}; hunt and coverage take them by default"
        )
    return out


#: Case fields left out of the table and the plain lines (the id says the family; passes: see --json).
HIDDEN = {"family", "passes"}


def _text(value) -> str:
    if isinstance(value, bool):
        return "yes" if value else ""
    if isinstance(value, list):
        return ", ".join(v["id"] if isinstance(v, dict) else str(v) for v in value)
    return str(value)


def _passes() -> list[dict]:
    """One record per pass id: whether it is a default, its capabilities, and ``install``: empty
    when it runs here, else what to install (``pip install X``) or why it cannot run."""
    from passcheck.passes import DEFAULT_PASSES, get_pass, known_pass_ids, onnxoptimizer_passes, onnxscript_rules
    from passcheck.passes.command import RECIPES, recipe

    def record(pid: str, a, description: str) -> dict:
        caps = a.capabilities
        low, high = caps.min_opset, caps.max_opset
        opsets = "" if low is None and high is None else f"{low or ''}..{high or ''}"
        return {
            "id": pid,
            "default": pid in DEFAULT_PASSES,
            "folds_constants": caps.folds_constants,
            "optimizes": caps.optimizes,
            "needs_feeds": caps.needs_feeds,
            "opsets": opsets,
            "install": _install(a),
            "description": description,
        }

    out = [record(pid, (a := get_pass(pid)), a.doc) for pid in known_pass_ids()]
    out += [record(f"cmd+fold:{name}", (a := recipe(name)), a.doc) for name in RECIPES]
    out += [record(pid, (a := get_pass(pid)), a.doc) for pid in onnxscript_rules.pass_ids()]
    out += [record(pid, (a := get_pass(pid)), a.doc) for pid in onnxoptimizer_passes.pass_ids()]
    from passcheck.passes import ort_transformers

    out += [record(pid, (a := get_pass(pid)), a.doc) for pid in ort_transformers.extra_pass_ids()]
    keys = ("id", "default", "folds_constants", "optimizes", "needs_feeds", "opsets", "install", "description")
    out += [
        dict(zip(keys, row))
        for row in (
            (
                "onnx:convert-opset-N",
                False,
                False,
                False,
                False,
                "",
                "",
                "onnx.version_converter.convert_version(model, N)",
            ),
            (
                "cmd:'TOOL {in} {out}'",
                False,
                False,
                True,
                False,
                "",
                "",
                "any command that reads a model and writes one",
            ),
            (
                "cmd+fold:'TOOL {in} {out}'",
                False,
                True,
                True,
                False,
                "",
                "",
                "the same, for a tool that folds constants (missed-folding oracle applies)",
            ),
        )
    ]
    return out


def _install(adapter) -> str:
    why = adapter.unavailable_reason()
    if not why:
        return ""
    return f"pip install {adapter.extra}" if adapter.extra else why


def _rewrites() -> list[dict]:
    """Every rewrite, in catalogue order: its ``--form`` id and what it writes (its doc line)."""
    from passcheck.mutations.registry import REWRITES

    return [{"id": rid, "description": r.doc} for rid, r in REWRITES.items()]


def _tags(patterns) -> list[dict]:
    from passcheck.cases import registry

    cases = registry().select(patterns)
    counts: dict[str, int] = {}
    for c in cases:
        for tag in c.tags:
            counts[tag] = counts.get(tag, 0) + 1
    families = {c.family for c in cases}
    return [{"tag": tag, "cases": counts[tag], "family": tag in families} for tag in sorted(counts)]


def _cases(patterns) -> list[dict]:
    from passcheck.cases import form_wanted, registry

    return [
        {
            "id": c.id,
            "forms": [
                {"id": name, "description": f.doc} for name, f in c.forms.items() if form_wanted(c, name, patterns)
            ],
            "opset": c.opset,
            "tags": sorted(c.tags - {c.family}),
            "family": c.family,
            "passes": list(c.passes),
            "description": c.doc.strip().splitlines()[0] if c.doc.strip() else "",
        }
        for c in registry().select(patterns)
    ]
