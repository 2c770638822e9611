"""The ``input-apart`` neighbour: one reader of a graph input read by several reads an independent input of the same
declared type instead, fed at twice the size on each dim the input does not state as a number.

IR.md ("Graphs"): graph inputs are independent values, and a value may be read by any number of nodes; the
shape-annotation semantics binds a ``dim_param`` once per run, so two different names are two sizes that may
differ, and an unknown dim (neither field) asserts nothing. A rewrite rule whose pattern names two variables and
whose check compares their dims (onnxscript's ``ScatterAllDynamic``: ``data.shape[axis]`` against
``transposed_data.shape[0]``; the collapse-slices rule: a Slice's input against its output; the ORT fusions: a
skip against its input, a bias against the matmul it follows) must decide from the declarations whether two
values have the same size. In a base where the two variables bind the *same* value every such comparison is true,
so the search met the comparison only where it cannot be wrong; this neighbour binds them to two values that
differ at run time, declared alike except for the symbol names.

Kind ``input-apart`` (site ``<node>=<index>``: a named node and the input slot that reads the input): the slot
reads a new graph input ``<input>__apart`` with the input's element type and rank, its static dims kept and each
other dim a fresh ``dim_param`` (``<symbol>__apart``; ``<input>__apart_<axis>`` for an unknown dim), which
:func:`setting` binds to twice the original size in every run (:data:`FACTOR`: an index computed from the
original's size stays in range, as in :mod:`.vary_twin`). A site is every reading slot of a fed tensor input of
known rank after the first (in node order; two slots of one node count as two). Annotations downstream that no
longer hold are refreshed by the caller (:mod:`.variation`). With :mod:`.compose`, a rewrite that opens a site on
the new input is also applied at the original's site (:func:`origin`), so both declarations read alike (both
dims unknown: ``anonymous-input-dims``), where a rule comparing unknown dims has to decline.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from passcheck.hunt.value_names import fresh, graph_names

if TYPE_CHECKING:
    import onnx

    from passcheck.hunt.probe import Setting

KIND = "input-apart"
KINDS = (KIND,)
SUFFIX = "__apart"
#: The new input's size on each non-static dim, as a multiple of the original's.
FACTOR = 2


def is_kind(kind: str) -> bool:
    """Whether ``kind`` (without the ``vary:`` prefix) is this module's."""
    return kind == KIND


def origin(label: str) -> str | None:
    """The input a label of the new input was split from (``x__apart`` → ``x``), or None for any other label."""
    return label[: -len(SUFFIX)] or None if label.endswith(SUFFIX) else None


def _fed(model: onnx.ModelProto) -> dict[str, Any]:
    """Graph inputs no initializer gives a value, that are tensors with a shape (IR.md: an input with an
    initializer of the same name is an overridable default)."""
    inits = {t.name for t in model.graph.initializer}
    return {
        vi.name: vi
        for vi in model.graph.input
        if vi.name not in inits and vi.type.HasField("tensor_type") and vi.type.tensor_type.HasField("shape")
    }


def candidates(model: onnx.ModelProto) -> Iterator[tuple[str, str]]:
    """(kind, ``<node>=<index>``) of every reading slot of a fed tensor input after its first (``model`` is the
    node-named copy)."""
    fed = _fed(model)
    seen: set[str] = set()
    for node in model.graph.node:
        for i, name in enumerate(node.input):
            if name not in fed:
                continue
            if name in seen:
                yield KIND, f"{node.name}={i}"
            seen.add(name)


def split_input(model: onnx.ModelProto, site: str) -> list[str]:
    """The graph input ``site``'s slot reads in ``model`` (node-named), the value the neighbour splits; [] when
    ``site`` is no slot of a node of ``model``."""
    node_name, _, index = site.rpartition("=")
    node = next((n for n in model.graph.node if n.name == node_name), None)
    if node is None or not index.isdigit() or int(index) >= len(node.input):
        return []
    return [node.input[int(index)]]


def _symbols(model: onnx.ModelProto) -> set[str]:
    out = set()
    for vi in [*model.graph.input, *model.graph.output, *model.graph.value_info]:
        if vi.type.HasField("tensor_type"):
            out |= {d.dim_param for d in vi.type.tensor_type.shape.dim if d.dim_param}
    return out


def renamed(vi, name: str) -> list[tuple[str | None, str | None, int]]:
    """(original symbol or None, new symbol or None, axis) of each dim of input ``vi`` (``name``: the new input's
    name): a static dim has no symbols; a ``dim_param`` S becomes ``S__apart``, an unknown dim
    ``<name>_<axis>``."""
    out = []
    for a, d in enumerate(vi.type.tensor_type.shape.dim):
        if d.HasField("dim_value"):
            out.append((None, None, a))
        else:
            out.append((d.dim_param or None, f"{d.dim_param}{SUFFIX}" if d.dim_param else f"{name}_{a}", a))
    return out


def build(model: onnx.ModelProto, site: str) -> bool:
    """``model`` (node-named) changed in place as ``input-apart@site`` says; False when ``site`` is not one."""
    if (KIND, site) not in set(candidates(model)):
        return False
    node_name, _, index = site.rpartition("=")
    node = next(n for n in model.graph.node if n.name == node_name)
    src = _fed(model)[node.input[int(index)]]
    taken = graph_names(model) | _symbols(model)
    new = model.graph.input.add()
    new.CopyFrom(src)
    new.name = fresh(f"{src.name}{SUFFIX}", taken)
    for (_, sym, _a), d in zip(renamed(src, new.name), new.type.tensor_type.shape.dim, strict=True):
        if sym is not None:
            d.Clear()
            d.dim_param = fresh(sym, taken)
    node.input[int(index)] = new.name
    return True


def added(model: onnx.ModelProto, neighbour: onnx.ModelProto) -> list[str]:
    """The graph inputs ``neighbour`` declares that ``model`` does not (in order)."""
    had = {v.name for v in model.graph.input}
    return [v.name for v in neighbour.graph.input if v.name not in had]


def _pairs(neighbour: onnx.ModelProto) -> list[tuple[Any, Any]]:
    """(original input, new input) ValueInfos of ``neighbour``."""
    vis = {v.name: v for v in neighbour.graph.input}
    return [(vis[o], v) for v in neighbour.graph.input if (o := origin(v.name)) in vis]


def setting(setting: Setting, neighbour: onnx.ModelProto | None) -> Setting:
    """``setting`` for the neighbour: every binding gives each new symbol :data:`FACTOR` times the size of the
    dim it was split from (the binding's, else the size the feeds synthesize for an unbound dim: 2 in the first
    run, 3 in the second, :func:`passcheck.engine.feeds_for`); a case's own feed function also feeds the new input,
    the original's array repeated :data:`FACTOR` times along each non-static axis (Concat-4's layout)."""
    if neighbour is None:
        return setting
    pairs = _pairs(neighbour)
    if not pairs:
        return setting

    def bound(b: Mapping[str, int], i: int) -> dict[str, int]:
        out = dict(b)
        for src, new in pairs:
            new_dims = new.type.tensor_type.shape.dim
            for (old, _, _a), d in zip(renamed(src, new.name), new_dims, strict=True):
                if d.dim_param:
                    out[d.dim_param] = FACTOR * int(b.get(old, 2 + i) if old else 2 + i)
        return out

    bindings = tuple(bound(b, i) for i, b in enumerate(setting.bindings))
    if setting.feeds is None:
        return dataclasses.replace(setting, bindings=bindings)
    own = setting.feeds

    def feeds(binding: Mapping[str, int], seed: int) -> dict[str, Any]:
        import numpy as np

        out = dict(own(binding, seed))
        for src, new in pairs:
            arr = out.get(src.name)
            if getattr(arr, "shape", None) is None:
                continue
            for _, sym, a in renamed(src, new.name):
                if sym is not None:
                    arr = np.concatenate([arr] * FACTOR, axis=a)
            out[new.name] = arr
        return out

    return dataclasses.replace(setting, bindings=bindings, feeds=feeds)
