"""Which signatures of a hunt lie beyond what the hand-written case library already shows.

Usage: python scripts/hunt_beyond.py OUT/hunt-state.json LIBRARY.json [--examples DIR]

``LIBRARY.json`` is ``passcheck run --json LIBRARY.json`` over the hand-written library with the
hunt's passes. Each library finding (expected ones included) gets a signature from the same
function the hunt uses (:func:`passcheck.hunt.signature.signature`): its sites are the nodes in
which its form and the form it is compared with (``other_form``, else ``common``) differ; a
finding on ``common`` alone, or forms differing in no node, get the case's op types. Library forms
are hand-written, not rewrites, so the rewrite is left out of the comparison: a hunt signature is
*beyond* the library when no library signature has its pass, oracle, kind and op types, and *near*
one when a library signature shares its pass, oracle, kind and at least one op type.
Prints one markdown row per hunt signature (with ``--examples DIR``: the reproduce command of each
case module copied into DIR, a relative path) and the counts.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import onnx

from passcheck.cases import registry
from passcheck.hunt.signature import signature
from passcheck.records import Finding


def _node_key(n: onnx.NodeProto) -> bytes:
    m = onnx.NodeProto()
    m.CopyFrom(n)
    m.name = ""
    return m.SerializeToString(deterministic=True)


def differing_labels(a: onnx.ModelProto, b: onnx.ModelProto) -> list[str]:
    """Labels (names, or ``#i:OpType``) of the main-graph nodes of either model the other lacks."""
    out = []
    for x, y in ((a, b), (b, a)):
        other = {_node_key(n) for n in y.graph.node}
        out += [n.name or f"#{i}:{n.op_type}" for i, n in enumerate(x.graph.node) if _node_key(n) not in other]
    return out


def library_signatures(report: dict) -> set[tuple]:
    """(pass, oracle, kind, ops) of every finding of a ``passcheck run`` report."""
    reg, built, out = registry(), {}, set()

    def model(case: str, form: str):
        if (case, form) not in built:
            built[case, form] = reg.get(case).build(form)
        return built[case, form]

    for cell in report["results"]:
        for d in cell["findings"]:
            f = Finding.from_json(d)
            other = f.details.get("other_form") or ("common" if f.form != "common" else None)
            try:
                pair = [model(f.case, f.form)] + ([model(f.case, other)] if other else [])
            except Exception:  # noqa: BLE001 - a form this onnx cannot build: its finding has no ops to compare
                continue
            labels = differing_labels(*pair) if len(pair) == 2 else []
            s = signature(f, "", pair[::-1], labels)
            out.add((s.pass_id, s.oracle, s.kind, s.ops))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("state")
    ap.add_argument("library")
    ap.add_argument(
        "--examples", metavar="DIR", help="folder holding copies of some saved case modules (hunt_<hash>.py)"
    )
    args = ap.parse_args()
    state = json.loads(Path(args.state).read_text())
    lib = library_signatures(json.loads(Path(args.library).read_text()))
    near_keys = {(p, o, k) for p, o, k, _ in lib}
    print("| # | pass | oracle | kind | ops | rewrite | nodes | reproduces | vs library | reproduce |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    counts = {"beyond": 0, "near": 0, "in library": 0}
    max_nodes = 0
    for i, rec in enumerate(state["signatures"].values(), 1):
        s = rec["signature"]
        key = (s["pass_id"], s["oracle"], s["kind"], tuple(s["ops"]))
        if key in lib:
            where = "in library"
        elif key[:3] in near_keys and any(set(ops) & set(key[3]) for p, o, k, ops in lib if (p, o, k) == key[:3]):
            where = "near"
        else:
            where = "beyond"
        counts[where] += 1
        nodes = "/".join(map(str, rec["nodes"])) if rec.get("nodes") else "-"
        max_nodes = max([max_nodes, *(rec.get("nodes") or [])])
        repro = {True: "yes", False: "no"}.get(rec.get("reproduces"), "-")
        module = (
            Path(args.examples) / Path(rec["case_module"]).name if args.examples and rec.get("case_module") else None
        )
        if module is not None and module.is_file():
            how = f"`passcheck run --cases-from {module} --case {rec['case']} --pass {s['pass_id']}`"
        else:
            how = f"`{rec.get('case') or '-'}`"
        print(
            f"| {i} | `{s['pass_id']}` | {s['oracle']} | {s['kind']} | {', '.join(s['ops'])} | `{s['rewrite']}` | {nodes} | {repro} | {where} | {how} |"
        )
    print()
    print(
        f"{len(state['items'])} items, {len(state['signatures'])} distinct signatures, {len(lib)} library signatures; "
        + ", ".join(f"{n} {k}" for k, n in counts.items())
        + f"; largest shrunk pair {max_nodes} nodes"
    )


if __name__ == "__main__":
    main()
