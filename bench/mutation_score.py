"""Mutation score of the test suite over passcheck's verdict code (issues 11 and 29).

Runs cosmic-ray (install it with ``pip install -e '.[bench]'``; this script installs nothing)
on a copy of the working tree, so the checkout is never mutated and can be edited meanwhile.
What is mutated, and which tests run against each mutant, is ``bench/mutation_tests.toml``: the
verdict code (``oracles/``, ``runtime/``, root causes, baseline status, signatures, reduce's
predicates, the isolation's outcome mapping), each module with the tests that drive it. One
cosmic-ray session runs per test selection. Each mutant runs its module's selection under
``nice -n 15``, single-process; a mutant is *killed* when that selection fails or times out,
*survived* when it passes.

Prints killed / survived / timeout / incompetent per module, the overall killed ratio and, from
the seconds each mutant took, an estimate of a full run; writes every survivor to
``--survivors`` (tab-separated: module, line, operator, occurrence, before, after, reason). The
reason comes from ``bench/mutation_equivalent.toml`` for survivors known to be equivalent (same
behaviour for every input; matched on the changed line's text, so an entry stops matching, and
``tests/test_bench_scripts.py`` fails, once its line changes); empty means the suite is too weak
there. Equivalent survivors are left out of the killed ratio. A mutant inside an annotation of a
module with ``from __future__ import annotations`` (never evaluated) is equivalent and not run:
column ``annotation``.

Not part of CI: mutation testing is CPU-heavy (one test selection run per mutant). Examples::

    python bench/mutation_score.py --sample 40 --seed 0          # sampled, minutes
    python bench/mutation_score.py                               # every mutant (hours)
    python bench/mutation_score.py --paths passcheck/runtime/feeds.py --tests tests/runtime
    python bench/mutation_score.py --rerun bench/mutation_survivors.txt  # after adding tests

``--rerun`` runs only the survivors of an earlier run (tests only added: killed stays killed).

Exit code: 0 when the killed ratio (equivalent survivors excluded) reaches ``--target``,
1 below it, 2 on a usage or tool error.
"""

from __future__ import annotations

import argparse
import json
import random
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

try:
    import tomllib
except ImportError:  # Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
import mutation_map  # noqa: E402 - bench/ is no package

DEFAULT_DESELECT = "not MaxPool2d_stride_padding_dilation and not MaxPool1d_stride and not graph_order_driver"


def _args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--paths", nargs="+", help="files or folders to mutate (default: every path of --map)")
    p.add_argument("--tests", nargs="+", help="pytest targets run per mutant (default: the module's, from --map)")
    p.add_argument("--map", type=Path, default=mutation_map.MAP, help="modules and their tests (TOML)")
    p.add_argument("-k", dest="keyword", default=DEFAULT_DESELECT, help="pytest -k expression ('' for none)")
    p.add_argument(
        "--sample",
        "--max-mutants",
        dest="sample",
        type=int,
        default=0,
        help="run a seeded sample of this many (0: all)",
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the sample")
    p.add_argument("--timeout", type=float, default=300.0, help="seconds per mutant before it counts as killed")
    p.add_argument("--target", type=float, default=0.95, help="killed ratio to reach")
    p.add_argument(
        "--survivors",
        type=Path,
        default=ROOT / "bench" / "mutation_survivors.txt",
        help="where to write the survivors (TSV)",
    )
    p.add_argument(
        "--equivalent",
        type=Path,
        default=ROOT / "bench" / "mutation_equivalent.toml",
        help="known-equivalent survivors with reasons",
    )
    p.add_argument(
        "--rerun",
        type=Path,
        help="run only the survivors listed in this survivors file of an earlier run "
        "(matched by module, operator, occurrence: the mutated sources must be unchanged; "
        "killed mutants stay killed when tests are only added)",
    )
    p.add_argument("--keep", action="store_true", help="keep the temporary copy and session database")
    return p.parse_args(argv)


def _copy_tree(dest: Path) -> None:
    """Copy the tracked and untracked-but-not-ignored files of the checkout into ``dest``."""
    listed = (
        subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=ROOT,
            check=True,
            capture_output=True,
        )
        .stdout.decode()
        .split("\0")
    )
    for rel in filter(None, listed):
        src = ROOT / rel
        if src.is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / rel)


def _config(tests: list[str], keyword: str, paths: list[str], timeout: float) -> str:
    """cosmic-ray session config (TOML; JSON strings and arrays are valid TOML values)."""
    # `python -m pytest` puts the copy first on sys.path, ahead of the editable install's finder.
    # Single-process (-n 0: the default addopts use xdist), without the tests that build uv environments.
    pytest = ["-m", "pytest", "-x", "-q", "-n", "0", "-p", "no:cacheprovider", "-W", "ignore", "-m", "not matrix"]
    cmd = ["nice", "-n", "15", sys.executable, *pytest, *tests]
    if keyword:
        cmd += ["-k", keyword]
    return (
        "[cosmic-ray]\n"
        f"module-path = {json.dumps(paths)}\n"
        f"timeout = {timeout}\n"
        "excluded-modules = []\n"
        f"test-command = {json.dumps(shlex.join(cmd))}\n"
        "[cosmic-ray.distributor]\n"
        'name = "local"\n'
    )


def _cosmic_ray(*args: str, cwd: Path) -> None:
    subprocess.run([sys.executable, "-m", "cosmic_ray.cli", *args], cwd=cwd, check=True)


def _select(
    sessions: list[Path], scopes: dict[str, set[int] | None], size: int, seed: int, rerun: set | None = None
) -> tuple[Counter, Counter]:
    """Mark as skipped every mutant of ``sessions`` outside its module's scope (``scopes``: module →
    lines, None for all) or inside an annotation never evaluated (:func:`mutation_map.annotation_spans`:
    equivalent, not run), then outside a seeded sample of ``size`` of the rest over all sessions (or
    outside ``rerun``, keys (module, operator, occurrence)). Returns (the mutants to judge per session
    index, the annotation-only mutants per module)."""
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import WorkerOutcome, WorkResult

    spans = {m: mutation_map.annotation_spans((ROOT / m).read_text()) for m in scopes}
    items: list[tuple[int, str, tuple]] = []  # (session index, job id, key)
    annotation: Counter = Counter()
    for i, session in enumerate(sessions):
        with use_db(str(session), WorkDB.Mode.open) as db:
            for item in sorted(db.work_items, key=lambda item: item.job_id):
                spec = item.mutations[0]
                module = str(spec.module_path)
                lines = scopes.get(module)
                if lines is not None and spec.start_pos[0] not in lines:
                    continue
                if mutation_map.in_annotation(spans.get(module, []), spec.start_pos, spec.end_pos):
                    annotation[module] += 1
                else:
                    items.append((i, item.job_id, _key(spec)))
    in_scope = Counter(i for i, _, _ in items)
    keep = {(i, job) for i, job, _ in items}
    if rerun is not None:
        keep = {(i, job) for i, job, key in items if key in rerun}
    elif size and size < len(items):
        keep = {(i, job) for i, job, _ in random.Random(seed).sample(items, size)}
    for i, session in enumerate(sessions):
        with use_db(str(session), WorkDB.Mode.open) as db:
            skip = [item.job_id for item in db.work_items if (i, item.job_id) not in keep]
            db.set_multiple_results(skip, WorkResult(worker_outcome=WorkerOutcome.SKIPPED))
    return in_scope, annotation


def _key(spec) -> tuple[str, str, int]:
    """(module, operator, occurrence): one mutant, as long as the module's source is unchanged."""
    return str(spec.module_path), spec.operator_name, int(spec.occurrence)


def _rerun_keys(path: Path) -> set[tuple[str, str, int]]:
    lines = path.read_text().splitlines()
    cols = lines[0].split("\t")
    rows = [dict(zip(cols, line.split("\t"))) for line in lines[1:] if line]
    return {(r["module"], r["operator"], int(r["occurrence"])) for r in rows}


def _changed_lines(diff: str) -> tuple[str, str]:
    before = " ".join(s[1:].strip() for s in diff.splitlines() if s.startswith("-") and not s.startswith("---"))
    after = " ".join(s[1:].strip() for s in diff.splitlines() if s.startswith("+") and not s.startswith("+++"))
    return before, after


def _context(diff: str) -> str:
    """The (stripped) unchanged line just above the changed one: tells apart equal one-line
    changes such as ``return True`` → ``return False`` at different places of a module."""
    lines = diff.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("-") and not line.startswith("---"):
            above = [x for x in lines[:i] if x.startswith(" ")]
            return above[-1][1:].strip() if above else ""
    return ""


def _equivalent(path: Path) -> dict[tuple[str, str, str, str], list[tuple[str | None, str]]]:
    """(module, operator, before, after) → [(context or None, reason)], from the ``[[equivalent]]``
    tables of ``path``; an entry with ``context`` only matches below that line (see :func:`_context`)."""
    if not path.exists():
        return {}
    out: dict = defaultdict(list)
    for e in tomllib.loads(path.read_text()).get("equivalent", []):
        out[(e["module"], e["operator"], e["before"], e["after"])].append((e.get("context"), e["reason"]))
    return out


def _reason(equivalent: dict, key: tuple[str, str, str, str], diff: str) -> str:
    return next((why for ctx, why in equivalent.get(key, ()) if ctx is None or ctx == _context(diff)), "")


def _results(session: Path, equivalent: dict) -> tuple[dict[str, Counter], list[tuple]]:
    """Counts per module and survivors of one session."""
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import TestOutcome, WorkerOutcome

    per_module: dict[str, Counter] = defaultdict(Counter)
    survivors = []
    with use_db(str(session), WorkDB.Mode.open) as db:
        for item, result in db.completed_work_items:
            if result.worker_outcome == WorkerOutcome.SKIPPED:
                continue
            spec = item.mutations[0]
            module = str(spec.module_path)
            if result.test_outcome == TestOutcome.SURVIVED:
                before, after = _changed_lines(result.diff or "")
                reason = _reason(equivalent, (module, spec.operator_name, before, after), result.diff or "")
                per_module[module]["equivalent" if reason else "survived"] += 1
                survivors.append(
                    (module, spec.start_pos[0], spec.operator_name, spec.occurrence, before, after, reason)
                )
            elif result.test_outcome == TestOutcome.KILLED:
                per_module[module]["timeout" if result.output == "timeout" else "killed"] += 1
            else:
                per_module[module]["incompetent"] += 1
    return per_module, sorted(survivors)


def _groups(args: argparse.Namespace) -> tuple[dict[tuple[str, ...], list[str]], dict[str, set[int] | None]]:
    """(test selection → the modules run against it; module → the lines whose mutants count).

    Raises:
        ValueError: a module the map gives no tests for (and no ``--tests``), or a bad map.
    """
    entries = mutation_map.load(args.map)
    groups: dict[tuple[str, ...], list[str]] = defaultdict(list)
    scopes: dict[str, set[int] | None] = {}
    for module in mutation_map.files(args.paths or [e.path for e in entries]):
        entry = mutation_map.entry_for(module, entries)
        if entry is None and not args.tests:
            raise ValueError(f"{module}: no tests for it in {args.map}; add it there or pass --tests")
        groups[tuple(args.tests) if args.tests else entry.tests].append(module)
        only = entry.only if entry is not None and entry.path == module else ()
        scopes[module] = mutation_map.scope_lines((ROOT / module).read_text(), only)
    return groups, scopes


def _exec(sessions: list[Path], work: Path) -> list[float]:
    """Run every session; the seconds each took."""
    took = []
    for i, session in enumerate(sessions):
        started = time.monotonic()
        _cosmic_ray("exec", f"cosmic-ray-{i}.toml", str(session), cwd=work)
        took.append(time.monotonic() - started)
    return took


def _ran(session: Path) -> int:
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import WorkerOutcome

    with use_db(str(session), WorkDB.Mode.open) as db:
        return sum(r.worker_outcome != WorkerOutcome.SKIPPED for _, r in db.completed_work_items)


def _estimate(took: list[float], ran: list[int], in_scope: Counter) -> float:
    """Seconds a full run would take: each selection's seconds per mutant (the sample's mean where
    a selection ran none) times its mutants."""
    mean = sum(took) / max(1, sum(ran))
    return sum((took[i] / ran[i] if ran[i] else mean) * in_scope[i] for i in range(len(took)))


def main(argv: list[str] | None = None) -> int:
    args = _args(argv)
    try:
        import cosmic_ray  # noqa: F401
    except ImportError:
        print("mutation_score: cosmic-ray is not installed; pip install -e '.[bench]'", file=sys.stderr)
        return 2
    try:
        groups, scopes = _groups(args)
    except (OSError, ValueError) as exc:
        print(f"mutation_score: {exc}", file=sys.stderr)
        return 2
    started = time.monotonic()
    work = Path(tempfile.mkdtemp(prefix="passcheck-mutation-"))
    try:
        _copy_tree(work)
        sessions = []
        for i, (tests, modules) in enumerate(groups.items()):
            (work / f"cosmic-ray-{i}.toml").write_text(_config(list(tests), args.keyword, modules, args.timeout))
            sessions.append(work / f"session-{i}.sqlite")
            _cosmic_ray("init", f"cosmic-ray-{i}.toml", str(sessions[-1]), cwd=work)
        in_scope, annotation = _select(
            sessions, scopes, args.sample, args.seed, _rerun_keys(args.rerun) if args.rerun else None
        )
        total = sum(in_scope.values())
        took = _exec(sessions, work)
        ran = [_ran(s) for s in sessions]
        per_module: dict[str, Counter] = defaultdict(Counter)
        survivors: list[tuple] = []
        equivalent = _equivalent(args.equivalent)
        for session in sessions:
            counts, found = _results(session, equivalent)
            for module, c in counts.items():
                per_module[module].update(c)
            survivors += found
        survivors.sort()
    except subprocess.CalledProcessError as exc:
        print(f"mutation_score: {' '.join(map(str, exc.cmd[:4]))} exited {exc.returncode}", file=sys.stderr)
        return 2
    finally:
        if args.keep:
            print(f"session kept in {work}", file=sys.stderr)
        else:
            shutil.rmtree(work, ignore_errors=True)

    for module, n in annotation.items():
        per_module[module]["annotation"] += n
    cols = ["killed", "timeout", "survived", "equivalent", "incompetent", "annotation"]
    print(f"{'module':45} " + " ".join(f"{c:>11}" for c in cols))
    overall = Counter()
    for module in sorted(per_module):
        overall.update(per_module[module])
        print(f"{module:45} " + " ".join(f"{per_module[module][c]:>11}" for c in cols))
    print(f"{'total':45} " + " ".join(f"{overall[c]:>11}" for c in cols))
    killed = overall["killed"] + overall["timeout"]
    judged = killed + overall["survived"]
    ratio = killed / judged if judged else 0.0
    scope = f"survivors of {args.rerun}" if args.rerun else f"sample {args.sample or 'all'}, seed {args.seed}"
    ran_here = sum(overall.values()) - overall["annotation"]
    print(
        f"mutants: {total} to judge, {ran_here} run ({scope}); {overall['annotation']} more change only an"
        " annotation never evaluated (equivalent, column 'annotation', not run)"
    )
    print(f"killed ratio: {killed}/{judged} = {ratio:.1%} (equivalent survivors excluded; target {args.target:.0%})")
    print(f"time: {time.monotonic() - started:.0f} s; {sum(took) / max(1, sum(ran)):.1f} s per mutant")
    print(f"full run estimate: {_estimate(took, ran, in_scope) / 3600:.1f} h for {total} mutants (one at a time)")
    args.survivors.parent.mkdir(parents=True, exist_ok=True)
    with args.survivors.open("w") as fh:
        fh.write("module\tline\toperator\toccurrence\tbefore\tafter\treason\n")
        for row in survivors:
            fh.write("\t".join(map(str, row)) + "\n")
    print(f"survivors: {len(survivors)} written to {args.survivors}")
    return 0 if ratio >= args.target else 1


if __name__ == "__main__":
    sys.exit(main())
