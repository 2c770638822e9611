"""Write tests/durations.json, the table tests/_schedule.py lays out the xdist workers' order by, from the JUnit
report of a whole run (``pytest --junitxml=report.xml``).

Usage: ``python scripts/suite_durations.py report.xml [--min-seconds 2]``. A test's time is the report's
``time`` (setup, call and teardown on its worker); tests under ``--min-seconds`` are left out (they count as fast).

``python scripts/suite_durations.py --log ci.log`` refreshes the committed table from a run's printed
``--durations`` lines instead (a CI log holds the slowest 25 phases, not a JUnit report): a test's phases are
summed, scaled to the table's load by the median ratio of table to log over the tests both list (1 when none
is shared), and replace or join the table's rows. A row the log leaves out though it is longer than the log's
shortest listed phase (scaled) is brought down to that phase: every phase of it took less in that run (a test
made cheaper would otherwise keep its old place at the head of the order). The other rows stay.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: one line of pytest's ``--durations`` summary: ``12.34s call     tests/a.py::test_b[x]``
DURATION_LINE = re.compile(r"^\s*(\d+(?:\.\d+)?)s (?:setup|call|teardown)\s+(\S.*?)\s*$")


def nodeid(classname: str, name: str) -> str | None:
    """The pytest node id of a JUnit ``testcase`` (``tests.a.test_b.TestC`` + ``test_d[x]`` →
    ``tests/a/test_b.py::TestC::test_d[x]``), or None when no file of the tree matches."""
    parts = classname.split(".")
    for cut in range(len(parts), 0, -1):
        path = "/".join(parts[:cut]) + ".py"
        if (ROOT / path).is_file():
            return "::".join([path, *parts[cut:], name])
    return None


def log_seconds(text: str) -> dict[str, float]:
    """``{nodeid: seconds}`` from the ``--durations`` lines of a pytest log, a test's phases summed."""
    seconds: dict[str, float] = {}
    for line in text.splitlines():
        m = DURATION_LINE.match(line)
        if m:
            seconds[m[2]] = seconds.get(m[2], 0.0) + float(m[1])
    return seconds


def shortest_phase(text: str) -> float | None:
    """The shortest phase a pytest log's ``--durations`` lines list (seconds), None when it lists none."""
    phases = [float(m[1]) for line in text.splitlines() if (m := DURATION_LINE.match(line))]
    return min(phases) if phases else None


def merged(
    table: dict[str, float], fresh: dict[str, float], shortest: float | None = None
) -> tuple[dict[str, float], float]:
    """``table`` with ``fresh``'s tests (another run's seconds) scaled to it and put in, and the scale: the median
    of ``table[t] / fresh[t]`` over the tests both list, 1.0 when they share none. ``shortest``: the run's
    shortest listed phase; a row ``fresh`` leaves out is at most that, scaled."""
    shared = [table[t] / fresh[t] for t in fresh if t in table and fresh[t] > 0]
    scale = statistics.median(shared) if shared else 1.0
    if shortest is not None:
        cap = round(shortest * scale, 1)
        table = {t: min(s, cap) if t not in fresh else s for t, s in table.items()}
    return {**table, **{t: round(s * scale, 1) for t, s in fresh.items()}}, scale


def _write(out: Path, source: str, table: dict[str, float]) -> None:
    table = dict(sorted(table.items(), key=lambda kv: -kv[1]))
    out.write_text(json.dumps({"source": source, "tests": table}, indent=1) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("report", type=Path, nargs="?", help="a whole run's JUnit report")
    parser.add_argument("--log", type=Path, help="a run's output with --durations lines, merged into --out")
    parser.add_argument("--min-seconds", type=float, default=2.0)
    parser.add_argument("--out", type=Path, default=ROOT / "tests" / "durations.json")
    args = parser.parse_args(argv)
    if (args.report is None) == (args.log is None):
        parser.error("give a JUnit report or --log, one of them")
    if args.log is not None:
        try:
            text = args.log.read_text(errors="replace")
            fresh = log_seconds(text)
            old = json.loads(args.out.read_text())
        except (OSError, ValueError) as exc:
            print(f"error: cannot read {args.log} or {args.out}: {exc}", file=sys.stderr)
            return 2
        if not fresh:
            print(f"error: {args.log} has no --durations lines", file=sys.stderr)
            return 2
        table, scale = merged({str(k): float(v) for k, v in old["tests"].items()}, fresh, shortest_phase(text))
        _write(args.out, f"{old.get('source', '?')}; {args.log.name}'s --durations x{scale:.2f}", table)
        print(f"{len(fresh)} tests from {args.log} (x{scale:.2f}), {len(table)} in all: {args.out}")
        return 0
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
    _write(args.out, args.report.name, table)
    print(f"{len(table)} tests of at least {args.min_seconds:g} s, {sum(table.values()):.0f} s in all: {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
