"""``passcheck attribute REPORT.json``: name the onnxruntime transformer behind ``ort:*`` parity findings,
or the node behind a shape-inference precision finding.

Attribution opens onnxruntime sessions (up to ``--max-sessions`` per finding), so ``check`` and
``run`` never compute it; this command does, on a stored report, and writes the names into the
findings (``"attribution": ["ConvBNFusion"]``), which every renderer then shows. The report is
updated in place (a JSON document) or written to ``--json`` (required for a JSON-lines stream).
"""

from __future__ import annotations

import sys


def add_parser(sub) -> None:
    from passcheck.cli._common import positive

    p = sub.add_parser(
        "attribute",
        help="name the onnxruntime transformer(s) behind ort:* parity findings of a report (the node, "
        "for shape inference)",
        description="Bisect InferenceSession(disabled_optimizers=...) over the transformers of the finding's "
        "level until the smallest set whose disabling makes the optimized form keep what the "
        "other form kept; for a shape-inference precision finding, name the node where the typing "
        "falls behind the other form's. Every pass and session runs in the isolated worker.",
    )
    p.add_argument("report", metavar="REPORT.json")
    p.add_argument(
        "--finding", metavar="ID", help="only this finding (default: every unexpected parity finding it covers)"
    )
    p.add_argument(
        "--cases-from",
        action="append",
        default=[],
        metavar="PATH",
        help="case module file or folder the report's cases come from",
    )
    p.add_argument("--json", metavar="FILE", help="write the updated report here instead of over REPORT.json")
    p.add_argument(
        "--max-sessions",
        type=positive(int),
        default=40,
        metavar="N",
        help="onnxruntime sessions per finding (default: %(default)s)",
    )
    p.set_defaults(handler=handle)


def handle(args) -> int:
    import json
    from pathlib import Path

    from passcheck.attribution.dispatch import attribute, covered
    from passcheck.attribution.forms import find
    from passcheck.cli._common import check_outputs, read_run
    from passcheck.errors import PasscheckError
    from passcheck.passes.isolation import executor_for
    from passcheck.report.json_report import atomic_write

    check_outputs(args)
    cells, _envs = read_run(args.report)
    try:
        doc = json.loads(Path(args.report).read_text(encoding="utf-8"))
    except json.JSONDecodeError:
        doc = None
    if not (isinstance(doc, dict) and "results" in doc) and not args.json:
        raise PasscheckError(f"{args.report}: a JSON-lines stream cannot be updated in place; give --json FILE")
    if args.finding:
        todo = [find(cells, args.finding)]
    else:
        todo = [f for c in cells for f in c.findings if f.oracle == "parity" and not f.expected and covered(f)]
    if not todo:
        print(
            "no unexpected ort:* or shape-inference parity finding in the report: nothing to attribute", file=sys.stderr
        )
    with executor_for(None) as ex:  # its worker holds the tools' block too (M311); kept for the next (M530)
        for f in todo:
            f.attribution, note = attribute(f, ex, args.cases_from, args.max_sessions)
            print(
                f"{f.id} | {f.env}: "
                + (f"attributed to: {', '.join(f.attribution)} ({note})" if f.attribution else note)
            )
    if doc is None:
        from passcheck.report.json_report import report_dict

        doc = report_dict(cells, _envs)
    _store(doc, todo)
    atomic_write(args.json or args.report, json.dumps(doc, indent=1, default=str) + "\n")
    left = sum(not f.attribution for f in todo)
    if left:  # gave up, or no single name: not attributed, so not a success (README: exit codes)
        print(f"{left} of {len(todo)} findings not attributed (the reason is on each line above)", file=sys.stderr)
    return 1 if left else 0


def _store(doc, findings) -> None:
    """Write each finding's attribution into every finding record of ``doc`` with its id and env."""
    want = {(f.id, f.env): f.attribution for f in findings}

    def walk(node):
        if isinstance(node, dict):
            if (node.get("id"), node.get("env")) in want and "oracle" in node:
                node["attribution"] = want[(node["id"], node["env"])]
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(doc)
