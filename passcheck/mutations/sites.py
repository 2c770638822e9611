"""Which sites of a rewrite are tried: what a pass's pattern matcher sees at each site
(:func:`site_signatures`, so one site per signature stands for the rest), a seeded sample of at
most ``k`` sites kept in model order (:func:`_sample`, optionally the heaviest signatures first),
and the sites next to each other (:func:`_neighbours`: a node, the values it reads or writes, the
nodes joined to it by an edge), so pairs of single-site forms are tried near each other first.
:mod:`passcheck.mutations.registry` draws the single-site and pair forms of a model with these.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from passcheck.mutations._base import node_label

if TYPE_CHECKING:
    import onnx


def _sample(
    labels: Sequence[str],
    k: int,
    seed: int,
    salt: str,
    signature: Mapping[str, object] | None,
    rank: Callable[[object], float] | None = None,
) -> list[str]:
    """At most ``k`` of ``labels``, picked by ``seed`` and kept in model order. With ``signature``
    (label → key), one label per distinct key, then at most ``k`` of those. With ``rank``
    (signature key → weight), the ``k`` kept are those of the heaviest keys (ties: by ``seed``)."""
    rng = random.Random(f"{seed}/{salt}")
    if signature is not None:
        groups: dict[object, list[str]] = {}
        for label in labels:
            groups.setdefault(signature.get(label, label), []).append(label)
        chosen = {rng.choice(g) for g in groups.values()}
        labels = [label for label in labels if label in chosen]
    if len(labels) <= k:
        return list(labels)
    if rank is not None and signature is not None:
        order = sorted(range(len(labels)), key=lambda i: (-rank(signature.get(labels[i], labels[i])), rng.random()))
        return [labels[i] for i in sorted(order[:k])]
    picked = rng.sample(range(len(labels)), k)
    return [labels[i] for i in sorted(picked)]


def site_signatures(model: onnx.ModelProto) -> dict[str, tuple]:
    """Site label → what a pass's pattern matcher sees there: for a node, its op type and its
    readers' op types; for a value or initializer, its producer's op type (``input`` /
    ``initializer``) and its readers' op types. Sites with one signature tend to meet one rule.
    A rewrite whose labels are not these (an edge, a step on a value) reads the map through its
    own hook (:meth:`passcheck.mutations._base.Rewrite.signature`)."""
    g = model.graph
    readers: dict[str, set[str]] = {}
    for n in g.node:
        for x in n.input:
            if x:
                readers.setdefault(x, set()).add(n.op_type)
    made_by = {v.name: "input" for v in g.input} | {t.name: "initializer" for t in g.initializer}
    out: dict[str, tuple] = {}
    for i, n in enumerate(g.node):
        out[node_label(n, i)] = ("node", n.op_type, tuple(sorted({op for o in n.output for op in readers.get(o, ())})))
        made_by.update((o, n.op_type) for o in n.output if o)
    for name, kind in made_by.items():
        out.setdefault(name, ("value", kind, tuple(sorted(readers.get(name, ())))))
    return out


def _neighbours(model: onnx.ModelProto) -> dict[str, set[str]]:
    """Site label → labels next to it: a node and the values it reads or writes, and nodes joined by an edge."""
    g = model.graph
    near: dict[str, set[str]] = {}
    producer = {o: node_label(n, i) for i, n in enumerate(g.node) for o in n.output if o}
    for i, n in enumerate(g.node):
        me = node_label(n, i)
        for v in [*n.input, *n.output]:
            if not v:
                continue
            near.setdefault(me, set()).add(v)
            near.setdefault(v, set()).add(me)
            if v in producer and producer[v] != me:
                near[me].add(producer[v])
                near.setdefault(producer[v], set()).add(me)
    return near
