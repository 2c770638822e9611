"""Sweep the time oracle over the library (round 20e, M455): each case's common form, enlarged by each kind that
applies (:mod:`passcheck.hunt.enlarge`), under each pass, judged by :func:`passcheck.hunt.growth.probe`.

    python bench/growth.py --case 'pattern-onnxscript/*' --pass ort:basic --kind repeat --out /tmp/g.jsonl

One JSON line per (case, kind, pass): :meth:`~passcheck.hunt.growth.Growth.to_json` plus ``case`` and ``seconds``
(wall of the probe). Findings (verdict ``superlinear`` / ``timeout``) are also printed. ``--budget`` seconds of
wall stop the sweep between probes; the lines written so far stand. Runs in any environment whose python can import
passcheck (a pinned one: ``PYTHONPATH=<tree> <env>/bin/python bench/growth.py …``).
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import sys
import time


def main(argv: list[str] | None = None) -> int:
    from passcheck.cases import registry
    from passcheck.hunt import enlarge, growth
    from passcheck.passes import get_pass, imports_of

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--case", action="append", required=True, help="case id glob (repeatable)")
    ap.add_argument("--pass", dest="passes", action="append", required=True, help="pass id (repeatable)")
    ap.add_argument("--kind", action="append", choices=enlarge.KINDS, help="enlarging kind (default: all)")
    ap.add_argument("--timeout", type=float, default=growth.TIMEOUT, help="seconds one run may take")
    ap.add_argument("--budget", type=float, default=3600.0, help="seconds of wall for the whole sweep")
    ap.add_argument("--out", required=True, help="JSON lines written here (appended)")
    args = ap.parse_args(argv)
    kinds = args.kind or list(enlarge.KINDS)
    cases = [c for c in registry() if any(fnmatch.fnmatch(c.id, g) for g in args.case)]
    adapters = [get_pass(p) for p in args.passes]
    start, findings = time.monotonic(), 0
    with growth.new_worker(timeout=args.timeout, warm=imports_of(args.passes)) as worker, open(args.out, "a") as out:
        for case in cases:
            model = case.forms["common"].build()
            for kind in kinds:
                if enlarge.enlarge(model, kind, 2) is None:
                    continue
                for adapter in adapters:
                    if time.monotonic() - start > args.budget:
                        print(f"budget spent: {findings} findings", file=sys.stderr)
                        return 1 if findings else 0
                    t = time.monotonic()
                    g = growth.probe(worker, adapter, model, kind)
                    line = {
                        "case": case.id,
                        **g.to_json(),
                        "key": g.signature.key,
                        "seconds": round(time.monotonic() - t, 1),
                    }
                    out.write(json.dumps(line) + "\n")
                    out.flush()
                    if g.finding:
                        findings += 1
                        entry = g.documented()
                        known = f" — known ({entry['doc']} row {entry['row']})" if entry else ""
                        print(f"{case.id} | {kind} | {adapter.id} | {g.verdict}: {g.why}{known}", flush=True)
    print(f"done: {findings} findings", file=sys.stderr)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
