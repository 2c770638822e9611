"""What bench/mutation_score.py mutates and which tests it runs per mutated module.

Reads ``bench/mutation_tests.toml`` (format in its header): ``[[module]]`` entries, each a file or
folder ``path`` (relative to the checkout), the pytest ``tests`` run against its mutants, and
optionally ``only``, the qualified names of the functions or classes whose mutants count.
"""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

try:
    import tomllib
except ImportError:  # Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
MAP = ROOT / "bench" / "mutation_tests.toml"


@dataclasses.dataclass(frozen=True)
class Entry:
    """One ``[[module]]`` of the map."""

    path: str
    tests: tuple[str, ...]
    only: tuple[str, ...] = ()


def load(path: Path = MAP) -> list[Entry]:
    """The map's entries, in file order.

    Raises:
        ValueError: an entry without ``path`` or without a non-empty ``tests`` list.
    """
    out = []
    for i, e in enumerate(tomllib.loads(Path(path).read_text()).get("module", [])):
        if not e.get("path") or not e.get("tests"):
            raise ValueError(f"{path}: module {i} needs a 'path' and a non-empty 'tests' list")
        out.append(Entry(e["path"].rstrip("/"), tuple(e["tests"]), tuple(e.get("only", ()))))
    return out


def entry_for(module: str, entries: list[Entry]) -> Entry | None:
    """The entry of the longest ``path`` that is ``module`` or a folder holding it; None when no entry holds it."""
    holding = [e for e in entries if module == e.path or module.startswith(e.path + "/")]
    return max(holding, key=lambda e: len(e.path), default=None)


def files(paths: list[str], root: Path = ROOT) -> list[str]:
    """Every ``.py`` file of ``paths`` (files or folders under ``root``), as sorted posix paths relative to ``root``."""
    out: set[str] = set()
    for p in paths:
        full = root / p
        found = sorted(full.rglob("*.py")) if full.is_dir() else [full]
        out.update(f.relative_to(root).as_posix() for f in found)
    return sorted(out)


def _defs(tree: ast.AST, prefix: str = ""):
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            name = f"{prefix}{node.name}"
            yield name, node
            yield from _defs(node, name + ".")


def scope_lines(source: str, only: tuple[str, ...] | list[str]) -> set[int] | None:
    """The 1-based lines of the definitions ``only`` names (decorators included), None for the
    whole module when ``only`` is empty.

    Raises:
        ValueError: a name of ``only`` that the module does not define.
    """
    if not only:
        return None
    found = dict(_defs(ast.parse(source)))
    lines: set[int] = set()
    for name in only:
        if name not in found:
            raise ValueError(f"defines no {name!r}")
        node = found[name]
        first = min([node.lineno] + [d.lineno for d in node.decorator_list])
        lines.update(range(first, node.end_lineno + 1))
    return lines


def problems(entries: list[Entry], root: Path = ROOT) -> list[str]:
    """What is wrong with ``entries`` under ``root``: missing paths or test targets, ``only`` names not defined."""
    out = []
    for e in entries:
        if not (root / e.path).exists():
            out.append(f"{e.path}: no such file or folder")
        out += [f"{e.path}: no test target {t}" for t in e.tests if not (root / t.split("::")[0]).exists()]
        if e.only:
            try:
                scope_lines((root / e.path).read_text(), e.only)
            except (OSError, ValueError) as exc:
                out.append(f"{e.path}: {exc}")
    return out


def annotation_spans(source: str) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """((line, col), (end line, end col)) of every annotation of a module that never evaluates them
    (``from __future__ import annotations``; lines 1-based, columns 0-based as cosmic-ray's positions);
    empty for any other module. passcheck reads no annotation at run time (no ``get_type_hints``)."""
    tree = ast.parse(source)
    lazy = any(
        isinstance(n, ast.ImportFrom) and n.module == "__future__" and any(a.name == "annotations" for a in n.names)
        for n in tree.body
    )
    if not lazy:
        return []
    spans = []
    for node in ast.walk(tree):
        if isinstance(node, ast.arg):
            found = [node.annotation]
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found = [node.returns]
        elif isinstance(node, ast.AnnAssign):
            found = [node.annotation]
        else:
            continue
        spans += [((a.lineno, a.col_offset), (a.end_lineno, a.end_col_offset)) for a in found if a is not None]
    return spans


def in_annotation(spans: list, start: tuple[int, int], end: tuple[int, int]) -> bool:
    """Whether the source range ``start``–``end`` lies inside one of ``spans`` (:func:`annotation_spans`)."""
    return any(a <= tuple(start) and tuple(end) <= b for a, b in spans)
