"""Mutation score of the test suite over passcheck's verdict code (issues 11 and 29).

Mutants come from cosmic-ray's operators (install it and coverage with ``pip install -e '.[bench]'``;
this script installs nothing), cut to a selective set (``bench/mutation_select.py``, each choice
with its source: Offutt et al. 1996's sufficient operators, Kaminski, Ammann and Offutt's three
subsuming replacements per relational operator, a number replaced once per site); the count
before and after is printed. What is mutated, and the tests that may run against its mutants, is
``bench/mutation_tests.toml``: the verdict code (``oracles/``, ``runtime/``, root causes, baseline
status, signatures, reduce's predicates, the isolation's outcome mapping), each module with the
tests that drive it.

Per mutant, only the tests that run its statement (a line → tests map from one coverage run of
the mapped tests with a context per test, isolation workers included, cached on the hash of the
sources and tests: ``bench/mutation_contexts.py``), fastest first, stopping at the first failure;
a statement only import time runs gets its module's whole selection; a statement no test runs is
a survivor without a run (outcome ``uncovered``, "no covering test"). ``--workers`` mutants run at
once, each in a tree copy of its own, under ``nice -n 15``, each pytest forked from a warm server of
its tree that imported the third-party packages once (``bench/mutation_warm.py``; ``--cold``: a fresh
``python -m pytest`` each); Ctrl-C or SIGTERM kills every test
command with all it started (``bench/mutation_run.py``). A mutant is *killed* when its tests fail
(or its module no longer imports) or time out (past ``--timeout``, or ``--timeout-factor`` × the
seconds its tests took in the map's coverage run when longer), *survived* when they pass.

Prints the counts per module, the killed ratio and an estimate of a full run (the measured seconds
per mutant × the mutants of the selective set / workers); appends every judged mutant to
``--results`` as a JSON line (``--summarize FILE`` prints the table of such a file, of a run under
way or stopped: the newest row of each mutant among those judged on its module's current content, the
others stale, listed in ``--stale-list`` with the command that judges only them; with ``--report``,
into the markdown file too, with each module's mutants that have no such row); writes every survivor
to ``--survivors`` (tab-separated: module, line, operator, occurrence, before, after, reason,
outcome). The reason comes from ``bench/mutation_equivalent.toml`` for survivors known to be
equivalent (same behaviour for every input; matched on the changed line's
text, so an entry stops matching, and ``tests/test_bench_scripts.py`` fails, once its line
changes); empty means the suite is too weak there. Equivalent survivors are left out of the killed
ratio. A mutant inside an annotation of a module with ``from __future__ import annotations`` (never
evaluated) is equivalent and not run: column ``annotation``.

Not part of CI: mutation testing is CPU-heavy. Examples::

    python bench/mutation_score.py --sample 40 --seed 0          # sampled, minutes
    nohup nice -n 15 python bench/mutation_score.py &            # every mutant without a current result
    python bench/mutation_score.py --dry --report                # docs/mutation-score.md from the results
    python bench/mutation_score.py --summarize bench/results/mutation.jsonl --report  # the same, no map built
    python bench/mutation_score.py --paths passcheck/runtime/feeds.py --tests tests/runtime
    python bench/mutation_score.py --rerun bench/mutation_survivors.txt  # after adding tests

``--rerun`` runs only the survivors of an earlier run (tests only added: killed stays killed).
``--stale`` judges only the mutants that have rows but none under their current key (after a merge that
changed their modules): every run prints how many there are, per module, and lists them.

Results accumulate across sessions and trees: ``--results`` (default the committed
``bench/results/mutation.jsonl``) gets a small row per judged mutant, keyed by
``bench/mutation_results.py``'s ``result_key`` (the mutated module's content, operator and occurrence,
the content of the test files selected for it, the tool versions), and a run judges only the mutants
without a row under their current key; the others are reused and counted as before. Rewrites added under
``passcheck/mutations/`` or edits of other modules and tests leave a result valid; an edit of its module,
of one of its test files or an upgrade of a tool judges it again. A mutant interrupted by Ctrl-C or
SIGTERM gets no row, so it runs again. ``--dry`` judges nothing; ``--report`` writes the table, the
survivors with their reasons and the run's figures (date, commit, wall, results reused and run now) into
``docs/mutation-score.md`` (``bench/mutation_report.py``). Each row names the test that killed the mutant
(``bench/mutation_killer.py``); a mutant's tests run those that killed mutants of its line first, then
those of its module, then the rest fastest first. Mutants run cheapest first (their tests' seconds in the
map), so a session cut short leaves the costly ones (import-time statements, which run their module's whole
selection) for later; the estimate of what is left is the map seconds of the mutants left × the ratio of
seconds taken to map seconds over the results counted.

Exit code: 0 when the killed ratio (equivalent survivors excluded) reaches ``--target``,
1 below it, 2 on a usage or tool error, 130 when interrupted.
"""

import argparse
import dataclasses
import json
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
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
import mutation_report  # noqa: E402
import mutation_results  # noqa: E402
import mutation_run  # noqa: E402
import mutation_select  # noqa: E402

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
    p.add_argument(
        "--timeout",
        type=float,
        default=300.0,
        help="seconds per mutant before it counts as killed, at least (see --timeout-factor)",
    )
    p.add_argument(
        "--timeout-factor",
        type=float,
        default=3.0,
        help="a mutant's tests may also run this many times their seconds in the map's coverage run",
    )
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
    p.add_argument("--workers", type=int, default=2, help="mutants judged at once, one tree copy each")
    p.add_argument("--all-operators", action="store_true", help="every cosmic-ray operator, not the selective set")
    p.add_argument(
        "--cold",
        action="store_true",
        help="start a fresh python -m pytest per mutant, not a fork of a warm server (bench/mutation_warm.py)",
    )
    p.add_argument("--no-map", action="store_true", help="run each mutant's module selection, not its covering tests")
    p.add_argument(
        "--results",
        type=Path,
        default=mutation_results.RESULTS,
        help="append every judged mutant here (JSON lines) and reuse the rows whose key is unchanged "
        "(default: the committed bench/results/mutation.jsonl)",
    )
    p.add_argument("--dry", action="store_true", help="judge nothing: the table of the reusable results only")
    p.add_argument(
        "--report",
        "--markdown",
        nargs="?",
        type=Path,
        const=ROOT / "docs" / "mutation-score.md",
        help="write the table, survivors and run figures into this markdown file (default docs/mutation-score.md)",
    )
    p.add_argument(
        "--summarize",
        type=Path,
        help="print the table of a --results file, the newest row of each mutant, and exit (no run; "
        "with --report, write it to the markdown file too)",
    )
    p.add_argument(
        "--stale",
        action="store_true",
        help="judge only the mutants that have rows but none under their current key (their module, tests "
        "or tools changed since)",
    )
    p.add_argument(
        "--stale-list",
        type=Path,
        default=ROOT / "bench" / "mutation_stale.txt",
        help="where to list the mutants whose rows are all stale (TSV)",
    )
    p.add_argument("--keep", action="store_true", help="keep the temporary tree copies")
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


def _key(spec) -> tuple[str, str, int]:
    """(module, operator, occurrence): one mutant, as long as the module's source is unchanged."""
    return str(spec.module_path), spec.operator_name, int(spec.occurrence)


def _rerun_keys(path: Path) -> set[tuple[str, str, int]]:
    lines = path.read_text().splitlines()
    cols = lines[0].split("\t")
    rows = [dict(zip(cols, line.split("\t"))) for line in lines[1:] if line]
    return {(r["module"], r["operator"], int(r["occurrence"])) for r in rows}


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
    return _reason_at(equivalent, key, _context(diff))


def _reason_at(equivalent: dict, key: tuple[str, str, str, str], context: str) -> str:
    """The reason ``key`` (module, operator, before, after) is equivalent below line ``context``, or ""."""
    return next((why for ctx, why in equivalent.get(key, ()) if ctx is None or ctx == context), "")


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


def _enumerate(groups: dict, scopes: dict) -> tuple[list, Counter, int]:
    """cosmic-ray's mutants of every module (in scope), as (spec, the module's tests); the
    annotation-only mutants per module; and how many mutants all of cosmic-ray's operators give."""
    from cosmic_ray.commands.init import _all_work_items

    tests_of = {m: tests for tests, modules in groups.items() for m in modules}
    found, annotation, every = [], Counter(), 0
    for module in sorted(tests_of):
        spans = mutation_map.annotation_spans((ROOT / module).read_text())
        lines = scopes.get(module)
        for item in _all_work_items([Path(module)], {}):
            spec = item.mutations[0]
            if lines is not None and spec.start_pos[0] not in lines:
                continue
            if mutation_map.in_annotation(spans, spec.start_pos, spec.end_pos):
                annotation[module] += 1
                continue
            every += 1
            found.append((spec, tests_of[module]))
    return found, annotation, every


def _within(test: str, targets: tuple[str, ...]) -> bool:
    """Whether node id ``test`` lies under one of the pytest ``targets`` (files or folders)."""
    path = test.split("::")[0]
    return any(path == t.split("::")[0] or path.startswith(t.rstrip("/") + "/") for t in targets)


def _mutants(chosen: list, selector, keyword: str) -> list[mutation_run.Mutant]:
    """One :class:`mutation_run.Mutant` per chosen (spec, module tests): the covering tests of its
    line within the module's targets, fastest first (see :class:`mutation_select.Selector`)."""
    out = []
    for spec, targets in chosen:
        module, line = str(spec.module_path), spec.start_pos[0]
        covering = selector.tests(module, line) if selector is not None else None
        m = mutation_run.Mutant(module, line, spec.operator_name, int(spec.occurrence), list(targets), keyword)
        if covering is not None:
            # the covering tests the map gives the module; those of other folders when only they run it
            m.tests, m.keyword = [t for t in covering if _within(t, targets)] or covering, ""
            if not m.tests:
                m.note = "no covering test"
            m.budget = sum(selector.seconds.get(t, 0.0) for t in m.tests)
        elif selector is not None:  # the module's whole selection (an import-time statement)
            m.budget = sum(s for t, s in selector.seconds.items() if _within(t, targets))
        out.append(m)
    return out


def _summary(results: list[dict], annotation: Counter, equivalent: dict) -> tuple[dict[str, Counter], list[tuple]]:
    per_module: dict[str, Counter] = defaultdict(Counter)
    survivors = []
    for r in results:
        outcome = r["outcome"]
        if outcome in ("survived", "uncovered"):
            key = (r["module"], r["operator"], r.get("before", ""), r.get("after", ""))
            reason = _reason_at(equivalent, key, r.get("context", ""))
            outcome = "equivalent" if reason else outcome
            row = (r["module"], r["line"], r["operator"], r["occurrence"], r["before"], r["after"], reason)
            survivors.append((*row, "no covering test" if r["outcome"] == "uncovered" else "tests passed"))
        per_module[r["module"]][outcome] += 1
    for module, n in annotation.items():
        per_module[module]["annotation"] += n
    return per_module, sorted(survivors)


def _report(per_module: dict[str, Counter], args: argparse.Namespace) -> float:
    cols = list(mutation_report.COLUMNS)
    print(f"{'module':42} " + " ".join(f"{c:>10}" for c in cols))
    overall: Counter = Counter()
    for module in sorted(per_module):
        overall.update(per_module[module])
        print(f"{module:42} " + " ".join(f"{per_module[module][c]:>10}" for c in cols))
    print(f"{'total':42} " + " ".join(f"{overall[c]:>10}" for c in cols))
    killed = overall["killed"] + overall["timeout"]
    judged = killed + overall["survived"] + overall["uncovered"]
    ratio = killed / judged if judged else 0.0
    print(
        f"killed ratio: {killed}/{judged} = {ratio:.1%} (survivors with no covering test count as survived; "
        f"equivalent survivors excluded; target {args.target:.0%})"
    )
    return ratio


def _write_survivors(path: Path, survivors: list[tuple]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w") as fh:
        fh.write("module\tline\toperator\toccurrence\tbefore\tafter\treason\toutcome\n")
        for row in survivors:
            fh.write("\t".join(map(str, row)) + "\n")
    print(f"survivors: {len(survivors)} written to {path}")


def _write_outputs(
    args: argparse.Namespace, per_module: dict, survivors: list[tuple], results: list[dict], ratio: float, **figures
) -> None:
    """The survivors file; with ``--report``, the markdown part of ``args.report`` (``bench/mutation_report.py``;
    ``figures``: the :class:`mutation_report.Figures` fields that depend on the run, the rest from ``results``)."""
    _write_survivors(args.survivors, survivors)
    if not args.report:
        return
    mutation_report.write(
        args.report,
        per_module,
        survivors,
        mutation_report.Figures(
            commit=mutation_results.commit(ROOT),
            date=time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            judged=len(results),
            worker_seconds=sum(r["seconds"] for r in results),
            tools=mutation_results.tools(),
            runs=Counter(r.get("run", "?") for r in results),
            ratio=ratio,
            **figures,
        ),
    )
    print(f"report written to {args.report}")


def _print_stale(
    args: argparse.Namespace,
    stale: list[dict],
    unjudged: list[dict] = (),
    why: str = "on other content of their module",
) -> None:
    """Say how many mutants have only stale rows, per module; write them, and the ``unjudged`` ones (no row
    at all), to ``--stale-list`` (TSV: module, line, operator, occurrence, run; a file ``--rerun`` reads)
    and print the one command that judges exactly those."""
    per_module = Counter(r["module"] for r in stale)
    print(
        f"stale: {len(stale)} mutants whose newest row was judged {why}"
        + "".join(f"\n  {m}: {n}" for m, n in sorted(per_module.items()))
    )
    listed = sorted(
        [*stale, *unjudged], key=lambda r: (r["module"], int(r["line"]), r["operator"], int(r["occurrence"]))
    )
    args.stale_list.parent.mkdir(parents=True, exist_ok=True)
    with args.stale_list.open("w") as fh:
        fh.write("module\tline\toperator\toccurrence\trun\n")
        for r in listed:
            fh.write(f"{r['module']}\t{r['line']}\t{r['operator']}\t{r['occurrence']}\t{r.get('run', '-')}\n")
    if listed:
        more = f" and the {len(unjudged)} without a row" if unjudged else ""
        command = f"python bench/mutation_score.py --rerun {args.stale_list}"
        print(f"  listed{more} in {args.stale_list}; judge only them: {command}")


def _summarize_only(args: argparse.Namespace, argv: list[str]) -> int:
    """``--summarize FILE``: the table of the newest row of each mutant (module, operator, occurrence) in a
    results file, whatever its key (rows of keys no longer current included: ``--dry`` tells them apart),
    no run. With ``--report``, also the markdown part (``bench/mutation_report.py``) with a ``no result``
    column: the selective set's mutants of each module (``--paths``, default the map's) without a row, which
    needs cosmic-ray to enumerate them."""
    rows = mutation_results.load(args.summarize)
    current, old = mutation_results.split_stale(rows, ROOT)
    newest = mutation_results.by_mutant(current)
    stale = {k: r for k, r in mutation_results.by_mutant(old).items() if k not in newest}
    results = list(newest.values())
    annotation: Counter = Counter()
    missing: Counter = Counter()
    unjudged: list[dict] = []
    total = 0
    if args.report:
        try:
            import cosmic_ray  # noqa: F401

            groups, scopes = _groups(args)
        except ImportError:
            print("mutation_score: --report needs cosmic-ray; pip install -e '.[bench]'", file=sys.stderr)
            return 2
        except (OSError, ValueError, KeyError) as exc:
            print(f"mutation_score: {exc}", file=sys.stderr)
            return 2
        found, annotation, _ = _enumerate(groups, scopes)
        kept = mutation_select.selective([s for s, _ in found])
        total = len(kept)
        absent = [s for s in kept if _key(s) not in newest]
        missing = Counter(str(s.module_path) for s in absent)
        unjudged = [
            {"module": m, "line": s.start_pos[0], "operator": o, "occurrence": n}
            for s in absent
            if (k := _key(s)) not in stale
            for m, o, n in [k]
        ]
        modules = {str(s.module_path) for s, _ in found} | set(annotation)
        results = [r for r in results if r["module"] in modules]
        stale = {k: r for k, r in stale.items() if r["module"] in modules}
    per_module, survivors = _summary(results, annotation, _equivalent(args.equivalent))
    for module, n in missing.items():
        per_module[module]["no result"] += n
    ratio = _report(per_module, args)
    took = sum(r["seconds"] for r in results)
    print(
        f"{len(results)} mutants with a row judged on their module's current content ({len(rows)} rows, the "
        f"newest such row of each mutant counted); {took / max(1, len(results)):.1f} s per mutant (one worker's time)"
    )
    _print_stale(args, list(stale.values()), unjudged)
    if args.report:
        print(f"{sum(missing.values())} of {total} mutants of the selective set have no row")
    outputs = (args, per_module, survivors, results, ratio)
    _write_outputs(
        *outputs,
        scope=f"newest row per mutant of {args.summarize.as_posix()}",
        total=total,
        reused=len(results),
        run_now=0,
        remaining=sum(missing.values()),
        wall=0.0,
        command="python bench/mutation_score.py " + " ".join(argv),
        stale=len(stale),
    )
    return 0 if ratio >= args.target else 1


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = _args(argv)
    if args.summarize:
        return _summarize_only(args, argv)
    try:
        import cosmic_ray  # noqa: F401
        import coverage  # noqa: F401
    except ImportError:
        print("mutation_score: cosmic-ray and coverage are needed; pip install -e '.[bench]'", file=sys.stderr)
        return 2
    try:
        groups, scopes = _groups(args)
        rerun = _rerun_keys(args.rerun) if args.rerun else None
    except (OSError, ValueError, KeyError) as exc:
        print(f"mutation_score: {exc}", file=sys.stderr)
        return 2
    started = time.monotonic()
    found, annotation, every = _enumerate(groups, scopes)
    selected = {id(s) for s in mutation_select.selective([s for s, _ in found])}
    kept = found if args.all_operators else [(s, t) for s, t in found if id(s) in selected]
    print(
        f"mutants: {every} from all of cosmic-ray's operators, {len(kept)} from the selective set"
        f"{' (not applied: --all-operators)' if args.all_operators else ''}; {sum(annotation.values())} more change"
        " only an annotation never evaluated (equivalent, column 'annotation', not run)"
    )
    chosen = kept
    if rerun is not None:
        chosen = [(s, t) for s, t in found if _key(s) in rerun]
    elif args.sample and args.sample < len(kept):
        chosen = random.Random(args.seed).sample(kept, args.sample)
    work = Path(tempfile.mkdtemp(prefix="passcheck-mutation-"))
    from passcheck._procs import Children

    children = Children()  # the map's coverage run: killed with all it started on Ctrl-C / SIGTERM
    previous = signal.signal(signal.SIGTERM, mutation_run.raise_interrupt)
    rows = mutation_results.load(args.results)
    known = mutation_results.by_key(rows)
    results: list[dict] = []
    try:
        selector = None
        if not args.tests and not args.no_map:
            targets, modules = mutation_select.map_inputs(mutation_map.load(args.map))
            (work / "map").mkdir()
            _copy_tree(work / "map")
            pytest_args = ["-q", "-n", "0", "-p", "no:cacheprovider", "-W", "ignore", "-m", "not matrix"]
            found_map, how = mutation_select.load_or_build(
                work / "map", targets, pytest_args + (["-k", args.keyword] if args.keyword else []), modules, children
            )
            print(f"line → tests map: {how} ({len(found_map['tests'])} tests)")
            selector = mutation_select.Selector(found_map)
        every_mutant = _keyed(_mutants(kept, selector, args.keyword))
        in_full = {m.key: m for m in every_mutant}
        pending_full = [m for m in every_mutant if m.result_key not in known]
        judged = mutation_results.by_mutant(rows)
        stale = {m.key for m in pending_full if m.key in judged}  # rows, none under the current key
        mutants = [in_full.get(_key(s)) for s, _ in chosen]
        if any(m is None for m in mutants):  # --rerun of a mutant outside the selective set
            mutants = _keyed(_mutants(chosen, selector, args.keyword))
        if args.stale:
            mutants = [m for m in mutants if m.key in stale]
        _print_stale(args, [judged[k] for k in stale], why="under another key (module, test files or tools)")
        results = [known[m.result_key] for m in mutants if m.result_key in known]
        # cheapest first (the seconds its tests took in the map): a session's time gives the most results
        todo = [] if args.dry else sorted((m for m in mutants if m.result_key not in known), key=lambda m: m.budget)
        print(
            f"results: {len(results)} of {len(mutants)} reused from {args.results} (key unchanged), "
            f"{len(todo)} to judge{' (not judged: --dry)' if args.dry else ''}"
        )
        reused = len(results)
        order = _order(rows)
        runner = mutation_run.Runner(
            ROOT, work, args.workers, args.timeout, _copy_tree, args.timeout_factor, warm=not args.cold, order=order
        )
        lock = threading.Lock()
        if todo:
            args.results.parent.mkdir(parents=True, exist_ok=True)
        out = args.results.open("a") if todo else None
        run = f"{time.strftime('%Y-%m-%d', time.gmtime())} {mutation_results.commit(ROOT)}"
        hasher = mutation_results.Hasher(ROOT)

        def done(m: mutation_run.Mutant) -> None:
            row = dataclasses.asdict(m) | {"key": m.result_key, "tests": len(m.tests), "run": run}
            row["module_sha"] = hasher.file(m.module)
            row = mutation_results.small(row)
            with lock:
                results.append(row)
                order.learn(row)
                out.write(json.dumps(row) + "\n")
                out.flush()

        try:
            if todo:
                runner.run(todo, done)
        finally:
            if out is not None:
                out.close()
    except KeyboardInterrupt:
        children.stop()
        print("mutation_score: interrupted; every test command was killed", file=sys.stderr)
        return 130
    except subprocess.CalledProcessError as exc:
        print(f"mutation_score: {' '.join(map(str, exc.cmd[:4]))} exited {exc.returncode}", file=sys.stderr)
        return 2
    finally:
        signal.signal(signal.SIGTERM, previous)
        if args.keep:
            print(f"work folder kept in {work}", file=sys.stderr)
        else:
            shutil.rmtree(work, ignore_errors=True)

    per_module, survivors = _summary(results, annotation, _equivalent(args.equivalent))
    judged_now = {r["key"] for r in results[reused:]}
    for m in pending_full:
        if m.result_key not in judged_now:
            per_module[m.module]["no result"] += 1
    ratio = _report(per_module, args)
    scope = f"survivors of {args.rerun}" if args.rerun else f"sample {args.sample or 'all'}, seed {args.seed}"
    wall = time.monotonic() - started
    now = results[reused:]
    mean = sum(r["seconds"] for r in now or results) / max(1, len(now or results))
    judged_now = {r["key"] for r in now}
    left = [m for m in pending_full if m.result_key not in judged_now]
    remaining = len(left)
    # seconds taken per second of map budget (their tests' seconds in the map), over every result counted
    counted = {r["key"]: r["seconds"] for r in results}
    budget_all = sum(m.budget for m in every_mutant if m.result_key in counted)
    per_budget = sum(counted.values()) / budget_all if budget_all else 0.0
    expected = per_budget * sum(m.budget for m in left) if per_budget else mean * remaining
    print(
        f"judged {len(results)} ({scope}): {reused} reused, {len(now)} run now; "
        f"time: {wall:.0f} s; {mean:.1f} s per mutant run now"
    )
    print(
        f"full run: {len(kept) - remaining} of {len(kept)} mutants have a result under their current key; "
        f"{remaining} left, about {expected / args.workers / 3600:.1f} h with {args.workers} workers "
        + (
            f"(their tests' map seconds × {per_budget:.2f}, the ratio of seconds taken to map seconds so far)"
            if per_budget
            else f"({mean:.1f} s per mutant × {remaining})"
        )
    )
    outputs = (args, per_module, survivors, results, ratio)
    _write_outputs(
        *outputs,
        scope=scope,
        total=len(kept),
        reused=reused,
        run_now=len(now),
        remaining=remaining,
        wall=wall,
        stale=len(stale - {m.key for m in mutants if m.result_key in judged_now}),
    )
    return 0 if ratio >= args.target else 1


def _keyed(mutants: list[mutation_run.Mutant]) -> list[mutation_run.Mutant]:
    """``mutants`` with :attr:`result_key` set (:func:`mutation_results.result_key`)."""
    hasher, tool = mutation_results.Hasher(ROOT), mutation_results.tools()
    for m in mutants:
        m.result_key = mutation_results.result_key(hasher, m.module, m.operator, m.occurrence, m.tests, m.keyword, tool)
    return mutants


def _order(rows: list[dict]):
    """The runner's ``order`` hook: a mutant's tests reordered so that those that killed mutants of its
    line run first, then those that killed mutants of its module (most kills first), then the rest in
    the map's order (fastest first). Learns from every row of ``rows`` (any key: order only) and from
    each mutant judged."""
    by_line: dict[tuple[str, int], Counter] = defaultdict(Counter)
    by_module: dict[str, Counter] = defaultdict(Counter)
    lock = threading.Lock()

    def learn(row: dict) -> None:
        if row.get("killer"):
            by_line[(row["module"], int(row["line"]))][row["killer"]] += 1
            by_module[row["module"]][row["killer"]] += 1

    for r in rows:
        learn(r)

    def order(m: mutation_run.Mutant) -> None:
        with lock:
            line, module = by_line[(m.module, m.line)], by_module[m.module]
            rank = {t: i for i, t in enumerate(m.tests)}
            m.tests = sorted(m.tests, key=lambda t: (-line[t], -module[t], rank[t]))

    order.learn = learn
    return order


if __name__ == "__main__":
    sys.exit(main())
