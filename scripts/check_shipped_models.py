"""Run `passcheck check` (every default pass) on every model the onnx wheel ships under
light/, pytorch-converted/, pytorch-operator/ and simple/, and print one line per model: seconds,
cells, findings by kind, root causes; then how many models end with a finding and how many
distinct root causes the findings have.

Usage: python scripts/check_shipped_models.py [--json OUT.json]
       python scripts/check_shipped_models.py --summarize REPORT.json   (figures of a stored sweep)
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from pathlib import Path

import onnx

from passcheck.api import check_model
from passcheck.errors import PasscheckError
from passcheck.report import read_report, write_report
from passcheck.report.rootcause import root_causes, signature


def summary(cells, models: int) -> str:
    """Models ending with an unexpected finding, findings, root causes (per model, summed) and
    distinct root-cause signatures across models (one defect class seen on several models counts once)."""
    by_case: dict[str, list] = {}
    for c in cells:
        by_case.setdefault(c.case, []).append(c)
    failing = [case for case, cs in by_case.items() if any(not f.expected for c in cs for f in c.findings)]
    causes = [rc for cs in by_case.values() for rc in root_causes(cs) if not rc.expected]
    findings = sum(not f.expected for c in cells for f in c.findings)
    unavailable = sum(c.status == "unavailable" for c in cells)
    return (
        f"{len(failing)} of {models} models end with a finding; {findings} findings, {len(causes)} root causes "
        f"({len({signature(rc.finding) for rc in causes})} distinct across models); {unavailable} cells unavailable"
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", help="write all cells as one passcheck report")
    ap.add_argument("--summarize", metavar="REPORT.json", help="print the figures of a stored sweep report and exit")
    args = ap.parse_args()
    if args.summarize:
        cells, _ = read_report(args.summarize)
        print(summary(cells, len({c.case for c in cells})))
        return 0
    data = Path(onnx.__file__).parent / "backend/test/data"
    models = sorted(data.glob("light/*.onnx")) + sorted(data.glob("*/*/model.onnx"))
    cells, envs, start = [], {}, time.perf_counter()
    for path in models:
        t = time.perf_counter()
        try:
            report = check_model(path)
        except PasscheckError as exc:
            print(f"{time.perf_counter() - t:6.1f}s {path.relative_to(data)}: input error: {exc}")
            continue
        cells += report.cells
        envs.update(report.environments)
        kinds = Counter(f"{f.pass_id} {f.kind}" for f in report.findings)
        print(
            f"{time.perf_counter() - t:6.1f}s {path.relative_to(data)}: {len(report.cells)} cells, {dict(kinds) or 'no findings'}, "
            f"{len(root_causes(report.cells))} root causes",
            flush=True,
        )
    print(f"{len(models)} models, {len(cells)} cells, {time.perf_counter() - start:.0f}s")
    print(summary(cells, len(models)))
    if args.json:
        write_report(args.json, cells, envs)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
