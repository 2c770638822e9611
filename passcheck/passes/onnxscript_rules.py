"""onnxscript's pattern rules one at a time: ``onnxscript:rule-NAME`` rewrites with the one rule (or rule
set) ``onnxscript.rewriter.rules.common`` exports as ``NAME`` (``_rule`` / ``_rules`` dropped, ``_`` → ``-``:
``matmul_add_to_gemm_rule`` → ``onnxscript:rule-matmul-add-to-gemm``), and ``onnxscript:rewrite-opt-in``
with every exported rule that ``onnxscript.rewriter.rewrite`` does *not* apply by default (the ones a
user enables by name: MatMul+Add → Gemm, Gemm → MatMul+Add, HardSwish, Conv/affine, Expand before a
binary op, …).

The rules are read from the installed onnxscript (its module's exports: a ``RewriteRule``, a
``RewriteRuleSet``, or a function of no arguments returning one), so a newer release's rules are
reached without a change here. Each rewrite runs as ``onnxscript.rewriter.rewrite(model, rules)`` does:
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


@functools.cache
def exported() -> dict[str, str]:
    """Slug → export name of each rule or rule set ``onnxscript.rewriter.rules.common`` exports
    (empty when the installed onnxscript has no such module)."""
    try:
        from onnxscript.rewriter import pattern
        from onnxscript.rewriter.rules import common
    except ImportError:
        return {}
    out = {}
    for name in sorted(n for n in dir(common) if not n.startswith("_")):
        obj = getattr(common, name)
        if isinstance(obj, (pattern.RewriteRule, pattern.RewriteRuleSet)) or (
            inspect.isfunction(obj) and name.endswith("_rules") and not inspect.signature(obj).parameters
        ):
            out[_slug(name)] = name
    return out


def pass_ids() -> list[str]:
    """``onnxscript:rule-NAME`` for every rule the installed onnxscript exports (sorted by export name)."""
    return [PREFIX + slug for slug in exported()]


@functools.cache
def _rules(name: str) -> tuple:
    """The export ``name`` as RewriteRule objects, built once per process (a rule-set function builds new
    objects per call; the coverage catalogue traces rules by identity)."""
    from onnxscript.rewriter import pattern
    from onnxscript.rewriter.rules import common

    obj = getattr(common, name)
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
        if reason is None and self.slug is not None and self.slug not in exported():
            reason = f"this onnxscript exports no rule {self.slug!r} in onnxscript.rewriter.rules.common"
        return reason

    def apply(self, model, workdir: Path):
        import onnxscript.rewriter

        rules = opt_in_rules() if self.slug is None else list(_rules(exported()[self.slug]))
        return onnxscript.rewriter.rewrite(model, rules)


def adapter(pass_id: str) -> OnnxscriptRuleAdapter:
    """The adapter for ``onnxscript:rule-NAME`` / ``onnxscript:rewrite-opt-in``.

    Raises:
        UnknownIdError: NAME is not a rule the installed onnxscript exports (the closest or first ones named).
    """
    slug = pass_id.removeprefix(PREFIX)
    if pass_id != OPT_IN and exported() and slug not in exported():
        raise UnknownIdError("pass", pass_id, [PREFIX + name for name in exported()])
    return OnnxscriptRuleAdapter(pass_id)
