"""Which mutants bench/mutation_score.py judges, and which tests it runs against each.

**Operators.** A selective set of cosmic-ray's operators (:data:`SELECTIVE`), each kept for a cited
result rather than all of cosmic-ray's 11 replacements per operator:

- Offutt, Lee, Rothermel, Untch, Zapf 1996, "An experimental determination of sufficient mutant
  operators" (ACM TOSEM 5(2)): tests that kill the mutants of five operator classes (ABS, AOR, LCR,
  ROR, UOI) kill 99.5 % of all of Mothra's mutants; so arithmetic (AOR) keeps one or two
  replacements per operator, logical connectors (LCR: and ↔ or) and unary deletions stay,
  decorator removal and break/continue swaps go.
- Kaminski, Ammann, Offutt 2011 ("Better predicate testing", AST workshop) and 2013 ("Improving
  logic-based testing", JSS 86(8)): for each relational operator three replacements subsume the
  other four (``>``: ``>=``, ``!=``, false; ``<``: ``<=``, ``!=``, false; ``>=``: ``>``, ``==``,
  true; ``<=``: ``<``, ``==``, true; ``==``: ``<=``, ``>=``, false; ``!=``: ``<``, ``>``, true).
  cosmic-ray has no predicate → constant replacement; its place is taken by the negation
  (``AddNot`` on a condition, and ``==`` ↔ ``!=``, which also catches ``==`` on values without an
  order, where ``<=`` only raises). ``is`` ↔ ``is not`` stay; a relational operator replaced by
  ``is``/``is not`` (identity, not a relation) goes. ``AddNot`` on a condition that is one
  comparison goes too: ``not (a < b)`` is ``a >= b``, subsumed by that comparison's three, and
  ``not (a == b)``, ``not (a is b)`` are the ``!=``, ``is not`` mutants already kept. The subsumption
  holds on an ordered domain: ``==``/``!=`` against a string, bytes, bool or None constant
  (``kind == "tensor_type"``) keeps its negation only, not ``<=``/``>=`` or ``<``/``>``.
- A number is replaced once per site (``+1``, not also ``-1``): both test the same constant.

**Tests per mutant.** :func:`build_map` runs the mapped tests once under coverage with one context
per test (``bench/mutation_contexts.py``, isolation workers included) and keeps, per line of each
mutated module, the tests that ran it, and each test's seconds; the map is cached under
``$PASSCHECK_CACHE`` keyed on the hash of the sources and tests; when only test files changed, a
cached map of the same sources is updated by running those files alone (:func:`load_or_build`).
A mutant runs the tests covering its statement, fastest first; a statement that runs at import
time (module level, a class body, a decorator or default value, the body of a function import-time
code calls: coverage gives it to the first importing test) or that only import-time code runs (the
empty context) runs the module's whole selection; a line no test runs is a survivor without a run
("no covering test").
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_AOR = {
    "Add": ("Sub", "Mul"),
    "Sub": ("Add",),
    "Mul": ("Div", "Add"),
    "Div": ("Mul",),
    "FloorDiv": ("Mul",),
    "Mod": ("FloorDiv",),
    "Pow": ("Mul",),
    "LShift": ("RShift",),
    "RShift": ("LShift",),
    "BitOr": ("BitAnd",),
    "BitAnd": ("BitOr",),
    "BitXor": ("BitAnd",),
}
_ROR = {
    "Gt": ("GtE", "NotEq"),
    "Lt": ("LtE", "NotEq"),
    "GtE": ("Gt", "Eq"),
    "LtE": ("Lt", "Eq"),
    "Eq": ("LtE", "GtE", "NotEq"),
    "NotEq": ("Lt", "Gt", "Eq"),
    "Is": ("IsNot",),
    "IsNot": ("Is",),
}
#: The operators kept (cosmic-ray names), see the module docs for the source of each choice.
SELECTIVE: frozenset[str] = frozenset(
    [f"core/ReplaceBinaryOperator_{a}_{b}" for a, bs in _AOR.items() for b in bs]
    + [f"core/ReplaceComparisonOperator_{a}_{b}" for a, bs in _ROR.items() for b in bs]
    + [
        "core/ReplaceAndWithOr",
        "core/ReplaceOrWithAnd",
        "core/AddNot",
        "core/ReplaceUnaryOperator_Delete_Not",
        "core/ReplaceUnaryOperator_Delete_USub",
        "core/ReplaceUnaryOperator_USub_UAdd",
        "core/ReplaceUnaryOperator_Delete_Invert",
        "core/ReplaceTrueWithFalse",
        "core/ReplaceFalseWithTrue",
        "core/NumberReplacer",
        "core/ExceptionReplacer",
        "core/ZeroIterationForLoop",
    ]
)


def single_comparisons(source: str) -> set[tuple[tuple[int, int], tuple[int, int]]]:
    """((line, col), (end line, end col)) of every one-operator comparison of ``source`` (ast positions:
    1-based lines, 0-based columns, as cosmic-ray's)."""
    return {
        ((n.lineno, n.col_offset), (n.end_lineno, n.end_col_offset))
        for n in ast.walk(ast.parse(source))
        if isinstance(n, ast.Compare) and len(n.ops) == 1
    }


_ORDERED_ONLY = {f"core/ReplaceComparisonOperator_{a}_{b}" for a, b in (("Eq", "LtE"), ("Eq", "GtE"))}
_ORDERED_ONLY |= {f"core/ReplaceComparisonOperator_NotEq_{b}" for b in ("Lt", "Gt")}


def unordered_equalities(source: str) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """The spans between the operands of every ``==`` / ``!=`` of ``source`` with a str, bytes, bool or
    None constant operand (its operator lies there)."""
    out = []
    for n in ast.walk(ast.parse(source)):
        if not (isinstance(n, ast.Compare) and len(n.ops) == 1 and isinstance(n.ops[0], (ast.Eq, ast.NotEq))):
            continue
        left, right = n.left, n.comparators[0]
        if any(
            isinstance(x, ast.Constant) and isinstance(x.value, (str, bytes, bool, type(None))) for x in (left, right)
        ):
            out.append(((left.end_lineno, left.end_col_offset), (right.lineno, right.col_offset)))
    return out


def selective(specs: list, root: Path = ROOT) -> list:
    """The cosmic-ray ``MutationSpec`` s of :data:`SELECTIVE`: a number's mutants once per site,
    ``AddNot`` not on a condition that is one comparison, no order on an unordered equality (module docs)."""
    out, numbers, compares, unordered = [], set(), {}, {}
    for s in specs:
        if s.operator_name not in SELECTIVE:
            continue
        if s.operator_name in _ORDERED_ONLY:
            module = str(s.module_path)
            if module not in unordered:
                unordered[module] = unordered_equalities((root / module).read_text())
            if any(a <= tuple(s.start_pos) < b for a, b in unordered[module]):
                continue
        if s.operator_name == "core/AddNot":
            module = str(s.module_path)
            if module not in compares:
                compares[module] = single_comparisons((root / module).read_text())
            if (tuple(s.start_pos), tuple(s.end_pos)) in compares[module]:
                continue
        if s.operator_name == "core/NumberReplacer":
            site = (str(s.module_path), tuple(s.start_pos))
            if site in numbers:
                continue
            numbers.add(site)
        out.append(s)
    return out


def _plugin() -> bytes:
    """The coverage plugin's source (``bench/mutation_contexts.py``): a map it built is only as good as it."""
    return (ROOT / "bench" / "mutation_contexts.py").read_bytes()


def source_hash(root: Path, targets: list[str]) -> str:
    """sha256 of what the map depends on: the coverage plugin, every ``.py`` of ``passcheck/`` and
    ``cases/``, of the test ``targets`` (files or folders), and every ``.py`` of ``tests/`` not named
    ``test_*`` (conftest, shared helpers); a test file outside the targets does not change it."""
    h = hashlib.sha256("\n".join(targets).encode() + _plugin())
    paths = {t.split("::")[0] for t in targets}
    for folder in ("passcheck", "cases", "tests"):
        for f in sorted((root / folder).rglob("*.py")):
            rel = f.relative_to(root).as_posix()
            if folder == "tests" and f.name.startswith("test_"):
                if not any(rel == p or rel.startswith(p.rstrip("/") + "/") for p in paths):
                    continue
            h.update(rel.encode() + b"\0" + f.read_bytes())
    return h.hexdigest()[:20]


def source_parts(root: Path, targets: list[str], modules: list[str]) -> tuple[str, dict[str, str]]:
    """(sha256 of what every test's coverage depends on: the coverage plugin, the mutated ``modules``'
    names, every ``.py`` of ``passcheck/`` and ``cases/`` and of ``tests/`` not named ``test_*``; {test
    file of the ``targets``: its sha256}). Two maps of one base differ only in the contexts of the test
    files whose hashes differ."""
    h = hashlib.sha256("\n".join(modules).encode() + _plugin())
    paths = {t.split("::")[0].rstrip("/") for t in targets}
    files: dict[str, str] = {}
    for folder in ("passcheck", "cases", "tests"):
        for f in sorted((root / folder).rglob("*.py")):
            rel = f.relative_to(root).as_posix()
            if folder == "tests" and f.name.startswith("test_"):
                if any(rel == p or rel.startswith(p + "/") for p in paths):
                    files[rel] = hashlib.sha256(f.read_bytes()).hexdigest()[:20]
                continue
            h.update(rel.encode() + b"\0" + f.read_bytes())
    return h.hexdigest()[:20], files


def merged(old: dict, new: dict, files: set[str]) -> dict:
    """Map ``old`` with every context of a test of ``files`` (test file paths) dropped, and ``new``'s
    (a map of those files run alone) added; import-time contexts (``""``) of both are kept."""

    def kept(ctx: str) -> bool:
        return not ctx or ctx.split("::")[0] not in files

    tests = {t: s for t, s in old["tests"].items() if kept(t)} | new["tests"]
    lines: dict[str, dict[str, list[str]]] = {}
    for module in set(old["lines"]) | set(new["lines"]):
        by_line = {str(n): [c for c in ctx if kept(c)] for n, ctx in old["lines"].get(module, {}).items()}
        for n, ctx in new["lines"].get(module, {}).items():
            by_line[str(n)] = sorted(set(by_line.get(str(n), [])) | set(ctx))
        lines[module] = {n: ctx for n, ctx in by_line.items() if ctx}
    return {"tests": tests, "lines": lines}


def cache_dir() -> Path:
    return Path(os.environ.get("PASSCHECK_CACHE", Path.home() / ".cache" / "passcheck")) / "mutation-maps"


_RC = """[run]
source = passcheck
parallel = true
relative_files = true
concurrency = multiprocessing,thread
patch = subprocess, _exit
plugins = mutation_contexts
data_file = {data}
"""


def build_map(work: Path, targets: list[str], pytest_args: list[str], modules: list[str], children=None) -> dict:
    """Run ``targets`` once in the tree copy ``work`` under coverage, one context per test; the map
    ``{"tests": {node id: seconds}, "lines": {module: {line: [node id, …]}}}`` (``""``: import time).

    The test run starts through ``children`` (a ``passcheck._procs.Children``: Ctrl-C kills it with all
    it started) when given.

    Raises:
        subprocess.CalledProcessError: coverage could not report (a failing test is fine).
    """
    cov = work / "_coverage"
    (cov / "plugin").mkdir(parents=True, exist_ok=True)
    shutil.copy2(ROOT / "bench" / "mutation_contexts.py", cov / "plugin" / "mutation_contexts.py")
    (cov / "rc").write_text(_RC.format(data=cov / "data"))
    env = dict(os.environ, PYTHONPATH=str(cov / "plugin"))
    env.update(PASSCHECK_MUTATION_CONTEXT=str(cov / "now"), PASSCHECK_MUTATION_DURATIONS=str(cov / "seconds.json"))
    run = [sys.executable, "-m", "coverage", "run", f"--rcfile={cov / 'rc'}", "-m", "pytest", "-p", "mutation_contexts"]
    argv = ["nice", "-n", "15", *run, *pytest_args, *targets]
    if children is None:
        from passcheck._procs import Children

        children = Children()
    proc = children.popen(argv, cwd=work, env=env)
    proc.wait()
    children.done(proc)
    return read_map(work, modules)


def read_map(work: Path, modules: list[str]) -> dict:
    """The map of a coverage run of :func:`build_map` in ``work`` (combined and reported through
    coverage's command line: ``bench/coverage.py`` shadows the package when bench/ is on the path)."""
    cov = work / "_coverage"
    env = dict(os.environ, PYTHONPATH=str(cov / "plugin"))
    rc = f"--rcfile={cov / 'rc'}"
    # exits 1 with "No data to combine" when already combined; a real failure shows in the report below
    combined = subprocess.run(
        [sys.executable, "-m", "coverage", "combine", rc, "-q"], cwd=work, env=env, capture_output=True, text=True
    )
    said = combined.stdout + combined.stderr
    unusable = sorted(set(re.findall(r"(?:Couldn't use data file|Data file) '([^']+)'", said)))
    if unusable:  # a process killed while coverage wrote its file; a worker's sealed copy (mutation_contexts) stays
        print(f"line → tests map: {len(unusable)} coverage data files unreadable, skipped:", *unusable, sep="\n  ")
    report = cov / "report.json"
    subprocess.run(
        [sys.executable, "-m", "coverage", "json", rc, "-q", "--show-contexts", "-o", str(report), *modules],
        cwd=work,
        env=env,
        check=True,
    )
    files = json.loads(report.read_text())["files"]
    lines = {m: {int(n): sorted(c) for n, c in files.get(m, {}).get("contexts", {}).items()} for m in modules}
    seconds = json.loads((cov / "seconds.json").read_text()) if (cov / "seconds.json").exists() else {}
    return {"tests": seconds, "lines": lines}


def load_or_build(
    work: Path, targets: list[str], pytest_args: list[str], modules: list[str], children=None
) -> tuple[dict, str]:
    """The cached map for this source hash; else a cached map of the same base (:func:`source_parts`)
    with only the test files added or changed since run again (:func:`merged`); else a new one built.
    The result is cached under the source hash. Returns (map, how: "cached", "built" or "updated: N
    test files run again")."""
    path = cache_dir() / f"{source_hash(ROOT, sorted(targets) + modules)}.json"
    if path.exists():
        return json.loads(path.read_text()), "cached"
    base, files = source_parts(ROOT, targets, modules)
    old = _same_base(base)
    if old is None:
        found, how = build_map(work, targets, pytest_args, modules, children), "built"
    else:
        stale = {f for f in files if old["files"].get(f) != files[f]}
        gone = set(old["files"]) - set(files)
        new = build_map(work, sorted(stale), pytest_args, modules, children) if stale else {"tests": {}, "lines": {}}
        found, how = merged(old, new, stale | gone), f"updated: {len(stale)} test files run again"
    found |= {"base": base, "files": files}
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(found))
    tmp.replace(path)
    return found, how


def _same_base(base: str) -> dict | None:
    """The newest cached map of ``base`` that records its test files' hashes, or None."""
    maps = sorted(cache_dir().glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True)  # none: no folder yet
    for p in maps:
        try:
            found = json.loads(p.read_text())
        except (OSError, ValueError):
            continue
        if found.get("base") == base and isinstance(found.get("files"), dict):
            return found
    return None


_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


def _called(nodes: list[ast.AST]) -> set[str]:
    """Names ``nodes`` call as they run (``f(…)``, ``@f``, ``@f(…)``): function bodies and lambdas are
    skipped (they run when called), their decorators and default values are not."""
    out: set[str] = set()
    todo = list(nodes)
    while todo:
        node = todo.pop()
        if isinstance(node, _FUNCTIONS + (ast.Lambda,)):
            args = node.args
            todo += [*args.defaults, *(d for d in args.kw_defaults if d is not None)]
            if not isinstance(node, ast.Lambda):
                todo += node.decorator_list
                out |= {d.id for d in node.decorator_list if isinstance(d, ast.Name)}
            continue
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            out.add(node.func.id)
        todo += ast.iter_child_nodes(node)
    return out


def import_time_functions(tree: ast.Module) -> set[str]:
    """The module-level functions of ``tree`` that import-time code calls by name, directly or through
    each other (``RULES = _rules()``): their bodies run when the module is imported. Calls through an
    attribute (``Cls.build()``) or a stored reference are not followed."""
    defs = {n.name: n for n in tree.body if isinstance(n, _FUNCTIONS)}
    found: set[str] = set()
    todo = [n for n in _called(tree.body) if n in defs]
    while todo:
        name = todo.pop()
        if name not in found:
            found.add(name)
            todo += [n for n in _called(defs[name].body) if n in defs]
    return found


def statement_lines(source: str) -> dict[int, tuple[range, bool]]:
    """line → (the lines of the innermost statement holding it (a compound statement: its header only,
    a decorated ``def``/``class`` from its first decorator on), whether that statement runs inside a
    function body rather than at import time: a module-level function import-time code calls
    (:func:`import_time_functions`) runs at import time)."""
    out: dict[int, tuple[range, bool]] = {}
    tree = ast.parse(source)
    at_import = import_time_functions(tree)

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inner = in_function
            if isinstance(child, ast.stmt):
                body = getattr(child, "body", None)
                end = body[0].lineno - 1 if isinstance(body, list) and body and hasattr(body[0], "lineno") else None
                # ast starts a decorated def/class at its keyword; its decorators run where it stands
                start = min([child.lineno] + [d.lineno for d in getattr(child, "decorator_list", ())])
                span = range(start, max(child.lineno, end if end else child.end_lineno) + 1)
                for n in span:
                    out[n] = (span, in_function)
            if isinstance(child, _FUNCTIONS + (ast.Lambda,)):
                # its body runs when called; its header (defaults, decorators) where it stands
                inner = not (node is tree and getattr(child, "name", None) in at_import)
            visit(child, inner)

    visit(tree, False)
    return out


class Selector:
    """Per-mutant tests from a map of :func:`build_map`."""

    def __init__(self, found: dict):
        self.seconds: dict[str, float] = found["tests"]
        self.lines: dict[str, dict[int, list[str]]] = defaultdict(dict)
        for module, by_line in found["lines"].items():
            self.lines[module] = {int(n): c for n, c in by_line.items()}
        self._spans: dict[str, dict[int, tuple[range, bool]]] = {}

    def tests(self, module: str, line: int) -> list[str] | None:
        """Node ids of the tests that run ``module``'s statement at ``line``, fastest first; None when
        it runs at import time (outside any function body, or in a function import-time code calls:
        the test that first imports the module claims it, not every test that reads what it built) or
        only import-time code runs it (then the module's selection applies); [] when nothing runs it."""
        if module not in self._spans:
            self._spans[module] = statement_lines((ROOT / module).read_text())
        span, in_function = self._spans[module].get(line, (range(line, line + 1), True))
        if not in_function:
            return None
        contexts: set[str] = set()
        for n in span:
            contexts.update(self.lines[module].get(n, ()))
        if contexts == {""}:
            return None
        return sorted((c for c in contexts if c), key=lambda t: (self.seconds.get(t, 0.0), t))


def map_inputs(entries: list) -> tuple[list[str], list[str]]:
    """(every test target of the map's entries, once each in order; every module they mutate)."""
    import mutation_map

    targets = list(dict.fromkeys(t for e in entries for t in e.tests))
    return targets, mutation_map.files([e.path for e in entries])
