"""Missed folding: a pass that folds constants left a value computable before any run.

Two kinds of node are judged in the pass output:

- *shape-derived*: (1) none of its inputs depend on tensor *data* — only on initializers,
  constants, and graph-input *shapes* through Shape/Size; (2) it depends on some graph input's
  shape; (3) every one of its outputs is identical (dtype, shape, values) across all runs, i.e.
  across every binding of the symbolic dims and every feed. This is how a slice of a shape whose
  selected dims are static (seed 003, §2) shows up.
- *constant-only*: every input is a constant — an initializer that no graph input overrides, a
  Constant node's output, or the output of another constant-only node (issue 18.2); such a value
  is the same in every run by construction. Constant nodes themselves are already folded; ops
  tools keep on purpose (:data:`KEPT_ON_PURPOSE`) are left out.

Both kinds judge a node whose output is a graph output like any other: a graph output may be an
initializer or a Constant's output (onnxruntime's ConstantFolding makes a folded graph output an
initializer; seed 003 §2 folds ``Shape(x, start, end)`` whether it feeds a Reshape or is the output),
so a graph output that still needs a value is no reason to leave it computed. A value a non-foldable
reader needs is folded into a constant that reader reads (seed 003 §2: the Shape slice feeding a
Reshape), so it is no reason either.

Either way, a node is named only when (4) no input of it comes from another judged node (the first
node of each foldable chain), its op is deterministic and it has no subgraph. The Casts onnxruntime
inserts around a kernel it lacks for an element type are not named (kernel coverage, not a fold the pass
missed: :func:`~passcheck.oracles.ort_own_ops.inserted_casts`, the parity oracle's rule); a node reading
one is judged as if it read the constant.
"""

from __future__ import annotations

import numpy as np

from passcheck.oracles import frozen_draws
from passcheck.oracles._context import FormRun, op_key
from passcheck.oracles._contract import BaseOracle, Cells
from passcheck.oracles.numeric import random_functions
from passcheck.oracles.ort_own_ops import inserted_casts
from passcheck.records import Finding
from passcheck.runtime.graph_index import index_of, per_model

NAME = "folding"
SHAPE_OPS = {"Shape", "Size"}
NONDETERMINISTIC = {
    "RandomNormal",
    "RandomUniform",
    "RandomNormalLike",
    "RandomUniformLike",
    "Multinomial",
    "Bernoulli",
}
MAX_ELEMENTS = 1 << 16
#: Ops folding tools keep on purpose when their inputs are constants (onnxscript's
#: DEFAULT_CONSTANT_FOLD_BLACKLIST: ConstantOfShape would grow the model, Q/DQ carry quantization);
#: their outputs do not count as constants here.
KEPT_ON_PURPOSE = {"ConstantOfShape", "QuantizeLinear", "DequantizeLinear", "DynamicQuantizeLinear"}


def shape_derived(model) -> list[tuple[int, object]]:
    """(index, node) of main-graph nodes whose inputs depend on graph-input *shapes* only
    (through Shape/Size), never on tensor data: the values a folding pass could compute once
    the dims they select are known. Static analysis; graph.node is topologically sorted."""
    return [(i, model.graph.node[i]) for i in _shape_derived(model)]


@per_model
def _shape_derived(model) -> list[int]:
    idx = index_of(model)
    if not any(n.op_type in SHAPE_OPS for n in idx.nodes):
        return []  # nothing reads a shape
    drawing = random_functions(model)  # calls whose bodies draw (IR.md §Functions)
    data = set(idx.inputs) - idx.initializers
    shape_dep: set[str] = set()
    out = []
    for i, node in enumerate(idx.nodes):
        if node.op_type in SHAPE_OPS and node.domain in ("", "ai.onnx"):
            is_data, is_shape = False, True
        else:
            ins = [x for x in node.inputs if x]
            is_data = node.subgraph or any(x in data for x in ins)
            is_shape = any(x in shape_dep for x in ins)
        if node.op_type in NONDETERMINISTIC or (node.domain, node.op_type) in drawing:
            is_data = True
        if is_data or is_shape:
            (data if is_data else shape_dep).update(o for o in node.outputs if o)
        if not is_data and is_shape and node.outputs:
            out.append(i)
    return out


def constant_only(model) -> list[tuple[int, object]]:
    """(index, node) of main-graph nodes whose every input is a constant (an initializer no graph
    input overrides, a Constant node's output, or another such node's output), excluding
    Constant nodes, random ops and calls of model-local functions holding one, :data:`KEPT_ON_PURPOSE`
    ops and nodes with subgraphs (a node writing a graph output is one, as in :func:`shape_derived`).
    Static analysis; graph.node is topologically sorted."""
    return [(i, model.graph.node[i]) for i in _constant_only(model)]


@per_model
def _constant_only(model) -> list[int]:
    idx = index_of(model)
    const = set(idx.initializers) - set(idx.inputs)
    skip = NONDETERMINISTIC | KEPT_ON_PURPOSE
    drawing = random_functions(model)  # calls whose bodies draw (IR.md §Functions)
    out = []
    for i, node in enumerate(idx.nodes):
        if node.op_type == "Constant" and node.domain in ("", "ai.onnx"):
            const.update(o for o in node.outputs if o)
            continue
        ins = [x for x in node.inputs if x]
        if not ins or node.op_type in skip or (node.domain, node.op_type) in drawing or node.subgraph:
            continue
        if not all(x in const for x in ins):
            continue
        const.update(o for o in node.outputs if o)
        out.append(i)
    return out


def values_to_observe(model) -> list[str]:
    """Output names of :func:`shape_derived` and :func:`constant_only` nodes (what this oracle
    needs from a run)."""
    nodes = index_of(model).nodes
    return list(dict.fromkeys(o for i in _shape_derived(model) + _constant_only(model) for o in nodes[i].outputs if o))


def foldable_nodes(
    model, runs, *, shape_facts: bool = True, skip: frozenset[str] = frozenset()
) -> list[tuple[int, object, list]]:
    """(index, node, outputs' values) of the first node of each missed-folding chain.

    ``shape_facts``: also judge shape-derived nodes (needs runs over bindings that varied every
    symbolic dim); constant-only nodes are judged from any number of runs. ``skip``: names of nodes
    never named, whose outputs do not make a reader a chain's second node.
    """
    candidates: set[str] = set()
    found = []
    judged = sorted(constant_only(model) + (shape_derived(model) if shape_facts else []), key=lambda p: p[0])
    for idx, node in judged:
        if node.name and node.name in skip:
            continue
        values = [_invariant(o, runs) for o in node.output if o]
        if any(v is None for v in values):
            continue
        if not any(i in candidates for i in node.input if i):
            found.append((idx, node, values))
        candidates.update(o for o in node.output if o)
    return found


def _dims_vary(model, feeds) -> bool:
    """True when every non-static input dim took at least two sizes across the runs: only then
    does "the same value in every run" mean "independent of the symbolic dims"."""
    for vi in model.graph.input:
        tt = vi.type.tensor_type if vi.type.HasField("tensor_type") else None
        if tt is None or not tt.HasField("shape"):
            continue
        for axis, d in enumerate(tt.shape.dim):
            if d.HasField("dim_value"):
                continue
            sizes = {np.shape(f[vi.name])[axis] for f in feeds if vi.name in f and np.ndim(f[vi.name]) > axis}
            if len(sizes) == 1:
                return False
    return True


def _invariant(name: str, runs):
    first = None
    for r in runs:
        if name not in r.observed:
            return None
        v = r.observed[name]
        if not isinstance(v, np.ndarray) or v.size > MAX_ELEMENTS:
            return None
        if first is None:
            first = v
        elif v.dtype != first.dtype or v.shape != first.shape or not np.array_equal(v, first):
            return None
    return first


def check(run: FormRun) -> list[Finding]:
    out = run.output
    if out is None or not run.folds_constants:
        return []
    runs = [r for r in run.runs if not r.error]
    if not runs:
        return []
    # a pass whose source folds only all-constant nodes promises nothing of shape-derived values (folds_shapes)
    fed = [f for f, r in zip(run.feeds, run.runs) if not r.error]
    shape_facts = run.folds_shapes and len(runs) >= 2 and _dims_vary(run.model, fed)
    constants = {idx for idx, _ in constant_only(out)}
    found = []
    skip = frozenset(inserted_casts(run.model, out))
    for idx, node, values in foldable_nodes(out, runs, shape_facts=shape_facts, skip=skip):
        shown = ", ".join(np.array2string(v, threshold=8) for v in values)
        label = node.name or f"#{idx}"
        source = "constants" if idx in constants else "shapes"
        why = "reads only constants and always yields" if source == "constants" else "always yields"
        found.append(
            run.finding(
                "missed-optimization",
                NAME,
                f"{op_key(node)} node {label!r} {why} {shown} (same for every binding) "
                f"but {run.pass_id} did not fold it",
                node=node.name,
                node_index=idx,
                op_type=op_key(node),
                outputs=list(node.output),
                value=[v.tolist() for v in values],
                inputs=source,
            )
        )
    return found


class Folding(BaseOracle):
    """``missed-optimization``: a static-shape value a folding pass left (see :func:`check`); ``wrong-result``: a
    draw any pass froze into a constant (:mod:`passcheck.oracles.frozen_draws`)."""

    id = NAME

    def observes(self, model) -> list[str]:
        return values_to_observe(model)

    def check(self, run: FormRun, cells: Cells) -> list[Finding]:
        return check(run) + frozen_draws.check(run)


ORACLE = Folding()
