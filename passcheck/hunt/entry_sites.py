"""What a pass's catalogue entries say it matches, read against a rewrite's sites.

A coverage catalogue entry (:mod:`passcheck.coverage`: an onnxruntime transformer, an onnxscript rule, an
adapter) acts on op types (:func:`.nearness.entry_ops`). A rewrite that writes a node of its own at a site (the
neutral ops of ``neutral-op``: a Pad that crops, an Add of a zero of higher rank) names that op in its site
signature (:meth:`passcheck.mutations._base.Rewrite.signature`) where the base's own signature of the value or node
does not. When that op is one an entry triggered by the base acts on, the site is where the rule meets the
rewrite's spelling (a Pad written in front of a Conv for a Pad → Conv fusion); a base's seeded sample of a
rewrite's sites (:mod:`.site_kind`, three of the ~100 kinds ``neutral-op`` has on a value) rarely holds it.

:func:`entry_sites` lists, per rewrite, one site per op it writes that the entries act on. :func:`op_free` tells
the rewrites whose sites are no nodes (values, inputs, the model: a freedom of the IR any base has), which the
scheduler gives one early item per pass.
"""

from __future__ import annotations

import random
import re
from collections.abc import Collection, Iterable, Mapping
from functools import cache, lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import onnx

#: The most sites per (rewrite, token) :func:`entry_sites` offers for an op that would complete an entry's pattern.
NEAR_SITES = 8
_PIECES = re.compile(r"->|\.\.|>|:|=")  # the joins of a rewrite's compound site labels (edges, chains, regions)


def op_free(rewrite_id: str) -> bool:
    """Whether rewrite ``rewrite_id``'s sites are no nodes (its ``detail``: values, inputs, outputs, the model …):
    it applies to nearly every base whatever its ops, so the novelty of an (op, rewrite) triple does not rank it."""
    from passcheck.mutations.registry import REWRITES

    return rewrite_id in REWRITES and REWRITES[rewrite_id].detail != "nodes"


def _tokens(key: object) -> set[str]:
    """The strings of a site signature (nested tuples of text)."""
    if isinstance(key, tuple):
        return set().union(*(_tokens(x) for x in key)) if key else set()
    return {str(key)}


def written(rewrite_id: str, label: str, signatures: Mapping[str, object]) -> set[str]:
    """The op tokens rewrite ``rewrite_id``'s site signature at ``label`` names that the model's own signature
    of the label (or of its first piece, the value an edge or step stands at) does not: the ops the rewrite
    writes there, each with what it writes when the rewrite signs it (``Pad:pad-crop``, ``Add``; the op type is
    before the ``:``).
    Empty for a rewrite whose signature is the model's."""
    from passcheck.mutations.registry import REWRITES

    own = REWRITES[rewrite_id].signature(label, signatures)
    at = signatures[label] if label in signatures else signatures.get(_PIECES.split(label)[0], ())
    return _tokens(own) - _tokens(at)


def entry_sites(
    model: onnx.ModelProto,
    applied: Mapping[str, Collection[str]],
    ops: Collection[str],
    rng: random.Random,
    near: Collection[str] = (),
) -> list[str]:
    """Single-site forms ``rid@label`` of the rewrites ``applied`` (rewrite id → its sites on ``model``) whose site
    signature names an op in ``ops`` (the op types of the catalogue entries the base triggers under a pass) that
    the rewrite writes there (:func:`written`): one site per (rewrite, token naming such an op: ``Add`` and
    ``Add:add-zero-outrank`` apart), drawn with ``rng`` among the sites whose signature names the most of ``ops``
    (a crop read by the Conv before one read by another Pad), in rewrite order. Empty when ``ops`` is. A token
    naming an op of ``near`` (:func:`near_ops`: what would complete a pattern an entry's name spells) and of no
    triggered entry gives every site of it, at most :data:`NEAR_SITES` in label order: a name says which ops a
    pattern holds, not along which edge the missing one goes (onnxslim's ``FusionGemmMul``: a Mul after the Reshape
    that follows the Gemm), so no one site is nearer than another."""
    if not ops:
        return []
    from passcheck.mutations import forms as hforms
    from passcheck.mutations.registry import REWRITES
    from passcheck.mutations.sites import site_signatures

    sigs = site_signatures(model)
    out = []
    for rid in sorted(applied):
        labels = sorted(applied[rid])
        if len(labels) <= 1 or not hforms.has_sites(rid):
            continue
        groups: dict[str, list[tuple[int, str]]] = {}
        for label in labels:
            named = {t.split(":")[0] for t in _tokens(REWRITES[rid].signature(label, sigs))} & set(ops)
            for token in sorted(written(rid, label, sigs)):
                if token.split(":")[0] in ops:
                    groups.setdefault(token, []).append((len(named), label))
        for token, group in sorted(groups.items()):  # of a token's sites, those naming the most of the entries' ops
            if token.split(":")[0] in near:
                out += [f"{rid}@{label}" for _, label in group[:NEAR_SITES]]
                continue
            most = max(n for n, _ in group)
            out.append(f"{rid}@{rng.choice([label for n, label in group if n == most])}")
    return out


def near_ops(spelt: Iterable[frozenset[str]], held: Collection[str]) -> frozenset[str]:
    """The op types a base lacks that would complete a pattern an entry's name spells: of each ``spelt`` set (the
    ops one entry the pass runs names, :func:`named_ops`: ``FusionGemmMul`` → Gemm, Mul) holding exactly one op not
    in ``held`` (the base's op types) and at least one in it, that one op. Such an entry is not triggered by the
    base, so :func:`entry_sites` would not aim at it; a rewrite that writes the missing op next to the held ones (a
    neutral ``Mul`` by 1 after a Gemm) is where the base meets that entry's pattern."""
    held = set(held)
    out: set[str] = set()
    for ops in spelt:
        missing = ops - held
        if len(missing) == 1 and ops & held:
            out |= missing
    return frozenset(out)


_WORD = re.compile(r"[A-Z][a-z0-9]*|[a-z0-9]+")


@lru_cache(maxsize=1 << 14)
def named_ops(name: str) -> frozenset[str]:
    """The ONNX op types (default domain, any version of the installed onnx's schemas) an entry's name spells as a
    run of whole words, none inside a longer one (``FuseConvPad`` → Conv, Pad; ``MatMulAddFusion`` → MatMul,
    Add): what a rule or transformer says it matches by its name, where the effects observed name only the node
    it replaced. Memoized (the last 16,384 names): a function of the name and the installed onnx alone (M200)."""
    words, ops = _WORD.findall(name.rpartition(":")[2]), _op_types()
    spans = [
        (i, j)
        for i in range(len(words))
        for j in range(i + 1, min(len(words), i + 4) + 1)
        if "".join(words[i:j]) in ops
    ]
    inner = {(i, j) for i, j in spans for a, b in spans if a <= i and j <= b and (a, b) != (i, j)}  # Mul in MatMul
    return frozenset("".join(words[i:j]) for i, j in spans if (i, j) not in inner)


@cache
def _op_types() -> frozenset[str]:
    import onnx

    return frozenset(s.name for s in onnx.defs.get_all_schemas_with_history() if s.domain in ("", "ai.onnx"))
