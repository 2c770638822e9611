"""Mutation score of the test suite over passcheck's oracles and runtime (issue 11 item 7).

Runs cosmic-ray (install it with ``pip install -e '.[bench]'``; this script installs nothing)
on a copy of the working tree, so the checkout is never mutated and can be edited meanwhile.
Each mutant runs the ``--tests`` selection under ``nice -n 15``; a mutant is *killed* when that
selection fails or times out, *survived* when it passes.

Prints killed / survived / timeout / incompetent per module and the overall killed ratio, and
writes every survivor to ``--survivors`` (tab-separated: module, line, operator, occurrence,
before, after, reason). The reason comes from ``bench/mutation_equivalent.toml`` for survivors
known to be equivalent (same behaviour for every input), or is found here for a mutant that changes only a
annotation of a module with ``from __future__ import annotations``; empty means the
suite is too weak there. Equivalent survivors are left out of the killed ratio.

Not part of CI: mutation testing is CPU-heavy (one test selection run per mutant). Examples::

    python bench/mutation_score.py --max-mutants 60 --seed 0     # sampled, ~30 s per mutant
    python bench/mutation_score.py                               # every mutant (hours)
    python bench/mutation_score.py --paths passcheck/runtime/feeds.py --tests tests/runtime
    python bench/mutation_score.py --rerun bench/mutation_survivors.txt  # after adding tests

``--rerun`` runs only the survivors of an earlier run (tests only added: killed stays killed).

Exit code: 0 when the killed ratio (equivalent survivors excluded) reaches ``--target``,
1 below it, 2 on a usage or tool error.
"""

from __future__ import annotations

import argparse
import ast
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
DEFAULT_PATHS = ["passcheck/oracles", "passcheck/runtime"]
# The fast tests that exercise oracles and runtime (about 25 s on a loaded 2-core machine).
DEFAULT_TESTS = ["tests/oracles", "tests/runtime", "tests/quality", "tests/engine/test_seed_findings.py", "tests/cases"]
DEFAULT_DESELECT = "not MaxPool2d_stride_padding_dilation and not MaxPool1d_stride and not graph_order_driver"


def _args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--paths", nargs="+", default=DEFAULT_PATHS, help="files or folders to mutate")
    p.add_argument("--tests", nargs="+", default=DEFAULT_TESTS, help="pytest targets run per mutant")
    p.add_argument("-k", dest="keyword", default=DEFAULT_DESELECT, help="pytest -k expression ('' for none)")
    p.add_argument("--max-mutants", type=int, default=0, help="sample this many mutants (0: all)")
    p.add_argument("--seed", type=int, default=0, help="seed of the sample")
    p.add_argument("--timeout", type=float, default=300.0, help="seconds per mutant before it counts as killed")
    p.add_argument("--target", type=float, default=0.90, help="killed ratio to reach")
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
    cmd = [
        "nice",
        "-n",
        "15",
        sys.executable,
        "-m",
        "pytest",
        "-x",
        "-q",
        "-p",
        "no:cacheprovider",
        "-W",
        "ignore",
        *tests,
    ]
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


def _sample(session: Path, size: int, seed: int, rerun: set[tuple[str, str, int]] | None = None) -> int:
    """Mark every mutant outside a seeded sample of ``size`` (or outside ``rerun``, keys
    (module, operator, occurrence)) as skipped; return the total count."""
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import WorkerOutcome, WorkResult

    with use_db(str(session), WorkDB.Mode.open) as db:
        items = sorted(db.work_items, key=lambda item: item.job_id)
        ids = [item.job_id for item in items]
        keep = None
        if rerun is not None:
            keep = {item.job_id for item in items if _key(item.mutations[0]) in rerun}
        elif size and size < len(ids):
            keep = set(random.Random(seed).sample(ids, size))
        if keep is not None:
            db.set_multiple_results([i for i in ids if i not in keep], WorkResult(worker_outcome=WorkerOutcome.SKIPPED))
        return len(ids)


def _key(spec) -> tuple[str, str, int]:
    """(module, operator, occurrence): one mutant, as long as the module's source is unchanged."""
    return str(spec.module_path), spec.operator_name, int(spec.occurrence)


def _rerun_keys(path: Path) -> set[tuple[str, str, int]]:
    lines = path.read_text().splitlines()
    cols = lines[0].split("\t")
    rows = [dict(zip(cols, line.split("\t"))) for line in lines[1:] if line]
    return {(r["module"], r["operator"], int(r["occurrence"])) for r in rows}


def _changed_lines(diff: str) -> tuple[str, str]:
    before = " ".join(l[1:].strip() for l in diff.splitlines() if l.startswith("-") and not l.startswith("---"))
    after = " ".join(l[1:].strip() for l in diff.splitlines() if l.startswith("+") and not l.startswith("+++"))
    return before, after


def _context(diff: str) -> str:
    """The (stripped) unchanged line just above the changed one: tells apart equal one-line
    changes such as ``return True`` → ``return False`` at different places of a module."""
    lines = diff.splitlines()
    for i, l in enumerate(lines):
        if l.startswith("-") and not l.startswith("---"):
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


#: Reason given to survivors found equivalent by :func:`_annotation_only`.
ANNOTATION_ONLY = "changes only an annotation, never evaluated (from __future__ import annotations)"


def _strip_annotations(tree: ast.AST) -> str:
    for node in ast.walk(tree):
        if isinstance(node, ast.arg):
            node.annotation = None
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            node.returns = None
        elif isinstance(node, ast.AnnAssign):
            node.annotation = ast.Constant(None)
    return ast.dump(tree)


def _annotation_only(source: str, line: int, before: str, after: str) -> bool:
    """Whether putting ``after`` in place of line ``line`` (1-based; stripped text ``before``) of
    ``source`` changes only annotations of a module that never evaluates them."""
    lines = source.splitlines()
    if not 0 < line <= len(lines) or lines[line - 1].strip() != before:
        return False
    indent = lines[line - 1][: len(lines[line - 1]) - len(lines[line - 1].lstrip())]
    try:
        original, mutated = ast.parse(source), ast.parse("\n".join(lines[: line - 1] + [indent + after] + lines[line:]))
    except SyntaxError:
        return False
    lazy = any(
        isinstance(n, ast.ImportFrom) and n.module == "__future__" and any(a.name == "annotations" for a in n.names)
        for n in original.body
    )
    return lazy and _strip_annotations(original) == _strip_annotations(mutated)


def _results(session: Path, equivalent: dict, tree: Path) -> tuple[dict[str, Counter], list[tuple]]:
    """Counts per module and survivors; ``tree`` holds the unmutated sources the session ran on."""
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
                if not reason and _annotation_only((tree / module).read_text(), spec.start_pos[0], before, after):
                    reason = ANNOTATION_ONLY
                per_module[module]["equivalent" if reason else "survived"] += 1
                survivors.append(
                    (module, spec.start_pos[0], spec.operator_name, spec.occurrence, before, after, reason)
                )
            elif result.test_outcome == TestOutcome.KILLED:
                per_module[module]["timeout" if result.output == "timeout" else "killed"] += 1
            else:
                per_module[module]["incompetent"] += 1
    return per_module, sorted(survivors)


def main(argv: list[str] | None = None) -> int:
    args = _args(argv)
    try:
        import cosmic_ray  # noqa: F401
    except ImportError:
        print("mutation_score: cosmic-ray is not installed; pip install -e '.[bench]'", file=sys.stderr)
        return 2
    started = time.monotonic()
    work = Path(tempfile.mkdtemp(prefix="passcheck-mutation-"))
    try:
        _copy_tree(work)
        (work / "cosmic-ray.toml").write_text(_config(args.tests, args.keyword, args.paths, args.timeout))
        session = work / "session.sqlite"
        _cosmic_ray("init", "cosmic-ray.toml", str(session), cwd=work)
        total = _sample(session, args.max_mutants, args.seed, _rerun_keys(args.rerun) if args.rerun else None)
        _cosmic_ray("exec", "cosmic-ray.toml", str(session), cwd=work)
        per_module, survivors = _results(session, _equivalent(args.equivalent), work)
    except subprocess.CalledProcessError as exc:
        print(f"mutation_score: {' '.join(map(str, exc.cmd[:4]))} exited {exc.returncode}", file=sys.stderr)
        return 2
    finally:
        if args.keep:
            print(f"session kept in {work}", file=sys.stderr)
        else:
            shutil.rmtree(work, ignore_errors=True)

    cols = ["killed", "timeout", "survived", "equivalent", "incompetent"]
    print(f"{'module':45} " + " ".join(f"{c:>11}" for c in cols))
    overall = Counter()
    for module in sorted(per_module):
        overall.update(per_module[module])
        print(f"{module:45} " + " ".join(f"{per_module[module][c]:>11}" for c in cols))
    print(f"{'total':45} " + " ".join(f"{overall[c]:>11}" for c in cols))
    killed = overall["killed"] + overall["timeout"]
    judged = killed + overall["survived"]
    ratio = killed / judged if judged else 0.0
    scope = f"survivors of {args.rerun}" if args.rerun else f"sample {args.max_mutants or 'all'}, seed {args.seed}"
    print(f"mutants: {total} generated, {sum(overall.values())} run ({scope})")
    print(f"killed ratio: {killed}/{judged} = {ratio:.1%} (equivalent survivors excluded; target {args.target:.0%})")
    print(f"time: {time.monotonic() - started:.0f} s")
    args.survivors.parent.mkdir(parents=True, exist_ok=True)
    with args.survivors.open("w") as fh:
        fh.write("module\tline\toperator\toccurrence\tbefore\tafter\treason\n")
        for row in survivors:
            fh.write("\t".join(map(str, row)) + "\n")
    print(f"survivors: {len(survivors)} written to {args.survivors}")
    return 0 if ratio >= args.target else 1


if __name__ == "__main__":
    sys.exit(main())
