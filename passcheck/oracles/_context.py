"""What oracles read: one form's input model, the pass outcome, and the runs of both."""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from passcheck.records import Finding
from passcheck.runtime.graph_index import per_model

if TYPE_CHECKING:
    import onnx

    from passcheck.passes import PassOutcome
    from passcheck.runtime import RunResult


@dataclasses.dataclass(frozen=True)
class Expected:
    """The outputs a source document states for the feeds (a case's
    :class:`~passcheck.case_model.Reference`, loaded).

    Attributes:
        outputs: one dict per run (graph output name → value), in feed order.
        source: where they come from, for messages (``onnx 1.23.2 backend node test test_abs``).
        rtol / atol: the tolerance the source compares at.
    """

    outputs: list[dict[str, Any]]
    source: str
    rtol: float
    atol: float


@dataclasses.dataclass
class FormRun:
    """One form under one pass.

    Attributes:
        model: the form as built (the pass input).
        outcome: what the pass returned.
        feeds: one feed dict per binding (the same for every form of a case).
        baseline: runs of ``model`` itself, unoptimized, one per binding.
        runs: runs of the pass output, one per binding, every node output observed
            (empty when the pass failed).
        folds_constants: whether the pass is expected to fold constants.
        optimizes: whether the pass rewrites the graph (op-type parity applies).
        checker: ``model → message | None``, how the validity oracle runs the onnx checker (the
            engine's :class:`~passcheck.oracles.validity.Checker`: in the isolated worker); None:
            in this process.
        expected: the outputs a source states for the feeds (None: none stated).
        precision: the element type the pass declares it stores floats in (``Capabilities.precision``), or
            None; the numeric oracle's tolerance follows it.
        by_type: the op types the pass declares it treats by type alone (``PassAdapter.by_type``: a block list,
            a quantizer's registry); parity does not compare new op types of forms that differ in them.
        writes_given_unchanged: the pass writes the graph it was given, declarations verbatim, when it rewrote
            nothing (``PassAdapter.writes_given_unchanged``): such an output says nothing of the pass's inference.
        folds_shapes: the pass folds values computed from graph-input shapes (``PassAdapter.folds_shapes``); False
            for a folding pass whose own source folds only all-constant nodes (onnx-tool) or that is told to leave
            them (Polygraphy's ``--no-fold-shapes``): the folding oracle then judges its constant-only chains only.
        clears: the descriptions of the model itself the pass states it removes (``PassAdapter.clears``).
        fixes: what a pass that fixes a binding states it fixed (an input and an axis and a size, or an input and
            a shape: :attr:`passcheck.passes.ort_dim_fix.DimFixAdapter.fixes`), or None;
            ``feeds``, ``baseline`` and ``runs`` then hold the runs that agree with the fix only.
    """

    case: str
    form: str
    pass_id: str
    model: onnx.ModelProto
    outcome: PassOutcome
    feeds: list[dict[str, Any]]
    baseline: list[RunResult]
    runs: list[RunResult]
    folds_constants: bool = False
    optimizes: bool = False
    env: str = "local"
    rtol: float | None = None
    atol: float | None = None
    unknown_dim_param: str | None = None  # regex of dim_param names that mean "unknown" (annotations)
    checker: Callable[[onnx.ModelProto], str | None] | None = None
    expected: Expected | None = None
    precision: str | None = None
    by_type: frozenset[str] = frozenset()
    writes_given_unchanged: bool = False
    folds_shapes: bool = True
    fixes: Mapping[str, Any] | None = None
    clears: frozenset[str] = frozenset()

    def finding(self, kind: str, oracle: str, message: str, **details: Any) -> Finding:
        return Finding(kind, oracle, self.case, self.form, self.pass_id, message, details, env=self.env)

    @property
    def output(self) -> onnx.ModelProto | None:
        return self.outcome.model if self.outcome.ok else None


def op_key(node: onnx.NodeProto) -> str:
    return node.op_type if node.domain in ("", "ai.onnx") else f"{node.domain}::{node.op_type}"


def op_counts(model: onnx.ModelProto) -> Counter:
    """A new :class:`~collections.Counter` (the caller may change it) of :func:`_counted`: read once per model object
    inside a :func:`passcheck.runtime.graph_index.shared` block (the engine judges a subject in one), where the
    parity oracle asks again for every pair of forms and every pass output."""
    return Counter(_counted(model))


@per_model
def _counted(model: onnx.ModelProto) -> Counter:
    """Op-type multiset of what the model computes (``domain::op`` outside the default domain): the main
    graph's nodes and every subgraph's (If/Loop/Scan bodies, at any depth), a call of a model-local
    function counted as its body's nodes (calls inside bodies too). A pass optimizes bodies and inlines
    local functions (IR.md §Functions), so a fusion made inside both branches of an If, or ops a pass
    inlined from a call, are what the model computed before as well, not new ops. A function called
    from its own body (the IR forbids it) is counted as the call."""
    bodies = {(f.domain, f.name): f.node for f in model.functions}
    counts: Counter = Counter()

    def walk(nodes, calls: frozenset) -> None:
        for n in nodes:
            key = (n.domain, n.op_type)
            if key in bodies and key not in calls:
                walk(bodies[key], calls | {key})
                continue
            counts[op_key(n)] += 1
            for a in n.attribute:
                if a.HasField("g"):
                    walk(a.g.node, calls)
                for sub in a.graphs:
                    walk(sub.node, calls)

    walk(model.graph.node, frozenset())
    return counts
