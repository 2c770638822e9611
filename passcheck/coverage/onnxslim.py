"""onnxslim's optimizations (``onnxslim.slim``: the ``onnxslim:slim`` pass and the ``cmd+fold:onnxslim`` recipe),
and which a model triggers.

Catalogue, read from the installed package:

- one ``fusion`` entry per name in onnxslim's pattern registry
  (``onnxslim.core.pattern.registry.DEFAULT_FUSION_PATTERNS``: the fusions and eliminations ``slim`` runs by
  default, ``FusionGemm``, ``FusionReduce``, ``EliminationSlice`` …; a name maps to one matcher or, from
  0.1.93, to a list of opset-bracketed matchers). Its scope is the op types the matcher's own ``Pattern`` text
  declares (``MatMul  matmul_0 2 1 input ? add_0`` → ``MatMul``), the pattern's ``input`` / ``output`` rows
  left out;
- one ``pass`` entry per step of ``optimize_model`` that rewrites nodes whatever their op type, each switchable
  by ``OptimizationSettings`` (``skip_optimizations``): ``constant_folding`` (onnx_graphsurgeon's
  ``Graph.fold_constants``), ``dead_node_elimination`` and ``subexpression_elimination``; and ``shape_infer``
  (``onnxslim.core.shape_infer``: onnxruntime's symbolic shape inference as onnxslim vendors it, onnx's on its
  failure), which ``slim`` runs after each round unless ``no_shape_infer``.

Evidence, by effect, while ``slim`` runs on a copy of the model with its defaults (as the pass runs it): a
pattern triggered when its matcher's ``rewrite`` returned a replacement (``find_matches`` then splices it in),
the effect naming the first op type of its pattern (``replaced MatMul node``, the wording
:mod:`passcheck.hunt.nearness` reads op types from); a step triggered when the graph has fewer live nodes
(nodes with an output) after the call than before; ``shape_infer`` triggered when the model it returns states a
shape for at least one value (graph output or value_info), the effect counting them. A run that raises keeps the
evidence seen before it (its failure is a finding of the hunt, not an effect). Run through
``IsolatedExecutor.call``: the matchers and the module functions are patched for the duration of the call and
restored after.
"""

from __future__ import annotations

import contextlib
import importlib
from collections.abc import Callable, Iterator
from typing import Any

from passcheck.coverage.entry import Entry, key

TOOL = "onnxslim"
#: The pass ids that run ``slim`` with its defaults.
PASSES = ("onnxslim:slim", "cmd+fold:onnxslim")
#: ``optimize_model``'s steps that act on any op (``OptimizationSettings`` keys) → where the call is looked up.
STEPS = {
    "dead_node_elimination": "onnxslim.core.optimization",
    "subexpression_elimination": "onnxslim.core.optimization",
}
FOLD = "constant_folding"
SHAPES = "shape_infer"
_SOURCE = "onnxslim.core.pattern.registry.DEFAULT_FUSION_PATTERNS (installed: matcher Pattern text)"


def _matchers() -> dict[str, list[Any]]:
    """Registry name → its matcher instances (a single matcher in releases before the opset-bracketed lists)."""
    from onnxslim.core.pattern.registry import DEFAULT_FUSION_PATTERNS

    return {name: list(m) if isinstance(m, list) else [m] for name, m in DEFAULT_FUSION_PATTERNS.items()}


def pattern_ops(matcher: Any) -> tuple[str, ...]:
    """The op types a matcher's ``Pattern`` declares, in pattern order, without its ``input`` / ``output`` rows."""
    nodes = getattr(getattr(matcher, "pattern", None), "nodes", ())
    ops = [n.op for n in nodes if n.op not in ("input", "output")]
    return tuple(dict.fromkeys(ops))


def catalogue() -> list[Entry]:
    """The entries of the installed onnxslim (see module docs)."""
    out = []
    for name, matchers in _matchers().items():
        ops = tuple(dict.fromkeys(op for m in matchers for op in pattern_ops(m)))
        scope = f"ops {', '.join(ops)}" if ops else "any op"
        out.append(Entry(TOOL, "fusion", name, PASSES, scope, _SOURCE))
    for step in (FOLD, *STEPS):
        where = "Graph.fold_constants" if step == FOLD else f"{STEPS[step]}.{step}"
        src = f"onnxslim.core.optimization.OptimizationSettings.{step} ({where})"
        out.append(Entry(TOOL, "pass", step, PASSES, "any op", src))
    out.append(
        Entry(TOOL, "pass", SHAPES, PASSES, "any op", "onnxslim.core.shape_infer (run by slim after each round)")
    )
    return out


def _stated(model: Any) -> int:
    """Values of ``model``'s main graph whose type states a shape (graph outputs and value_info)."""
    return sum(
        1
        for vi in [*model.graph.output, *model.graph.value_info]
        if vi.type.HasField("tensor_type") and vi.type.tensor_type.HasField("shape")
    )


def _live(graph: Any) -> int:
    return sum(1 for n in graph.nodes if n.outputs)


@contextlib.contextmanager
def _recording(seen: dict[str, str]) -> Iterator[None]:
    """Matchers' ``rewrite`` and the any-op steps wrapped to record their effects in ``seen`` (module docs)."""
    undo: list[Callable[[], None]] = []

    def wrap_rewrite(name: str, matcher: Any) -> None:
        original = matcher.rewrite
        op = (pattern_ops(matcher) or ("?",))[0]

        def rewrite(*args, **kwargs):
            got = original(*args, **kwargs)
            if got:
                seen.setdefault(key(TOOL, "fusion", name), f"{name} replaced {op} node ({len(got)} nodes written)")
            return got

        matcher.rewrite = rewrite
        undo.append(lambda: matcher.__dict__.pop("rewrite", None))

    def wrap_step(step: str, holder: Any, attr: str, graph_of: Callable[..., Any]) -> None:
        original = getattr(holder, attr)

        def call(*args, **kwargs):
            graph = graph_of(*args, **kwargs)
            before = _live(graph)
            got = original(*args, **kwargs)
            after = _live(graph)
            if after < before:
                seen.setdefault(key(TOOL, "pass", step), f"{step}: live nodes {before}→{after}")
            return got

        setattr(holder, attr, call)
        undo.append(lambda: setattr(holder, attr, original))

    try:
        for name, matchers in _matchers().items():
            for m in matchers:
                wrap_rewrite(name, m)
        for step, module in STEPS.items():
            wrap_step(step, importlib.import_module(module), step, lambda graph, *a, **k: graph)
        from onnxslim.third_party.onnx_graphsurgeon.ir.graph import Graph

        wrap_step(FOLD, Graph, "fold_constants", lambda self, *a, **k: self)
        core = importlib.import_module("onnxslim.core")
        infer = core.shape_infer

        def shape_infer(model, *args, **kwargs):
            got = infer(model, *args, **kwargs)
            if (n := _stated(got)) > 0:
                seen.setdefault(key(TOOL, "pass", SHAPES), f"{SHAPES}: {n} values with a stated shape")
            return got

        core.shape_infer = shape_infer
        undo.append(lambda: setattr(core, "shape_infer", infer))
        yield
    finally:
        for restore in reversed(undo):
            restore()


def triggers(model) -> dict[str, str]:
    """Entry key → effect for every pattern and step ``slim`` applied to ``model`` (module docs)."""
    import onnx
    import onnxslim

    copy = onnx.ModelProto()
    copy.CopyFrom(model)
    seen: dict[str, str] = {}
    with _recording(seen), contextlib.suppress(Exception):  # a failing run is a finding elsewhere, not an effect
        onnxslim.slim(copy)
    return seen
