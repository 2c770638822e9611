"""What kind of site a rewrite's site is, for the hunt: the rewrite's site signature
(:meth:`~passcheck.mutations._base.Rewrite.signature`: a node's op type and its readers', a value's producer and
readers) with the rank of what it names, and the single sites of a rewrite a base keeps: one per kind first.

**Rank.** A pass's rule often holds for one rank only (Operators.md Gemm takes rank-2 operands, so onnxruntime's
MatMul + Add fusion writes a Gemm for a rank-2 MatMul alone; BatchNormalization reads dim 1 as its channels): the
same op types at a rank-2 and a rank-3 value are two kinds of site. A value's rank is its declared or inferred one
(onnx shape inference); a node's, its inputs' ranks; ``?`` where unknown.

**Sampling.** A base keeps at most :data:`MAX_SITES` single sites of each rewrite (its forms, :mod:`.space`); drawn
uniformly, a site whose kind occurs once among many of another kind is rarely kept (three of a value × inserted-op
table of 69). One site per kind is drawn first, then the kinds kept are sampled, so a kind with one site is as
likely as a kind with fifty.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import onnx

#: Single-site forms kept per rewrite and base.
MAX_SITES = 3
_PIECES = re.compile(r"->|\.\.|>|:|=")  # the joins of a rewrite's compound site labels (edges, chains, regions)


def ranks(model: onnx.ModelProto) -> dict[str, str]:
    """Site label → the rank text of what it names: a value's rank, a node's inputs' ranks joined by ``,`` (an
    omitted input left out); ``?`` for an unknown rank. Raises nothing: a model inference cannot read gives ``?``."""
    from passcheck.hunt import variation
    from passcheck.mutations._base import node_label

    types = variation._inferred(model)

    def rank(name: str) -> str:
        t = types.get(name)
        if t is None or not t.HasField("tensor_type") or not t.tensor_type.HasField("shape"):
            return "?"
        return str(len(t.tensor_type.shape.dim))

    out = {name: rank(name) for name in types}
    for i, n in enumerate(model.graph.node):
        out[node_label(n, i)] = ",".join(rank(x) for x in n.input if x)
    return out


def kind(rewrite_id: str, label: str, signatures: Mapping[str, object], ranks_: Mapping[str, str]) -> str:
    """The kind of site ``label`` of rewrite ``rewrite_id``: its site signature as text, then ``|r`` and the ranks
    of the pieces of the label that name a value or node (an edge ``v->n``, a step ``v:name``: each piece's)."""
    from passcheck.mutations.registry import REWRITES

    sig = spell(REWRITES[rewrite_id].signature(label, signatures))
    got = [ranks_[p] for p in _PIECES.split(label) if p in ranks_]
    return f"{sig}|r{'/'.join(got)}" if got else sig


def spell(key: object) -> str:
    """A site signature as text: nested tuples joined by ``/`` and ``,``."""
    if isinstance(key, tuple):
        return "/".join(",".join(x) if isinstance(x, tuple) else str(x) for x in key)
    return str(key)


def sample(labels: Sequence[str], kinds: Mapping[str, str], rng: random.Random, k: int = MAX_SITES) -> list[str]:
    """At most ``k`` of ``labels`` (in their order): one per kind (``kinds``: label → kind) drawn with ``rng``, then
    ``k`` of those kinds sampled; every label when there are at most ``k``."""
    if len(labels) <= k:
        return list(labels)
    groups: dict[str, list[str]] = {}
    for label in labels:
        groups.setdefault(kinds[label], []).append(label)
    firsts = [rng.choice(g) for g in groups.values()]
    chosen = set(rng.sample(firsts, min(k, len(firsts))))
    if len(chosen) < k:
        rest = [x for x in labels if x not in chosen]
        chosen |= set(rng.sample(rest, k - len(chosen)))
    return [x for x in labels if x in chosen]
