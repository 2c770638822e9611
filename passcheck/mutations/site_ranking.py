"""Which sites a pass is likely to look at: the order single-site forms are tried in when the site
budget (``--max-sites``) cuts.

A site's rank is the weight of the op types a pass's matcher sees there (its
:func:`~passcheck.mutations.registry.site_signatures` entry: the node's op type and its readers',
or a value's producer and readers). The weights come from, in order:

1. the coverage map, when :mod:`passcheck.coverage` provides ``op_weights()`` (op type → weight:
   how many catalogue entries a base holding that op triggers) — the seam for that map, taken by
   :func:`passcheck.plans.site_ranking` (coverage sits above mutations in the layers);
2. else the names of the parts of the tools themselves: onnxruntime's transformers and rewrite
   rules (``passcheck/attribution/ort_transformers.json``: its ``levels`` and its ``rules``) and
   onnxscript's default rewrite rules, each name read as the op types it spells (``ConvBNFusion`` →
   Conv, BatchNormalization; ``GatherSliceToSplitFusion`` → Gather, Slice, Split). An op type weighs
   the number of names that spell it.

Ties (and sites no name spells) keep the seeded random order of the sampler.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path

#: Spellings in tool part names that are not an op type's own name.
ALIASES = {
    "bn": "BatchNormalization",
    "batchnorm": "BatchNormalization",
    "layernorm": "LayerNormalization",
    "matmul": "MatMul",
    "qdq": "QuantizeLinear",
    "dq": "DequantizeLinear",
    "relu": "Relu",
    "softmax": "Softmax",
    "gelu": "Gelu",
    "conv": "Conv",
}


@dataclasses.dataclass(frozen=True)
class Ranking:
    """Op type → weight, (op type, op type) → weight of the names that spell both (a fusion's
    pattern: ``ConvBNFusion`` joins Conv and its BatchNormalization reader), and one line saying
    where the weights come from."""

    weights: Mapping[str, float]
    source: str
    pairs: Mapping[frozenset, float] = dataclasses.field(default_factory=dict)

    def rank(self, signature: tuple) -> float:
        """The weight of a site (signature ``(kind, op, readers)``): first the heaviest pair of its
        op and a reader that one name spells, then the heaviest op type among them."""
        if len(signature) != 3:
            return 0.0
        op, readers = signature[1], [r for r in signature[2] if isinstance(r, str)]
        pair = max((self.pairs.get(frozenset((op, r)), 0.0) for r in readers), default=0.0)
        return 1000.0 * pair + max((self.weights.get(o, 0.0) for o in [op, *readers]), default=0.0)


def spelled_ops(name: str, op_types: Iterable[str]) -> set[str]:
    """The op types a tool part's CamelCase ``name`` spells: each word or pair of adjacent words
    that is an op type (case-insensitive) or an :data:`ALIASES` spelling, longest first."""
    known = {op.lower(): op for op in op_types} | ALIASES
    words = [w.lower() for w in re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+", name)]
    found, i = set(), 0
    while i < len(words):  # the longest run of words spelling an op wins: MatMulAdd is MatMul and Add, not Mul
        n = next((n for n in (3, 2, 1) if "".join(words[i : i + n]) in known), 0)
        if n:
            found.add(known["".join(words[i : i + n])])
        i += n or 1
    return found


def _tool_part_names() -> list[str]:
    path = Path(__file__).parents[1] / "attribution" / "ort_transformers.json"
    table = json.loads(path.read_text(encoding="utf-8"))
    # the levels' graph transformers and the rewrite rules of each level's rule-based transformer (GemmTransposeFusion,
    # DivMulFusion, …: the RuleBasedTransformer applies them, and they name the patterns they match as much)
    names = [n for part in ("levels", "rules") for level in table.get(part, {}).values() for n in level]
    try:
        from onnxscript.rewriter import _DEFAULT_REWRITE_RULES  # the rules onnxscript's rewrite() applies by default
    except Exception:  # noqa: BLE001 - onnxscript missing or reorganised: onnxruntime's names alone
        return names
    rules = [getattr(r, "name", None) or type(r).__name__ for r in _DEFAULT_REWRITE_RULES]
    return names + [n for n in rules if n != "RewriteRule"]  # an unnamed pattern rule spells nothing


@functools.lru_cache(maxsize=1)
def default() -> Ranking:
    """The ranking from the tools' own part names (source 2 of the module doc; the coverage map's,
    source 1, is offered by :func:`passcheck.plans.site_ranking`, a layer above this one)."""
    import onnx.defs

    ops = {s.name for s in onnx.defs.get_all_schemas()}
    weights: Counter = Counter()
    pairs: Counter = Counter()
    for name in _tool_part_names():
        spelled = spelled_ops(name, ops)
        weights.update(spelled)
        pairs.update(frozenset((a, b)) for a in spelled for b in spelled if a < b)
    return Ranking(dict(weights), "op types that onnxruntime transformer and onnxscript rule names spell", dict(pairs))
