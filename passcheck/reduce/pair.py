"""Reduce an ``ort:*`` parity finding's pair of forms over nodes, keeping its signature.

Signature: at the finding's level, onnxruntime removes more nodes of one of the finding's kept op
types from form A (its ``other_form``) than from form B (its form) — or, for a finding naming no
op type, rewrites the two into different new op types. A candidate node set is kept only when
both cut forms pass the onnx checker (full check), show the signature, and compute the same
outputs (``numpy.allclose``) on synthesized feeds. Nodes correspond across the forms by their
output names (:func:`passcheck.reduce.cut.key`). Sessions run in the isolated worker.

Search: first each kept node of the finding with the node it follows (the usual shape of a missed
fusion), then ddmin over every node when those do not show the signature; ddmin then shrinks the
survivor. Bounded by a deadline: the smallest pair found so far is returned.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Sequence
from typing import Any

from passcheck.errors import PasscheckError
from passcheck.reduce.cut import constant_values, cut, key, value_types
from passcheck.reduce.ddmin import ddmin


@dataclasses.dataclass
class Reduced:
    """The smallest pair found: forms ``a`` / ``b``, the node keys kept, whether ddmin finished,
    and the candidates tested."""

    a: Any
    b: Any
    keep: list[str]
    finished: bool
    tests: int


class PairReducer:
    """Tests node subsets of a pair (see module docs).

    Args:
        a, b: the form the pass optimized and the form that missed it (ModelProtos).
        level: ``basic`` / ``extended`` / ``all``.
        kept_ops: the finding's ``kept_op_types``.
        executor: an :class:`~passcheck.passes.isolation.IsolatedExecutor` (``call``, ``run_model``).

    Raises:
        PasscheckError: the forms do not correspond node by node.
    """

    def __init__(self, a, b, level: str, kept_ops: Sequence[str], executor):
        ka, kb = [key(n) for n in a.graph.node], [key(n) for n in b.graph.node]
        if sorted(ka) != sorted(kb) or len(set(ka)) != len(ka):
            raise PasscheckError("the two forms do not correspond node by node (same node outputs): reduce needs that")
        self.a, self.b, self.level, self.kept, self.ex = a, b, level, list(kept_ops), executor
        self.keys = ka
        # shape inference and the reference evaluator run in the worker too (C++ can crash); without
        # them cut values have no type or value, so fewer candidates are valid: smaller search, same rules
        self.types = {**self._safe(value_types, b), **self._safe(value_types, a)}
        self.consts_a, self.consts_b = self._safe(constant_values, a), self._safe(constant_values, b)
        self.tests = 0

    def _safe(self, fn, model) -> dict:
        from passcheck.passes.isolation import WorkerDied

        try:
            return self.ex.call(fn, model)
        except (WorkerDied, Exception):  # noqa: BLE001 - see __init__
            return {}

    def forms(self, keep: Sequence[str]):
        return cut(self.a, set(keep), self.types, self.consts_a), cut(self.b, set(keep), self.types, self.consts_b)

    def holds(self, keep: Sequence[str]) -> bool:
        """The cut pair is valid, shows the signature and computes equal outputs."""
        import onnx

        from passcheck.attribution.ort import optimized_ops
        from passcheck.oracles.parity import op_counts
        from passcheck.passes.isolation import WorkerDied

        self.tests += 1
        a, b = self.forms(keep)
        if a is None or b is None:
            return False
        try:
            onnx.checker.check_model(a, full_check=True)
            onnx.checker.check_model(b, full_check=True)
        except Exception:  # noqa: BLE001 - an invalid cut is just not a candidate
            return False
        try:
            oa, ob = self.ex.call(optimized_ops, a, self.level, []), self.ex.call(optimized_ops, b, self.level, [])
        except (WorkerDied, Exception):  # noqa: BLE001 - a session error is not the signature
            return False
        ba, bb = op_counts(a), op_counts(b)
        if self.kept:
            shown = any(ba.get(op, 0) - oa.get(op, 0) > bb.get(op, 0) - ob.get(op, 0) for op in self.kept)
        else:
            shown = sorted(set(oa) - set(ba)) != sorted(set(ob) - set(bb))
        return shown and self._equal(a, b)

    def _equal(self, a, b) -> bool:
        import numpy as np

        from passcheck.engine import feeds_for
        from passcheck.runtime import default_bindings

        try:
            feeds = feeds_for(a, "reduce", default_bindings(a))[0]
        except Exception:  # noqa: BLE001 - inputs feeds cannot be made for
            return False
        ra, rb = self.ex.run_model(a, feeds), self.ex.run_model(b, feeds)
        if ra.error or rb.error or list(ra.outputs) != list(rb.outputs):
            return False
        return all(np.allclose(ra.outputs[k], rb.outputs[k], rtol=1e-3, atol=1e-4, equal_nan=True) for k in ra.outputs)

    def seeds(self, kept_nodes: Sequence[dict[str, str]]) -> list[list[str]]:
        """For each kept node the finding lists: that node and the producer of its first input."""
        by_name = {(n.name or f"#{i}"): n for i, n in enumerate(self.b.graph.node)}
        producer = {o: n for n in self.b.graph.node for o in n.output if o}
        out = []
        for k in kept_nodes[:4]:
            n = by_name.get(k.get("node", ""))
            if n is None:
                continue
            p = producer.get(n.input[0]) if n.input else None
            out.append([key(x) for x in self.b.graph.node if x is n or x is p])
        return out

    def reduce(self, deadline: float, start: Sequence[str] | None = None, kept_nodes: Sequence[dict[str, str]] = (),
               on_smaller: Callable[[list[str]], None] | None = None) -> Reduced:
        """The smallest pair found before ``deadline`` (``time.monotonic()``), from ``start``
        (a node-key list that holds, e.g. resumed) or the whole pair.

        Raises:
            PasscheckError: the whole pair (or ``start``) does not show the signature here.
        """
        current = list(start) if start else list(self.keys)
        if not self.holds(current):
            raise PasscheckError("the pair does not show the finding here (valid, equal, and optimized differently): nothing to reduce")
        for seed in self.seeds(kept_nodes):
            if time.monotonic() > deadline:
                break
            if len(seed) < len(current) and set(seed) <= set(current) and self.holds(seed):
                current = seed
                if on_smaller:
                    on_smaller(current)
                break
        keep, finished = ddmin(current, self.holds, deadline, on_smaller)
        a, b = self.forms(keep)
        return Reduced(a, b, keep, finished, self.tests)
