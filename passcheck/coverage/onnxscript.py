"""onnxscript's rewrite rules, fusions and constant folding, and which a model triggers.

Catalogue, introspected from the installed onnxscript: the rules of the default rule set
(``onnxscript.rewriter._DEFAULT_REWRITE_RULES``, which ``optimize`` and ``rewrite`` both apply); the
rules ``onnxscript.rewriter.rules.common`` exports that the defaults leave out (``rewrite-opt-in``);
for ``optimize_for_ort``, its Gemm → MatMul + Add rule, the fusions ``fuse_xformers`` counts (the
keys of the count it returns, read by running it on a one-node model) and the ORT pattern rules
(``ORT_PATTERN_REWRITE_RULES``); the rules ``onnx_fusions.fuse`` applies at opset 23 (``onnxscript:onnx-fusions``:
RMSNormalization, RotaryEmbedding, Attention); constant folding per op: the ops with a partial evaluator in the
folder's registry, and one entry for every other op (folded through the reference evaluator).
A rule without a name (``Anonymous Rule``) is named by its target pattern (``Mul(x,1)``).

Evidence, by effect: a rule's ``try_rewrite`` returned a replacement the rewriter applied (the
rule-name tag onnxscript writes on the nodes it creates, :mod:`passcheck.attribution.onnxscript`,
is named when present; a rule that only removes nodes writes none); a fusion's count is positive;
``FoldConstantsPass.replace_node`` replaced a node of that op. Run :func:`triggers` through
``IsolatedExecutor.call``: it patches onnxscript's classes for the duration of the call.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from functools import cache

from passcheck.coverage.entry import Entry, key
from passcheck.passes import onnxscript_rules

TOOL = "onnxscript"
DEFAULT = ("onnxscript:optimize", "onnxscript:rewrite", "onnxscript:optimize-for-ort")
ORT = ("onnxscript:optimize-for-ort",)
#: The exported rules ``rewrite`` leaves out, applied together (:mod:`passcheck.passes.onnxscript_rules`).
OPT_IN = ("onnxscript:rewrite-opt-in",)
#: ``onnx_fusions.fuse``: the fusions into ai.onnx opset 23 ops (:mod:`passcheck.passes.onnxscript_onnx_fusions`).
ONNX_FUSIONS = ("onnxscript:onnx-fusions",)
FOLDING = ("onnxscript:optimize", "onnxscript:optimize-for-ort")
#: The fold entry of every op without a partial evaluator.
GENERIC_FOLD = "*"


def _pattern_name(rule) -> str:
    text = str(rule._target_pattern)
    body = [ln.strip() for ln in text.splitlines()[1:] if "=" in ln]
    calls = [re.sub(r"anonymous:\d+", "_", re.sub(r"\s+", "", ln.split("=", 1)[1])) for ln in body]
    return ";".join(calls) or "Anonymous Rule"


@cache
def _rules() -> tuple[tuple[str, str, tuple[str, ...], object], ...]:
    """(name, rule set, passes, rule object) of every rule the catalogue lists."""
    from onnxscript import rewriter
    from onnxscript.rewriter import ort_fusions
    from onnxscript.rewriter.ort_fusions import _core

    out, seen = [], set()

    def add(rule, where: str, passes: tuple[str, ...]) -> None:
        for i, (n, w, p, r) in enumerate(out):
            if r is rule:  # one rule in two sets (optimize_for_ort's Gemm rule is also exported opt-in)
                out[i] = (n, w, tuple(dict.fromkeys(p + passes)), r)
                return
        name = rule.name or _pattern_name(rule)
        n, k = name, 2
        while n in seen:
            n, k = f"{name}#{k}", k + 1
        seen.add(n)
        out.append((n, where, passes, rule))

    for r in rewriter._DEFAULT_REWRITE_RULES:
        add(r, "default rules", DEFAULT)
    add(_gemm_rule(_core), "optimize_for_ort", ORT)
    for r in ort_fusions.ORT_PATTERN_REWRITE_RULES:
        add(r, "ORT_PATTERN_REWRITE_RULES", ORT)
    for r in onnxscript_rules.opt_in_rules():
        add(r, "rules.common, not applied by default", OPT_IN)
    for r in onnx_fusion_rules():
        add(r, "onnx_fusions.fuse (opset 23)", ONNX_FUSIONS)
    return tuple(out)


def onnx_fusion_rules() -> list:
    """The rules ``onnxscript.rewriter.onnx_fusions.fuse`` applies, read from the installed package: the rule sets
    closed over by the ``fuse_*`` functions its ``_opset_23_fuse`` calls (``_fusion_utils.apply_fusion_rules``);
    empty where the package has none (onnxscript before 0.3)."""
    import types

    try:
        from onnxscript.rewriter import pattern
        from onnxscript.rewriter.onnx_fusions import _onnx_fusions
    except ImportError:
        return []
    called = _onnx_fusions._opset_23_fuse.__code__.co_names
    out = []
    for module in (v for v in vars(_onnx_fusions).values() if isinstance(v, types.ModuleType)):
        for name in called:
            for cell in getattr(getattr(module, name, None), "__closure__", None) or ():
                if isinstance(cell.cell_contents, pattern.RewriteRuleSet):
                    out += [r for r in cell.cell_contents.rules if r not in out]
    return out


def _gemm_rule(core):
    """``optimize_for_ort``'s Gemm → MatMul + Add rule: ``_core._gemm_to_matmul_add.gemm_to_matmul_add_rule``
    in onnxscript 0.7, ``_core.gemm_to_matmul_add.rule`` in 0.3 (each release's ``ort_fusions/_core.py``)."""
    if hasattr(core, "_gemm_to_matmul_add"):
        return core._gemm_to_matmul_add.gemm_to_matmul_add_rule
    return core.gemm_to_matmul_add.rule


def fusion_names() -> list[str]:
    """The fusions ``fuse_xformers`` counts (run on a one-node model: every count is 0)."""
    import onnx
    from onnx import TensorProto, helper
    from onnxscript.rewriter.ort_fusions._core import fuse_xformers

    from passcheck.passes import onnxscript_ir

    ir = onnxscript_ir.ir_module()

    x, y = (helper.make_tensor_value_info(n, TensorProto.FLOAT, [2]) for n in "xy")
    graph = helper.make_graph([helper.make_node("Identity", ["x"], ["y"])], "g", [x], [y])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)
    onnx.checker.check_model(model)
    counts = onnxscript_ir.fusion_counts(fuse_xformers(ir.serde.deserialize_model(model)))
    if counts is None:
        raise TypeError("this onnxscript's fuse_xformers returns no fusion counts")
    return list(counts)


def fold_ops() -> list[str]:
    """``domain::op`` of every op the constant folder has a partial evaluator for."""
    from onnxscript.optimizer import _constant_folding

    return sorted({f"{d or 'ai.onnx'}::{op}" for d, op in _constant_folding.registry.op_evaluators})


def catalogue(fusions: list[str]) -> list[Entry]:
    """The entries (``fusions`` from :func:`fusion_names`, run in the worker)."""
    out = [Entry(TOOL, "rule", n, p, where, "onnxscript rule sets (installed)") for n, where, p, _ in _rules()]
    out += [Entry(TOOL, "fusion", f, ORT, "fuse_xformers", "fuse_xformers' fusion count (installed)") for f in fusions]
    partial = "the constant folder's partial evaluators (installed)"
    out += [Entry(TOOL, "fold", op, FOLDING, "FoldConstantsPass", partial) for op in fold_ops()]
    generic = "any other op, through the reference evaluator"
    out.append(Entry(TOOL, "fold", GENERIC_FOLD, FOLDING, "FoldConstantsPass", generic))
    return out


@contextlib.contextmanager
def _recording(out: dict[str, str], label: list[str]) -> Iterator[None]:
    from onnxscript.optimizer import _constant_folding
    from onnxscript.rewriter import _rewrite_rule

    names = {id(r): n for n, _, _, r in _rules()}
    partial = set(fold_ops())
    try_rewrite, replace_node = _rewrite_rule.RewriteRule.try_rewrite, _constant_folding.FoldConstantsPass.replace_node

    def traced_rewrite(self, model, graph, node, *args, **kwargs):
        delta = try_rewrite(self, model, graph, node, *args, **kwargs)
        if delta is not None and kwargs.get("tracer") is None and id(self) in names:
            written = self.name and delta.new_nodes
            tag = " (rule-name tag written)" if written else " (no rule-name tag: the rule writes none)"
            out.setdefault(
                key(TOOL, "rule", names[id(self)]),
                f"{label[0]}: try_rewrite replaced {node.op_type} node '{node.name}'{tag}",
            )
        return delta

    def traced_replace(self, node, replacement, root):
        op = f"{node.domain or 'ai.onnx'}::{node.op_type}"
        name = op if op in partial else GENERIC_FOLD
        effect = f"{label[0]}: FoldConstantsPass replaced {node.op_type} node '{node.name}'"
        out.setdefault(key(TOOL, "fold", name), effect)
        return replace_node(self, node, replacement, root)

    _rewrite_rule.RewriteRule.try_rewrite = traced_rewrite
    _constant_folding.FoldConstantsPass.replace_node = traced_replace
    try:
        yield
    finally:
        _rewrite_rule.RewriteRule.try_rewrite = try_rewrite
        _constant_folding.FoldConstantsPass.replace_node = replace_node


def triggers(model) -> dict[str, str]:
    """Entry key → effect for every rule, fusion and fold that ``optimize``, ``rewrite`` (default and
    opt-in rules), ``onnx_fusions.fuse`` and ``optimize_for_ort`` apply to ``model`` (a pipeline that
    raises contributes what it did before)."""
    import onnxscript.optimizer
    import onnxscript.rewriter
    from onnxscript.rewriter.ort_fusions import _core

    from passcheck.passes import onnxscript_ir

    ir = onnxscript_ir.ir_module()

    out: dict[str, str] = {}
    label = [""]
    with _recording(out, label):
        pipelines = (
            ("onnxscript:rewrite", onnxscript.rewriter.rewrite),
            ("onnxscript:optimize", onnxscript.optimizer.optimize),
            (
                "onnxscript:rewrite-opt-in",
                lambda m: onnxscript.rewriter.rewrite(m, pattern_rewrite_rules=onnxscript_rules.opt_in_rules()),
            ),
        )
        for label[0], run in pipelines:
            with contextlib.suppress(Exception):  # the tool failing on a base is a finding elsewhere, not an effect
                run(model)
        label[0] = "onnxscript:onnx-fusions"
        with contextlib.suppress(Exception):
            from onnxscript.rewriter.onnx_fusions import fuse

            fuse(ir.serde.deserialize_model(model))
        label[0] = "onnxscript:optimize-for-ort"
        with contextlib.suppress(Exception):
            m = ir.serde.deserialize_model(model)
            onnxscript.rewriter.rewrite(m, [_gemm_rule(_core)])
            m, counts = _core.fuse_xformers(m)
            onnxscript.rewriter.rewrite(m, _core.ORT_PATTERN_REWRITE_RULES)
            for name, n in counts.items():
                if n:
                    effect = f"onnxscript:optimize-for-ort: fuse_xformers counted {name} = {n}"
                    out.setdefault(key(TOOL, "fusion", name), effect)
    return out
