"""onnxscript's pattern rules one at a time: ``onnxscript:rule-NAME`` rewrites with the one rule (or rule
set) ``onnxscript.rewriter.rules.common`` exports as ``NAME`` (``_rule`` / ``_rules`` dropped, ``_`` → ``-``:
``matmul_add_to_gemm_rule`` → ``onnxscript:rule-matmul-add-to-gemm``), and ``onnxscript:rewrite-opt-in``
with every exported rule that ``onnxscript.rewriter.rewrite`` does *not* apply by default (the ones a
user enables by name: MatMul+Add → Gemm, Gemm → MatMul+Add, HardSwish, Conv/affine, Expand before a
binary op, …).

The rules are read from the installed onnxscript (its module's exports: a ``RewriteRule``, a
``RewriteRuleSet``, or a function of no arguments returning one), so a newer release's rules are
reached without a change here. Before onnxscript 0.5 (microsoft/onnxscript#2531 moved them into
``rules.common``) each rule lived in a module of its own under ``onnxscript.rewriter`` (``matmul_add_to_gemm``,
``basic_rules``, ``no_op``, …); there the exports of those modules are read (:func:`legacy_exports`), so the
opt-in rules of 0.1 … 0.3 run too instead of none.
Each rewrite runs as ``onnxscript.rewriter.rewrite(model, rules)`` does:
the rules, then unused nodes, functions and opsets removed; no constant folding. Every rule states in
its source that it keeps the model's values (a rewrite, not an approximation), so the numeric, validity
and annotation oracles apply as to any optimizing pass.
"""

from __future__ import annotations

import functools
import inspect
from pathlib import Path

from passcheck.errors import UnknownIdError
from passcheck.passes.onnxscript_optimizer import _OnnxscriptAdapter

PREFIX = "onnxscript:rule-"
OPT_IN = "onnxscript:rewrite-opt-in"


def _slug(export: str) -> str:
    for suffix in ("_rules", "_rule"):
        export = export.removesuffix(suffix)
    return export.replace("_", "-")


#: Modules of ``onnxscript.rewriter`` before 0.5 that hold no rule a user passes to ``rewrite`` by name: the
#: matcher and its helpers, and the fusion packages with their own entry points (``ort_fusions``).
LEGACY_SKIP = frozenset({"pattern", "generic_pattern", "testing", "onnxruntime", "ort_fusions", "onnx_fusions"})
#: Export names too generic to name a rule alone in the legacy layout (``gemm_to_matmul_add.rule``): the
#: module's name goes first (``gemm_to_matmul_add_rule``).
GENERIC = frozenset({"rule", "rules", "static_rule"})


def _is_rule(pattern, name: str, obj) -> bool:
    return isinstance(obj, (pattern.RewriteRule, pattern.RewriteRuleSet)) or (
        inspect.isfunction(obj) and name.endswith("_rules") and not inspect.signature(obj).parameters
    )


@functools.cache
def _namespace() -> dict[str, object]:
    """Export name → rule object of the installed onnxscript: ``rules.common``'s exports, else
    :func:`legacy_exports` (empty without either)."""
    try:
        from onnxscript.rewriter import pattern
        from onnxscript.rewriter.rules import common
    except ImportError:
        return legacy_exports()
    names = (n for n in dir(common) if not n.startswith("_"))
    return {n: getattr(common, n) for n in names if _is_rule(pattern, n, getattr(common, n))}


def legacy_exports() -> dict[str, object]:
    """Export name → rule object of the rule modules of ``onnxscript.rewriter`` in the layout before 0.5 (one
    module per rule family; :data:`LEGACY_SKIP` left out), a :data:`GENERIC` name prefixed with its module's.
    A function of no arguments ``*_rules`` counts only in the module that defines it. Empty when
    ``onnxscript.rewriter`` has no ``pattern`` module (no pattern rules at all) or a module fails to import."""
    import importlib
    import pkgutil

    try:
        import onnxscript.rewriter as rewriter
        from onnxscript.rewriter import pattern
    except ImportError:
        return {}
    out: dict[str, object] = {}
    for info in pkgutil.iter_modules(rewriter.__path__):
        if info.ispkg or info.name.startswith("_") or info.name.endswith("_test") or info.name in LEGACY_SKIP:
            continue
        try:
            module = importlib.import_module(f"onnxscript.rewriter.{info.name}")
        except ImportError:
            continue
        for name in dir(module):
            obj = getattr(module, name)
            if name.startswith("_") or not _is_rule(pattern, name, obj):
                continue
            if inspect.isfunction(obj) and obj.__module__ != module.__name__:
                continue
            out.setdefault(f"{info.name}_{name}" if name in GENERIC else name, obj)
    return out


@functools.cache
def exported() -> dict[str, str]:
    """Slug → export name of each rule or rule set the installed onnxscript exports: from
    ``onnxscript.rewriter.rules.common`` (0.5 and later), else from the rule modules of the older layout
    (:func:`legacy_exports`); empty when it has neither."""
    return {_slug(name): name for name in sorted(_namespace())}


def pass_ids() -> list[str]:
    """``onnxscript:rule-NAME`` for every rule the installed onnxscript exports (sorted by export name)."""
    return [PREFIX + slug for slug in exported()]


@functools.cache
def _rules(name: str) -> tuple:
    """The export ``name`` as RewriteRule objects, built once per process (a rule-set function builds new
    objects per call; the coverage catalogue traces rules by identity)."""
    from onnxscript.rewriter import pattern

    obj = _namespace()[name]
    obj = obj() if inspect.isfunction(obj) else obj
    return tuple(obj.rules) if isinstance(obj, pattern.RewriteRuleSet) else (obj,)


def opt_in() -> list[str]:
    """Export names of the rules the default ``rewrite`` does not apply (identity with its default list)."""
    import onnxscript.rewriter as rewriter

    default = {id(r) for r in getattr(rewriter, "_DEFAULT_REWRITE_RULES", ())}
    return [n for n in exported().values() if not any(id(r) in default for r in _rules(n))]


def opt_in_rules() -> list:
    """The RewriteRule objects of :func:`opt_in` (empty without ``rules.common``)."""
    return [r for n in opt_in() for r in _rules(n)]


class OnnxscriptRuleAdapter(_OnnxscriptAdapter):
    """``onnxscript:rule-NAME`` (one exported rule) or ``onnxscript:rewrite-opt-in`` (every rule the
    default rewrite leaves out)."""

    optimizes = True

    def __init__(self, pass_id: str):
        self.id = pass_id
        self.slug = None if pass_id == OPT_IN else pass_id.removeprefix(PREFIX)
        self.doc = (
            "onnxscript.rewriter.rewrite(model, <each exported rule the defaults leave out>)"
            if self.slug is None
            else f"onnxscript.rewriter.rewrite(model, [rules.common.{exported().get(self.slug, '?')}])"
        )

    def unavailable_reason(self) -> str | None:
        reason = super().unavailable_reason()
        if reason is None and self.slug is None and not opt_in():
            # a rewrite with no rule changes nothing: reported unchanged, every cell would be an ok judging nothing
            reason = "this onnxscript exports no rule that its default rewrite leaves out"
        if reason is None and self.slug is not None and self.slug not in exported():
            reason = f"this onnxscript exports no rule {self.slug!r} (rules.common or the modules before 0.5)"
        return reason

    def apply(self, model, workdir: Path):
        import onnxscript.rewriter

        rules = opt_in_rules() if self.slug is None else list(_rules(exported()[self.slug]))
        # by keyword: onnxscript 0.1's second parameter is function_rewrite_rules
        return onnxscript.rewriter.rewrite(model, pattern_rewrite_rules=rules)


def adapter(pass_id: str) -> OnnxscriptRuleAdapter:
    """The adapter for ``onnxscript:rule-NAME`` / ``onnxscript:rewrite-opt-in``.

    Raises:
        UnknownIdError: NAME is not a rule the installed onnxscript exports (the closest or first ones named).
    """
    slug = pass_id.removeprefix(PREFIX)
    if pass_id != OPT_IN and exported() and slug not in exported():
        raise UnknownIdError("pass", pass_id, [PREFIX + name for name in exported()])
    return OnnxscriptRuleAdapter(pass_id)
