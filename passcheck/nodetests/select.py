"""Collect only the asked onnx backend node tests: import only the modules of
``onnx.backend.test.case.node`` whose source text can name one of them.

Source: onnx's ``collect_testcases`` imports every module under that package (``import_recursive``);
each operator example runs at class creation (``Base``'s metaclass calls every ``export*`` after
``np.random.seed(0)``) and calls ``expect(node, inputs, outputs, name=...)``, which appends the test
``name`` and, for a function op, ``name + "_expanded"`` (``_ver<N>`` after it) to the package's
``_NodeTestCases``. onnx publishes no name → module map, so a module's possible names are read from
its text: every string literal that starts with ``test_``, cut at a quote, a brace (an f-string's
field), a backslash or a space, is a *fragment*, and every test the module writes is assumed to be a
fragment followed by anything (a literal name, ``"test_x_" + key``, ``f"test_{mode}_pad"``: fragment
``test_``, a name extended with ``+=``, the ``_expanded`` suffix). A module is imported when one of
its fragments and a glob's literal prefix (up to its first ``*``, ``?`` or ``[``) are a prefix of the
other: a superset of the modules a full collection would take the matching tests from. Because each
example seeds numpy itself, a test built this way has the same model and data as in the full run.

Two guards keep the result the full collection's: an exact name asked (no wildcard) that the selected
modules did not write, or an onnx whose package has no ``_NodeTestCases`` list, falls back to
``collect_testcases(None)`` (every example, as before).
"""

from __future__ import annotations

import dataclasses
import fnmatch
import importlib
import pkgutil
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

PACKAGE = "onnx.backend.test.case.node"
_FRAGMENT = re.compile(r"""["'](test_[^"'{}\s\\]*)""")
_MAGIC = re.compile(r"[*?\[]")


@dataclasses.dataclass(frozen=True)
class Module:
    """One module of :data:`PACKAGE`: its dotted ``name`` and the ``test_…`` fragments of its text."""

    name: str
    fragments: frozenset[str]

    def may_hold(self, globs: Iterable[str]) -> bool:
        """Whether a test this module writes can match one of ``globs`` (see the module docs)."""
        for glob in globs:
            head = _MAGIC.split(glob, maxsplit=1)[0]
            if any(f.startswith(head) or head.startswith(f) for f in self.fragments):
                return True
        return False


def modules() -> list[Module]:
    """Every module ``collect_testcases`` imports, in its order, read as text (none is imported here;
    the ``ai_onnx_ml`` ones only when onnx is built with ONNX_ML, as ``import_recursive`` does)."""
    import onnx

    package = importlib.import_module(PACKAGE)
    found: list[Module] = []

    def walk(paths: Sequence[str], prefix: str) -> None:
        for info in pkgutil.iter_modules(paths):
            name = f"{prefix}.{info.name}"
            if not getattr(onnx, "ONNX_ML", True) and name.startswith(f"{PACKAGE}.ai_onnx_ml"):
                continue
            spec = info.module_finder.find_spec(name, None)
            text = _source(spec)
            # a module without a readable source is taken for every name, as one with a bare ``test_`` is
            found.append(Module(name, frozenset({"test_"}) if text is None else frozenset(_FRAGMENT.findall(text))))
            if info.ispkg and spec is not None and spec.submodule_search_locations:
                walk(list(spec.submodule_search_locations), name)

    walk(list(package.__path__), PACKAGE)
    return found


def _source(spec) -> str | None:
    """The text of the module ``spec`` finds, or None (no spec, no source file, unreadable)."""
    if spec is None or not spec.origin or not spec.origin.endswith(".py"):
        return None
    try:
        return Path(spec.origin).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def collect(globs: Sequence[str] = ()) -> list[Any]:
    """onnx's node test cases (``onnx.backend.test.case.test_case.TestCase``) whose name matches one of
    ``globs`` (``fnmatchcase``); every test when ``globs`` is empty. Imports only the modules
    :meth:`Module.may_hold` selects, or falls back to ``collect_testcases(None)`` (module docs).
    Numpy warnings of the examples are the caller's to silence."""
    from onnx.backend.test.case.node import collect_testcases

    def matching(tests: Iterable[Any]) -> list[Any]:
        return [t for t in tests if any(fnmatch.fnmatchcase(t.name, g) for g in globs)]

    if not globs:
        return list(collect_testcases(None))
    package = importlib.import_module(PACKAGE)
    written = getattr(package, "_NodeTestCases", None)
    if not isinstance(written, list):
        return matching(collect_testcases(None))
    for module in modules():
        if module.may_hold(globs):
            importlib.import_module(module.name)
    tests = matching(written)
    names = {t.name for t in tests}
    if any(not _MAGIC.search(g) and g not in names for g in globs):
        return matching(collect_testcases(None))
    return tests
