"""Where a pass acted on a base, and the single-site forms of that base ranked by it.

A bug hides where a pass *acts*: inside a pattern onnxruntime fuses or eliminates, on the nodes an
onnxscript rule rewrites, on the values whose type shape inference changes. A base's own run under a
pass shows that set (:func:`acted_on`); the hunt then offers, for each rewrite with sites, the sites
touching it first (:func:`guided_forms`): inside before boundary before elsewhere, with a share
(:data:`INPUT_SHARE`) kept for the region's inputs.

**Which run.** The ``common`` cell of the base's first item under the pass (:mod:`.probe`: no extra
run) when that item is not a single-site form; when it is, its site is chosen by the set, so the pass
runs once on the base before it (:func:`compute`), as it does in every shard that walks past such an
item without running it and in a resumed hunt whose state lacks the set (the item's record keeps it,
``acted``).

**The acted-on set** of ``before`` (the base) and ``after`` (the pass's output), main graph only:

- *nodes*: a base node is acted on when one of its outputs is produced in ``after`` by no node of the
  same op type and domain (removed, folded into an initializer, fused into another op), when the node
  producing it there reads other inputs (rewired), or when its name is gone from ``after`` whose nodes
  are named;
- *inside*: values an acted-on node writes and another acted-on node reads (the edges of the pattern);
- *boundary*: the other values acted-on nodes read or write.

A pass that changes no node (shape inference, an annotating pass) acts through types: every value
whose type in ``after`` (``graph.input``/``output``/``value_info``) differs from its annotation in
``before``, or that ``before`` does not annotate, is *inside* (``ValueInfoProto.type``, ONNX IR spec
"Names Within a Graph" / value_info), the nodes writing one are acted on (their inference function
gave it), and the other values those nodes read are the boundary.

**The region's inputs** (round 14h, M243): the values the acted-on nodes read and none of them writes
(:func:`region_inputs`). A pass matches a pattern through its boundary as much as through its inside:
onnxruntime's fusions read the node producing an input (``Node::InputEdges``: its op, its output index,
its other readers), onnx's inference reads the input's type. Ranked by place alone, a rewrite with many
sites inside never reaches an input (one per neutral op and value: 27 at the fused Gemm's inside value
``g`` of ``pattern-ort/gemm-sum`` fill all three slots), so :data:`INPUT_SHARE` of each rewrite's guided
sites (at least one) go to sites touching an input, drawn by the same seeded hash.

**Site labels** are read as strings (the registry's site lists, :func:`passcheck.mutations.forms.sites`):
a label names a node (its name or ``#<index>:<OpType>``, :func:`passcheck.mutations._base.node_label`)
or a value when, in any part split at ``->``, the part or its prefix before a ``:`` is that name
(``x``, ``#3:Mul``, ``x:add-zero``, ``x->#0:Div:add-zero``).
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from passcheck.mutations import forms as hforms
from passcheck.mutations._base import node_label

if TYPE_CHECKING:
    import onnx

#: Where a site lies: touching an acted-on node or inside value, a boundary value, neither.
INSIDE, BOUNDARY, ELSEWHERE = 2, 1, 0
#: Of a rewrite's guided single sites, the share (at least one) touching the region's inputs (module docs).
INPUT_SHARE = 1 / 3


@dataclasses.dataclass(frozen=True)
class Acted:
    """The acted-on set of one base under one pass (see module docs): node labels, inside and boundary
    value names. Empty (falsy): the pass changed nothing, failed, or was not run."""

    nodes: frozenset[str] = frozenset()
    inside: frozenset[str] = frozenset()
    boundary: frozenset[str] = frozenset()

    def __bool__(self) -> bool:
        return bool(self.nodes or self.inside)

    def to_json(self) -> dict[str, list[str]]:
        return {"nodes": sorted(self.nodes), "inside": sorted(self.inside), "boundary": sorted(self.boundary)}

    @classmethod
    def from_json(cls, data: Mapping[str, Iterable[str]]) -> Acted:
        return cls(*(frozenset(data.get(k, ())) for k in ("nodes", "inside", "boundary")))


def acted_on(before: onnx.ModelProto, after: onnx.ModelProto | None) -> Acted:
    """The acted-on set of ``before`` under a pass whose output is ``after`` (None: no output, empty)."""
    if after is None:
        return Acted()
    made = {o: n for n in after.graph.node for o in n.output if o}
    named_after = {n.name for n in after.graph.node if n.name}
    nodes: dict[str, Any] = {}
    for i, n in enumerate(before.graph.node):
        outs = [o for o in n.output if o]
        gone = bool(n.name) and bool(named_after) and n.name not in named_after
        for o in outs:
            m = made.get(o)
            if m is None or (m.op_type, m.domain) != (n.op_type, n.domain) or list(m.input) != list(n.input):
                gone = True
        if gone:
            nodes[node_label(n, i)] = n
    if not nodes:  # acted through types: the nodes writing a retyped value, those values, what the nodes read
        retyped = _retyped(before, after)
        writers = [(i, n) for i, n in enumerate(before.graph.node) if retyped & set(n.output)]
        read = {x for _, n in writers for x in n.input if x} - retyped
        return Acted(frozenset(node_label(n, i) for i, n in writers), frozenset(retyped), frozenset(read))
    written = {o for n in nodes.values() for o in n.output if o}
    read = {i for n in nodes.values() for i in n.input if i}
    inside = written & read
    return Acted(frozenset(nodes), frozenset(inside), frozenset((written | read) - inside))


def _retyped(before: onnx.ModelProto, after: onnx.ModelProto) -> set[str]:
    """Values whose type in ``after`` differs from (or is absent in) ``before``'s annotations."""

    def types(g) -> dict[str, bytes]:
        return {v.name: v.type.SerializeToString() for v in [*g.input, *g.output, *g.value_info]}

    old = types(before.graph)
    return {name for name, t in types(after.graph).items() if old.get(name) != t}


def names(model: onnx.ModelProto) -> set[str]:
    """The node labels and value names of ``model``'s main graph a site label may name."""
    g = model.graph
    out = {node_label(n, i) for i, n in enumerate(g.node)}
    out |= {v.name for v in [*g.input, *g.output, *g.value_info]} | {t.name for t in g.initializer}
    return out | {x for n in g.node for x in [*n.input, *n.output] if x}


def region_inputs(model: onnx.ModelProto, acted: Acted) -> frozenset[str]:
    """The values of ``model``'s main graph that the nodes of ``acted`` read and none of them writes (a graph
    input, an initializer, a value from a node the pass left alone; an omitted optional input ``""`` left out).
    Empty when ``acted`` is. Raises nothing."""
    nodes = [n for i, n in enumerate(model.graph.node) if node_label(n, i) in acted.nodes]
    written = {o for n in nodes for o in n.output if o}
    return frozenset(x for n in nodes for x in n.input if x and x not in written)


def touched(label: str, known: set[str]) -> set[str]:
    """The names of ``known`` that site ``label`` names (see module docs)."""
    out = set()
    for part in label.split("->"):
        if part in known:
            out.add(part)
        at = part.find(":")
        while at >= 0:
            if part[:at] in known:
                out.add(part[:at])
            at = part.find(":", at + 1)
    return out


def place(label: str, acted: Acted, known: set[str]) -> int:
    """:data:`INSIDE`, :data:`BOUNDARY` or :data:`ELSEWHERE` for a site ``label`` of a model whose
    :func:`names` are ``known``."""
    hit = touched(label, known)
    if hit & (acted.nodes | acted.inside):
        return INSIDE
    return BOUNDARY if hit & acted.boundary else ELSEWHERE


def guided_forms(model: onnx.ModelProto, forms: Sequence[str], acted: Acted, key: str) -> list[str]:
    """``forms`` (a base's forms, :meth:`.space.Base.forms`) with each rewrite's single-site forms
    replaced by as many of its sites, ranked by :func:`place` (ties by a hash of ``key`` and the label:
    the same for a seed), :data:`INPUT_SHARE` of them (at least one) taken among the sites touching
    :func:`region_inputs` when any does; a rewrite none of whose sites touches ``acted``, or an empty
    ``acted``, keeps its sampled sites (the uniform draw)."""
    if not acted:
        return list(forms)
    known = names(model)
    inputs = region_inputs(model, acted)
    single: dict[str, list[str]] = {}
    for f in forms:
        if len(p := hforms.parts(f)) == 1 and p[0][1] is not None:
            single.setdefault(p[0][0], []).append(f)
    out: list[str] = []
    for f in forms:
        rid = hforms.parts(f)[0][0]
        if f not in single.get(rid, ()):
            out.append(f)
        elif f == single[rid][0]:
            out += _ranked(model, rid, single[rid], acted, known, key, inputs)
    return out


def _ranked(
    model, rid: str, sampled: list[str], acted: Acted, known: set[str], key: str, inputs: frozenset[str]
) -> list[str]:
    try:
        labels = hforms.sites(model, rid)
    except Exception:  # noqa: BLE001 - a rewrite that cannot list this model's sites keeps its sample
        return sampled
    where = {s: place(s, acted, known) for s in labels}
    if not any(where.values()):
        return sampled
    order = sorted(labels, key=lambda s: (-where[s], _tie(key, rid, s)))
    k = len(sampled)
    at_input = sorted((s for s in labels if touched(s, known) & inputs), key=lambda s: _tie(key, rid, "in", s))
    share = min(max(1, round(k * INPUT_SHARE)), len(at_input))
    top = order[: k - share]
    extra = [s for s in at_input if s not in top][:share]
    top += [s for s in order[k - share :] if s not in extra][: k - len(top) - len(extra)]
    return [f"{rid}@{s}" for s in [*top, *extra]]


def _tie(*parts: object) -> int:
    return int.from_bytes(hashlib.blake2b(repr(parts).encode(), digest_size=8).digest(), "big")


def from_runs(runs: Sequence[Any], model: onnx.ModelProto, form: str, pass_id: str) -> Acted | None:
    """The acted-on set of ``model`` (the form ``form``) from its run under ``pass_id`` among ``runs``
    (:class:`~passcheck.oracles.FormRun`, as :func:`passcheck.engine.evaluate` records them): no pass run
    there, None; an output it cannot run, none (what :func:`compute` gives too)."""
    for r in runs:
        if r.form == form and r.pass_id == pass_id:
            return acted_on(model, r.outcome.model if r.outcome.ok else None)
    return None


def compute(model: onnx.ModelProto, pass_id: str, executor) -> Acted:
    """The acted-on set of ``model`` under ``pass_id``, the pass run once in ``executor`` (an
    :class:`~passcheck.passes.isolation.IsolatedExecutor`): what a shard that did not run the base's
    item under the pass (or a resumed hunt) needs to choose the same forms. A pass that declines the
    model, fails, or gives an output this onnxruntime cannot run (as :func:`passcheck.engine.evaluate`
    judges it) acted on nothing."""
    import tempfile
    from pathlib import Path

    from passcheck.passes import get_pass
    from passcheck.runtime.limits import beyond_onnxruntime

    adapter = get_pass(pass_id)
    try:
        if adapter.why_not(model):
            return Acted()
    except Exception:  # noqa: BLE001 - a precondition that raises: the pass does not run (evaluate's crashed cell)
        return Acted()
    with tempfile.TemporaryDirectory(prefix="passcheck-guide-") as tmp:
        outcome = executor(adapter, model, Path(tmp))
    if not outcome.ok or beyond_onnxruntime(outcome.model):
        return Acted()
    return acted_on(model, outcome.model)
