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
    return names + (onnxscript_rule_names() or [])


def onnxscript_rule_names() -> list[str] | None:
    """The names of the rules onnxscript's ``rewrite()`` applies by default
    (``onnxscript.rewriter._DEFAULT_REWRITE_RULES``; an unnamed pattern rule, ``RewriteRule``, left
    out: it spells nothing), or None when onnxscript is missing or reorganised.

    Importing onnxscript costs a process 0.4-1.5 s of CPU (onnx_ir, sympy), paid before a
    ``check --mutations`` run's first pass even when no pass of it is onnxscript's. So the names
    are kept in the cache folder (:func:`passcheck._cache.cache_root`, ``onnxscript-rules/``)
    under a fingerprint of the installed package (its folder, and the path, size and mtime of every
    ``.py`` file in it): an upgrade, a reinstall or an edited checkout is a new fingerprint, and the
    names are read by importing onnxscript again. A cache that cannot be read or written costs
    only the import.
    """
    import importlib.util

    try:
        spec = importlib.util.find_spec("onnxscript")  # a top-level package: found, not imported
    except (ImportError, ValueError):
        spec = None
    folders = list(spec.submodule_search_locations or []) if spec is not None else []
    key = _fingerprint(folders) if folders else None
    file = _rules_cache() / f"{key}.json" if key else None
    if file is not None:
        try:
            return list(json.loads(file.read_text(encoding="utf-8")))
        except (OSError, ValueError, TypeError):
            pass
    try:
        from onnxscript.rewriter import _DEFAULT_REWRITE_RULES  # the rules onnxscript's rewrite() applies by default
    except Exception:  # noqa: BLE001 - onnxscript missing or reorganised: onnxruntime's names alone
        return None
    rules = [getattr(r, "name", None) or type(r).__name__ for r in _DEFAULT_REWRITE_RULES]
    rules = [n for n in rules if n != "RewriteRule"]
    if file is not None:
        _write(file, json.dumps(rules))
    return rules


def _rules_cache() -> Path:
    from passcheck._cache import cache_root

    return cache_root() / "onnxscript-rules"


def _fingerprint(folders: list[str]) -> str | None:
    """sha256 (hex) of every ``.py`` file's path, size and mtime (ns) under ``folders``; None when
    a folder cannot be read (nothing is cached then)."""
    import hashlib
    import os

    h = hashlib.sha256()
    try:
        for folder in sorted(folders):
            h.update(os.fsencode(folder) + b"\0")
            for root, dirs, files in os.walk(folder, onerror=_raise):
                dirs.sort()
                for name in sorted(files):
                    if name.endswith(".py"):
                        path = os.path.join(root, name)
                        st = os.stat(path)
                        h.update(f"{os.path.relpath(path, folder)}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    except OSError:
        return None
    return h.hexdigest()


def _raise(exc: OSError) -> None:
    raise exc


def _write(file: Path, text: str) -> None:
    """``text`` into ``file`` whole or not at all (a temporary file renamed over it); errors ignored."""
    import contextlib
    import os
    import tempfile

    with contextlib.suppress(OSError):
        file.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=file.parent, prefix=".tmp-", suffix=".json")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
            os.replace(tmp, file)
        except OSError:
            os.unlink(tmp)
            raise


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
