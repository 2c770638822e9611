"""Re-plant the verdict bugs of issue 29 (and mutation survivors killed since), one at a time: a test fails on each.

Each plant is one textual edit of one module (``old`` must occur exactly once) made in a copy of
the working tree (the checkout is never edited); the plant's tests then run there, single-process.
A plant is *caught* when that run fails. ``tests/test_bench_scripts.py`` checks that every
``old`` text still occurs once, so a plant never silently stops applying.

    python bench/plant_verdicts.py            # every plant (about a minute)
    python bench/plant_verdicts.py rank       # the plants whose name contains "rank"

Each plant's tests first run unplanted in the copy: they must pass there, else nothing is shown.

Exit code: 0 when every plant is caught, 1 when one survives, 2 when a plant no longer applies or its
tests fail without it.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent


class Plant(NamedTuple):
    name: str
    module: str
    old: str
    new: str
    tests: tuple[str, ...]


_RULES = "tests/report/test_verdict_rules.py"
_EXCUSES = "tests/oracles/test_verdict_excuses.py"

PLANTS = (
    Plant(
        "rootcause-rule1-any-kind",  # an input finding explains every finding of its oracle
        "passcheck/report/rootcause.py",
        "same = other[1].replace(pass_id=_INPUT) == sig and other[2] == text",
        "same = other[1].oracle == sig.oracle",
        (_RULES,),
    ),
    Plant(
        "rootcause-rank-ignores-level",
        "passcheck/report/rootcause.py",
        "return (f.pass_id != _INPUT, level, _changes(f.form), order[id(f)])",
        "return (f.pass_id != _INPUT, _changes(f.form), order[id(f)])",
        (_RULES,),
    ),
    Plant(
        "baseline-unavailable-counts-as-run",
        "passcheck/report/baseline.py",
        'if c.status in ("skipped", "unavailable"):',
        'if c.status in ("skipped",):',
        (_RULES,),
    ),
    Plant(
        "signature-drops-named-ops",
        "passcheck/signature.py",
        "ops = named_ops(finding)",
        "ops = set()",
        (_RULES,),
    ),
    Plant(
        "run-observing-no-cross-check",
        "passcheck/runtime/observe.py",
        "profiled[k] == _meta_of(fetched[k]) for k in profiled.keys() & set(outputs)",
        "True for k in profiled.keys() & set(outputs)",
        (_RULES,),
    ),
    Plant(
        "validity-no-input-excuse",  # an output invalid for the reason its input is counts against the pass
        "passcheck/oracles/validity.py",
        "if (base := checker(run.model)) == err or isinstance(base, CheckerTimedOut):",
        "if isinstance(base := checker(run.model), CheckerTimedOut):",
        (_EXCUSES,),
    ),
    Plant(
        "declined-not-a-rejection",
        "passcheck/passes/_base.py",
        'FAILED = frozenset({"declined", "crashed", "timeout", "out-of-memory"})',
        'FAILED = frozenset({"crashed", "timeout", "out-of-memory"})',
        (_EXCUSES,),
    ),
    # Survivors of bench/mutation_score.py, killed since.
    Plant(
        "baseline-load-or-to-and",
        "passcheck/report/baseline.py",
        'if not isinstance(e, dict) or not e.get("id") or not e.get("reason"):',
        'if not isinstance(e, dict) and not e.get("id") or not e.get("reason"):',
        (_RULES,),
    ),
    Plant(
        "isolation-oom-wording-on-every-outcome",
        "passcheck/passes/isolation.py",
        'if fields["status"] == "out-of-memory":',
        'if fields["status"] != "out-of-memory":',
        (_EXCUSES,),
    ),
    Plant(
        "cells-feeds-given-by-default",
        "passcheck/oracles/_contract.py",
        "feeds_given: bool = False",
        "feeds_given: bool = True",
        ("tests/oracles/test_mutation_survivors.py",),
    ),
    Plant(
        "rootcause-rule1-rejected-or-later-kinds",
        "passcheck/report/rootcause.py",
        'if same or sig.kind == "rejected" and other[2] == text:',
        'if same or sig.kind >= "rejected" and other[2] == text:',
        (_RULES,),
    ),
    Plant(
        "spec-rules-axis-one-past-the-end",
        "passcheck/oracles/spec_rules.py",
        "hi = r if end_inclusive else r - 1",
        "hi = r if end_inclusive else r // 1",
        ("tests/oracles/test_mutation_survivors.py",),
    ),
    Plant(
        "binding-conflict-on-no-occurrence",
        "passcheck/oracles/binding.py",
        "if len({o.size for o in occs}) > 1",
        "if len({o.size for o in occs}) != 1",
        ("tests/oracles/test_mutation_survivors.py",),
    ),
    Plant(
        "annotations-sequences-not-observed",
        "passcheck/oracles/annotations.py",
        'whole = [k for k, found in kinds.items() if found != {"tensor_type"}]',
        'whole = [k for k, found in kinds.items() if found is {"tensor_type"}]',
        ("tests/oracles/test_mutation_survivors.py",),
    ),
    Plant(
        "einsum-term-longer-than-rank",
        "passcheck/oracles/spec_rules.py",
        'if r is not None and (n != r if "..." not in t else n > r):',
        'if r is not None and (n < r if "..." not in t else n > r):',
        ("tests/oracles/test_mutation_survivors.py",),
    ),
    Plant(
        "worker-crash-reads-out-of-memory",
        "passcheck/passes/isolation.py",
        'if status == "crashed" and outcome.error and any(m in outcome.error for m in OOM_MARKERS):',
        'if status == "crashed" or outcome.error and any(m in outcome.error for m in OOM_MARKERS):',
        (
            "tests/reliability/test_isolation.py::test_a_pass_raising_in_the_worker_is_crashed_and_only_an_allocation_failure_reads_out_of_memory",
        ),
    ),
    Plant(
        "ort-stated-limit-misread",
        "passcheck/runtime/limits.py",
        'return found[1] if found and found[0] in ("ai.onnx", "") and found[1] < newest else None',
        'return found[1] if found and found[0] in ("ai.onnx", "") and found[1] >= newest else None',
        ("tests/runtime/test_ort_opset_limit.py",),
    ),
)


def missing(root: Path = ROOT) -> list[str]:
    """Names of the plants whose ``old`` text does not occur exactly once in its module under ``root``."""
    return [p.name for p in PLANTS if (root / p.module).read_text().count(p.old) != 1]


def _copy_tree(dest: Path) -> None:
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        check=True,
        capture_output=True,
    ).stdout.decode()
    for rel in filter(None, listed.split("\0")):
        if (ROOT / rel).is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / rel, dest / rel)


def _failed(tests: tuple[str, ...], work: Path) -> list[str]:
    """The test ids that fail in ``work`` (``["(pytest exit N)"]`` when it failed without naming one)."""
    # `python -m pytest` from the copy puts the copy first on sys.path, ahead of the editable install.
    cmd = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "0", "-q", "-rf", *tests]
    p = subprocess.run(cmd, cwd=work, capture_output=True, text=True)
    named = [line.split()[1] for line in p.stdout.splitlines() if line.startswith("FAILED ")]
    return named or ([f"(pytest exit {p.returncode})"] if p.returncode else [])


def run(plant: Plant, work: Path) -> list[str]:
    """Apply ``plant`` in the copy ``work``, run its tests, restore the module; the tests that failed."""
    path = work / plant.module
    original = path.read_text()
    path.write_text(original.replace(plant.old, plant.new))
    try:
        return _failed(plant.tests, work)
    finally:
        path.write_text(original)


def main(argv: list[str]) -> int:
    if gone := missing():
        print(f"plant_verdicts: no longer applies (edit PLANTS): {', '.join(gone)}", file=sys.stderr)
        return 2
    chosen = [p for p in PLANTS if not argv or any(a in p.name for a in argv)]
    work = Path(tempfile.mkdtemp(prefix="passcheck-plant-"))
    try:
        _copy_tree(work)
        for tests in dict.fromkeys(p.tests for p in chosen):  # a plant proves nothing if its tests fail anyway
            if failed := _failed(tests, work):
                print(f"plant_verdicts: fails without any plant: {', '.join(failed)}", file=sys.stderr)
                return 2
        survived = 0
        for p in chosen:
            failed = run(p, work)
            survived += not failed
            print(f"{'caught  ' if failed else 'SURVIVED'} {p.name:36} {p.module}: {', '.join(failed) or p.tests}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"{len(chosen) - survived}/{len(chosen)} plants caught")
    return 1 if survived else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
