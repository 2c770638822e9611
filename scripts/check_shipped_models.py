"""Run `passcheck check` (every default pass) on every model the onnx wheel ships under
light/, pytorch-converted/, pytorch-operator/ and simple/, and print one line per model: seconds, cells, findings by kind.

Usage: python scripts/check_shipped_models.py [--json OUT.json]
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from pathlib import Path

import onnx

from passcheck.api import check_model
from passcheck.errors import PasscheckError
from passcheck.report import write_report


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", help="write all cells as one passcheck report")
    args = ap.parse_args()
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
        print(f"{time.perf_counter() - t:6.1f}s {path.relative_to(data)}: {len(report.cells)} cells, {dict(kinds) or 'no findings'}", flush=True)
    print(f"{len(models)} models, {len(cells)} cells, {time.perf_counter() - start:.0f}s")
    if args.json:
        write_report(args.json, cells, envs)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
