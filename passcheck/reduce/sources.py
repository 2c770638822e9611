"""How a set of kept nodes becomes a candidate pair ``(a, b)`` (``a`` None for a one-form finding).

- :class:`Cut`: the forms are cut alike by node identity (:func:`passcheck.reduce.cut.key`, the
  node's outputs), each keeping its nodes whose key is kept; a graph input only one cut form
  reads is given to the other too (unread). A value the cut frees (computed in the form, a graph
  input of the cut) must be freed in both forms alike, so both read the same feed for it; a cut
  that frees a value in one form only (the other computes it, or never reads it) is no candidate:
  the forms would no longer compute one function of their inputs. Forms written by a rewrite that keeps value names
  correspond node by node; forms that do not simply yield fewer valid candidates (the predicate
  refuses pairs whose interfaces differ).
- :class:`Rewritten`: a ``check --mutations`` finding: the base (``common``) is cut and the
  rewrite (form ``ID``, ``ID@SITE``, ``A+B`` …) is applied again to the cut base, so the pair
  always differs by the rewrite alone. Every base node is named first (labels stay valid across
  cuts); a label ``#index:OpType`` of the finding's form is translated to that node's new name.

Both give ``keys`` (the node keys to reduce over), ``make(keep, edit=None)`` (the pair cut to
``keep``, each cut form — the cut base, for a rewrite — passed through ``edit``: model → model
or None, e.g. smaller shapes or simpler initializer values) and ``seeds()`` (small key sets
worth trying first).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

from passcheck.reduce.cut import constant_values, cut, key, value_types


def _safe(executor, fn, model) -> dict:
    """``fn(model)`` in the worker; {} when it fails (then fewer cuts are valid: same rules)."""
    try:
        return executor.call(fn, model)
    except Exception:  # noqa: BLE001 - shape inference / the reference evaluator can fail or crash
        return {}


def with_values(model, values: Mapping[str, Any]):
    """A copy of ``model`` whose main-graph initializers named in ``values`` hold those arrays."""
    import onnx
    from onnx import numpy_helper

    out = onnx.ModelProto()
    out.CopyFrom(model)
    for t in out.graph.initializer:
        if t.name in values:
            t.CopyFrom(numpy_helper.from_array(values[t.name], t.name))
    return out


def _neighbourhood(model, nodes) -> list[str]:
    """Keys of ``nodes`` with the producer of each one's first input and the readers of its outputs."""
    g = model.graph
    producer = {o: n for n in g.node for o in n.output if o}
    picked = {id(n) for n in nodes}
    for n in nodes:
        if n.input and n.input[0] in producer:
            picked.add(id(producer[n.input[0]]))
        outs = set(n.output) - {""}
        picked.update(id(r) for r in g.node if outs & set(r.input))
    return [key(n) for n in g.node if id(n) in picked]


def _cut_inputs(whole, part) -> set[str]:
    """The graph inputs of ``part`` (a cut of ``whole``) that ``whole`` computes: values the cut freed."""
    own = {v.name for v in whole.graph.input} | {t.name for t in part.graph.initializer}
    return {v.name for v in part.graph.input} - own


def _share_inputs(a, b) -> None:
    """Give each form the graph inputs only the other reads (unread, still valid), so forms that
    compute a value differently (from a graph input in one, from constants in the other) keep one
    interface."""
    inits = [{t.name for t in m.graph.initializer} for m in (a, b)]
    for (m, own), other in (((a, inits[0]), b), ((b, inits[1]), a)):
        have = {v.name for v in m.graph.input}
        m.graph.input.extend(v for v in other.graph.input if v.name not in have and v.name not in own)


class Cut:
    """``a`` (None for a one-form finding) and ``b`` cut alike; ``kept_nodes``: the finding's."""

    def __init__(self, a, b, executor, kept_nodes: Sequence[Mapping[str, str]] = ()):
        self.a, self.b, self.kept_nodes = a, b, list(kept_nodes)
        forms = [m for m in (b, a) if m is not None]
        self.keys = list(dict.fromkeys(key(n) for m in forms for n in m.graph.node))
        self.types: dict = {}
        for m in forms:
            self.types = {**_safe(executor, value_types, m), **self.types}
        self.consts = [_safe(executor, constant_values, m) if m is not None else {} for m in (a, b)]

    def make(self, keep: Collection[str], edit: Callable[[Any], Any] | None = None):
        keep = set(keep)
        a = cut(self.a, keep, self.types, self.consts[0]) if self.a is not None else None
        b = cut(self.b, keep, self.types, self.consts[1])
        if a is not None and b is not None:
            if _cut_inputs(self.a, a) != _cut_inputs(self.b, b):
                return None, None  # one form would read a free value the other computes: not one computation
            _share_inputs(a, b)
        if edit is not None:
            a, b = (edit(m) if m is not None else None for m in (a, b))
        return a, b

    def seeds(self) -> list[list[str]]:
        """Each kept node the finding lists (up to 4) with its neighbours."""
        by_name = {(n.name or f"#{i}"): n for i, n in enumerate(self.b.graph.node)}
        return [_neighbourhood(self.b, [by_name[k["node"]]]) for k in self.kept_nodes[:4] if k.get("node") in by_name]


class Rewritten:
    """``base`` (the unrewritten model) and the rewrite ``form`` re-applied to every cut of it."""

    def __init__(self, base, form: str, executor):
        from passcheck.mutations.forms import named

        self.base = named(base)
        self.form = re.sub(r"#(\d+):\w+", lambda m: self._name_at(int(m.group(1))), form)
        self.ex = executor
        self.keys = [key(n) for n in self.base.graph.node]
        self.types = _safe(executor, value_types, self.base)
        self.consts = _safe(executor, constant_values, self.base)

    def _name_at(self, index: int) -> str:
        nodes = self.base.graph.node
        return nodes[index].name if index < len(nodes) else f"#{index}"

    def at(self, form: str) -> Rewritten:
        """The same base under another spelling of the rewrite (fewer sites)."""
        other = object.__new__(Rewritten)
        other.__dict__.update(self.__dict__, form=form)
        return other

    def make(self, keep: Collection[str], edit: Callable[[Any], Any] | None = None):
        from passcheck.mutations import forms as hforms

        base = cut(self.base, set(keep), self.types, self.consts)
        if base is not None and edit is not None:
            base = edit(base)
        if base is None:
            return None, None
        try:
            built = hforms.build(base, self.form)
        except Exception:  # noqa: BLE001 - a rewrite that cannot read a cut model: not a candidate
            return base, None
        return base, (built[0] if built else None)

    def site_labels(self) -> list[str]:
        from passcheck.mutations import forms as hforms

        return [s for _r, s in hforms.parts(self.form) if s is not None]

    def seeds(self) -> list[list[str]]:
        """The nodes at the rewrite's sites (named, or reading / writing a named value) with their neighbours."""
        labels = set(self.site_labels())
        nodes = [n for n in self.base.graph.node if n.name in labels or labels & (set(n.input) | set(n.output))]
        return [_neighbourhood(self.base, nodes)] if nodes and len(nodes) <= 8 else []
