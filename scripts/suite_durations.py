"""Write tests/durations.json, the table tests/_schedule.py lays out the xdist workers' order by, from the JUnit
report of a whole run (``pytest --junitxml=report.xml``).

Usage: ``python scripts/suite_durations.py report.xml [--min-seconds 2]``. A test's time is the report's
``time`` (setup, call and teardown on its worker); tests under ``--min-seconds`` are left out (they count as fast).
"""

from __future__ import annotations

import argparse
import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def nodeid(classname: str, name: str) -> str | None:
    """The pytest node id of a JUnit ``testcase`` (``tests.a.test_b.TestC`` + ``test_d[x]`` →
    ``tests/a/test_b.py::TestC::test_d[x]``), or None when no file of the tree matches."""
    parts = classname.split(".")
    for cut in range(len(parts), 0, -1):
        path = "/".join(parts[:cut]) + ".py"
        if (ROOT / path).is_file():
            return "::".join([path, *parts[cut:], name])
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("report", type=Path)
    parser.add_argument("--min-seconds", type=float, default=2.0)
    parser.add_argument("--out", type=Path, default=ROOT / "tests" / "durations.json")
    args = parser.parse_args(argv)
    try:
        cases = ET.parse(args.report).getroot().iter("testcase")
    except (OSError, ET.ParseError) as exc:
        print(f"error: cannot read {args.report}: {exc}", file=sys.stderr)
        return 2
    table = {}
    for case in cases:
        seconds = float(case.get("time") or 0)
        key = nodeid(case.get("classname", ""), case.get("name", ""))
        if key and seconds >= args.min_seconds and case.find("skipped") is None:
            table[key] = round(seconds, 1)
    table = dict(sorted(table.items(), key=lambda kv: -kv[1]))
    args.out.write_text(json.dumps({"source": args.report.name, "tests": table}, indent=1) + "\n")
    print(f"{len(table)} tests of at least {args.min_seconds:g} s, {sum(table.values()):.0f} s in all: {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
