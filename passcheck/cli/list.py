"""``passcheck list``: cases with their forms, tags (families) and passes."""

from __future__ import annotations

from passcheck.cli._common import console as console_
from rich.table import Table


def add_parser(sub) -> None:
    p = sub.add_parser("list", help="list cases, forms, tags and passes")
    p.add_argument("--case", action="append", default=[], metavar="GLOB", help="only cases whose id or tag matches")
    p.add_argument("--tags", action="store_true", help="list the tags (families) with their case counts")
    p.add_argument("--passes", action="store_true", help="list the pass ids")
    p.add_argument("--cases-from", action="append", default=[], metavar="PATH", help="also load case modules from a file or folder")
    p.set_defaults(handler=handle)


def handle(args) -> int:
    from passcheck.cases import load_path, registry
    from passcheck.passes import DEFAULT_PASSES, get_pass, known_pass_ids

    console = console_()
    for path in args.cases_from:
        load_path(path)
    if args.passes:
        t = Table("pass", "default", "folds constants", "what", header_style="bold")
        for pid in known_pass_ids():
            a = get_pass(pid)
            t.add_row(pid, "yes" if pid in DEFAULT_PASSES else "", "yes" if a.folds_constants else "", a.doc)
        t.add_row("onnx:convert-opset-N", "", "", "onnx.version_converter.convert_version(model, N)")
        t.add_row("cmd:'TOOL {in} {out}'", "", "", "any command that reads a model and writes one")
        t.add_row("cmd+fold:'TOOL {in} {out}'", "", "yes", "the same, for a tool that folds constants (missed-folding oracle applies)")
        console.print(t)
        return 0
    cases = registry().select(args.case)
    if args.tags:
        tags: dict[str, int] = {}
        for c in cases:
            for tag in c.tags:
                tags[tag] = tags.get(tag, 0) + 1
        families = {c.family for c in cases}
        t = Table("tag", "cases", "family", header_style="bold")
        for tag in sorted(tags):
            t.add_row(tag, str(tags[tag]), "yes" if tag in families else "")
        console.print(t)
        return 0
    t = Table("case", "forms", "opset", "tags", "what", header_style="bold")
    for c in cases:
        t.add_row(c.id, ", ".join(c.forms), str(c.opset), ", ".join(sorted(c.tags - {c.family})), c.doc.strip().splitlines()[0])
    console.print(t)
    console.print(f"{len(cases)} cases in {len({c.family for c in cases})} families")
    return 0
