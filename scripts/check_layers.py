"""passcheck's own layer check over the AST: every import, wherever it is written.

The layer contract is the ``layers`` contract of ``[tool.importlinter]`` in pyproject.toml (one
list, read from there). import-linter (through grimp) already sees ``import`` / ``from … import``
statements at any depth of a module (inside functions, ``if TYPE_CHECKING:`` blocks, ``try``).
What it cannot see is an import whose module name is a string argument:
``importlib.import_module("passcheck.x")`` (also ``import_module(".x", "passcheck")``) and
``__import__("passcheck.x")``. This check reads both kinds from the AST, then:

- **layers**: a module of layer *i* imports only modules of layers below *i*, or of its own
  top-level package; independent siblings (``a | b``) do not import each other;
- **cycles**: no import circle between any two modules of the package, function-level and
  string imports included (import-linter's layers contract does not look inside one layer).

The root package ``passcheck/__init__.py`` is the public facade above every layer (it imports its
names on first use, from a table) and is not checked; an import *of* the root (``from passcheck
import __version__``) is allowed anywhere, as the root imports nothing when loaded.

Usage: ``python scripts/check_layers.py [--root DIR] [--config pyproject.toml]``; exit 1 and one
line per violation, 0 and a count when the package keeps the contract.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections.abc import Iterator
from pathlib import Path

try:
    import tomllib
except ImportError:  # Python 3.10
    import tomli as tomllib

HERE = Path(__file__).resolve().parent.parent


def layers_of(config: Path) -> tuple[str, list[list[str]], list[bool]]:
    """(container, layers top to bottom as lists of sibling names, whether each is independent)."""
    doc = tomllib.loads(config.read_text(encoding="utf-8"))
    contract = next(c for c in doc["tool"]["importlinter"]["contracts"] if c["type"] == "layers")
    (container,) = contract["containers"]
    names, independent = [], []
    for raw in contract["layers"]:
        sep = ":" if ":" in raw else "|"
        names.append([p.strip() for p in raw.split(sep)])
        independent.append(sep == "|")
    return container, names, independent


def modules(root: Path, package: str) -> dict[str, Path]:
    """Dotted module name → file, for every .py under ``root`` (the package folder)."""
    out = {}
    for f in sorted(root.rglob("*.py")):
        parts = list(f.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join([package, *parts])] = f
    return out


def imports(name: str, path: Path) -> Iterator[tuple[int, str, str]]:
    """(line, imported module, how) for every import in the module ``name`` at ``path``; ``how`` is
    ``statement`` or ``string`` (a literal name given to importlib.import_module / __import__)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    is_pkg = path.name == "__init__.py"
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name, "statement"
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(name, is_pkg, node.module or "", node.level)
            for alias in node.names:  # ``from pkg import submodule`` imports the submodule, else a name of pkg
                yield node.lineno, f"{base}.{alias.name}", f"statement?{base}"
        elif isinstance(node, ast.Call) and (target := _string_import(node, name, is_pkg)):
            yield node.lineno, target, "string"


def _resolve(name: str, is_pkg: bool, module: str, level: int) -> str:
    if not level:
        return module
    parts = name.split(".")
    base = parts if is_pkg else parts[:-1]
    base = base[: len(base) - (level - 1)]
    return ".".join(base + ([module] if module else []))


def _string_import(node: ast.Call, name: str, is_pkg: bool) -> str | None:
    func = node.func
    called = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
    if called not in ("import_module", "__import__") or not node.args:
        return None
    first = node.args[0]
    if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
        return None
    text = first.value
    if called == "import_module" and text.startswith("."):
        anchor = node.args[1] if len(node.args) > 1 else None
        if not (isinstance(anchor, ast.Constant) and isinstance(anchor.value, str)):
            return None
        level = len(text) - len(text.lstrip("."))
        return _resolve(anchor.value + ".__init__", True, text.lstrip("."), level)
    return text


def graph(root: Path, package: str) -> dict[str, dict[str, tuple[int, str]]]:
    """importer → {imported module of the package: (line, how)}."""
    mods = modules(root, package)
    out: dict[str, dict[str, tuple[int, str]]] = {}
    for name, path in mods.items():
        edges = out.setdefault(name, {})
        for line, target, how in imports(name, path):
            if how.startswith("statement?"):  # ``from a import b``: a.b when b is a module, else a
                target = target if target in mods else how.removeprefix("statement?")
                how = "statement"
            while target and target not in mods:  # a name inside a module: the module
                target = target.rpartition(".")[0]
            if target and target != name and target.startswith(package):
                edges.setdefault(target, (line, how))
    return out


def layer_violations(edges, package: str, layers: list[list[str]], independent: list[bool]) -> list[str]:
    where = {sib: i for i, layer in enumerate(layers) for sib in layer}
    out = []
    for importer, targets in sorted(edges.items()):
        a = _child(importer, package)
        if a is None:
            continue  # the root facade
        for target, (line, how) in sorted(targets.items()):
            b = _child(target, package)
            if b is None or a == b:
                continue
            if a not in where or b not in where:
                out.append(f"{importer}:{line}: {a if a not in where else b} is in no layer")
                continue
            i, j = where[a], where[b]
            if i > j or (i == j and independent[i]):  # layers are listed top (0) to bottom
                kind = "a layer above" if i > j else "an independent sibling"
                out.append(f"{importer}:{line}: imports {target} ({how}), {kind}")
    return out


def cycles(edges) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = 0
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges.get(start, ()))))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on.add(start)
        while work:
            v, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges.get(w, ())))))
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.append(w)
                        if w == v:
                            break
                    if len(comp) > 1:
                        out.append(sorted(comp))
    return out


def _child(module: str, package: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == package else None


def check(root: Path, config: Path) -> list[str]:
    """Every violation of the layer contract and every import circle under ``root``, one line each."""
    package, layers, independent = layers_of(config)
    edges = graph(root, package)
    problems = layer_violations(edges, package, layers, independent)
    for comp in cycles(edges):
        problems.append("import circle: " + " -> ".join(comp))
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=HERE / "passcheck", help="the package folder")
    parser.add_argument("--config", type=Path, default=HERE / "pyproject.toml", help="pyproject.toml with the contract")
    args = parser.parse_args(argv)
    problems = check(args.root, args.config)
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} layer problem(s)", file=sys.stderr)
        return 1
    n = sum(len(t) for t in graph(args.root, layers_of(args.config)[0]).values())
    print(f"layers kept: {n} imports, no import circle")
    return 0


if __name__ == "__main__":
    sys.exit(main())
