"""onnxruntime's tool that makes dynamic shapes fixed (``onnxruntime/tools/make_dynamic_shape_fixed.py``), as its
command line runs it: ``onnx_model_utils.make_dim_param_fixed(graph, symbol, size)`` or
``make_input_shape_fixed(graph, input, shape)``, then ``fix_output_shapes(model)``.

- ``ort-tools:fix-dim-param``: the first ``dim_param`` of the model's graph inputs (input order, then axis order)
  fixed to the size the case's first feeds give it; the tool's docstring: "Iterate all values in the graph,
  replacing dim_param in a tensor shape with the provided value".
- ``ort-tools:fix-input-shape``: the first graph input with a ``dim_param`` or a dim with neither field fixed
  to the shape of its first feed; the docstring: "If setting the input shape replaces a dim_param, update any
  other values in the graph that use the dim_param".

Fixing a symbol to a size is a binding (seed 000, "Setup"): the output must hold every annotation for every run
in which the symbol has that size, and compute what the model computes on those runs. The engine binds an
adapter before it runs (:meth:`DimFixAdapter.bound`, from the case's own feeds, so every base with a symbol
exercises it) and judges its outputs on the runs that agree with the fix only; what the adapter fixed travels as
:attr:`DimFixAdapter.fixes` (the ``fixed_dims`` oracle, :mod:`passcheck.oracles.fixed_dims`). A model whose graph
inputs have nothing to fix is ``unavailable`` (``unchecked`` when the pass is named), never ``ok``.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from passcheck.passes._base import PassAdapter, PassDeclined

PARAM, INPUT = "ort-tools:fix-dim-param", "ort-tools:fix-input-shape"


def _inputs(model) -> list:
    """The model's graph inputs that are tensors with a shape and no initializer (what a caller feeds)."""
    inits = {t.name for t in model.graph.initializer}
    return [
        v
        for v in model.graph.input
        if v.name not in inits and v.type.WhichOneof("value") == "tensor_type" and v.type.tensor_type.HasField("shape")
    ]


def _shape(feed: Any) -> tuple[int, ...] | None:
    shape = getattr(feed, "shape", None)
    return tuple(int(s) for s in shape) if shape is not None else None


class DimFixAdapter(PassAdapter):
    """``ort-tools:fix-dim-param`` / ``ort-tools:fix-input-shape`` (see the module docstring).

    Attributes:
        mode: ``"param"`` or ``"input"``.
        fixes: after :meth:`bound`, what the pass fixes: ``{"input": name, "axis": i, "size": n, "shape": None}``
            (a symbol: the one at that axis) or ``{"input": name, "axis": None, "size": None, "shape": [sizes]}``
            (an input's shape); None before (the registry's adapter: nothing bound, ``unavailable``).
    """

    tools = ("onnxruntime", "onnx")
    binds = True  # the engine calls bound() with the subject's feeds before it runs the pass

    def __init__(self, mode: str) -> None:
        self.mode = mode
        self.id = PARAM if mode == "param" else INPUT
        self.fixes: dict[str, Any] | None = None
        self.doc = (
            "onnxruntime.tools.onnx_model_utils."
            + ("make_dim_param_fixed(graph, S, n)" if mode == "param" else "make_input_shape_fixed(graph, x, shape)")
            + " then fix_output_shapes(model), S / x and n / shape from the case's first feeds"
        )

    def bound(self, feeds: Sequence[Mapping[str, Any]], model) -> tuple[DimFixAdapter, list[int]]:
        """A copy of this adapter fixing what ``feeds[0]`` binds in ``model`` (the subject's first form), and the
        indices of the feeds that agree with that fix (the runs its output is judged on; the first always). This
        adapter and ``[]`` when nothing can be fixed (no feeds, no symbol or unknown dim on a fed tensor input).

        The fix names a place of the interface the forms share (an input, an axis), not a symbol: a form may
        spell the symbol at that place otherwise (:func:`resolve` reads it in each form)."""
        if not feeds:
            return self, []
        first = feeds[0]
        for vi in _inputs(model):
            got = _shape(first.get(vi.name))
            dims = list(vi.type.tensor_type.shape.dim)
            if got is None or len(got) != len(dims):
                continue
            params = [i for i, d in enumerate(dims) if d.WhichOneof("value") == "dim_param"]
            if self.mode == "param" and params:
                fixes = {"input": vi.name, "axis": params[0], "size": got[params[0]], "shape": None}
            elif self.mode == "input" and (params or any(d.WhichOneof("value") is None for d in dims)):
                fixes = {"input": vi.name, "axis": None, "size": None, "shape": list(got)}
            else:
                continue
            given = copy.copy(self)
            given.fixes = fixes
            return given, [i for i, f in enumerate(feeds) if _agrees(f, fixes)]
        return self, []

    def precondition(self, model) -> str | None:
        if self.fixes is None:
            return (
                "nothing to fix: no fed tensor graph input has a dim_param"
                + (" or a dim with neither field" if self.mode == "input" else "")
                + " (the engine binds the pass from the case's first feeds)"
            )
        if self.fixes["input"] not in {v.name for v in _inputs(model)}:
            return f"this form has no fed tensor graph input {self.fixes['input']!r} with a shape"
        if self.mode == "param" and not resolve(self.fixes, model)["symbols"]:
            return f"this form writes no dim_param at {self.fixes['input']!r} axis {self.fixes['axis']}"
        return None

    def apply(self, model, workdir: Path):
        from onnxruntime.tools import onnx_model_utils as utils

        fixes = resolve(self.fixes or {}, model)
        try:
            if self.mode == "param":
                for symbol, size in fixes["symbols"].items():
                    utils.make_dim_param_fixed(model.graph, symbol, size)
            else:
                utils.make_input_shape_fixed(model.graph, fixes["input"], fixes["shape"])
        except ValueError as exc:  # the tool's own refusals (rank mismatch, a contradicting fixed size)
            raise PassDeclined(f"ValueError: {exc}") from exc
        utils.fix_output_shapes(model)
        return model


def resolve(fixes: Mapping[str, Any], model) -> dict[str, Any]:
    """What ``fixes`` (:attr:`DimFixAdapter.fixes`: an input and an axis and a size, or an input and a shape) asks
    of ``model``: ``{"symbols": {dim_param: size}, "input": name or None, "shape": sizes or None}`` — the symbol
    written at that axis, or every symbol of that input, in this model's own spelling; ``input`` and ``shape`` only
    when a whole input is fixed. Empty symbols when the model has no such input or no symbol there."""
    vi = next((v for v in _inputs(model) if v.name == fixes.get("input")), None)
    dims = list(vi.type.tensor_type.shape.dim) if vi is not None else []
    if fixes.get("shape") is None:
        axis = fixes.get("axis")
        d = dims[axis] if axis is not None and axis < len(dims) else None
        named = d is not None and d.WhichOneof("value") == "dim_param"
        return {"symbols": {d.dim_param: fixes["size"]} if named else {}, "input": None, "shape": None}
    shape = list(fixes["shape"])
    symbols = {d.dim_param: shape[i] for i, d in enumerate(dims) if d.WhichOneof("value") == "dim_param"}
    return {"symbols": symbols, "input": fixes["input"] if vi is not None else None, "shape": shape}


def _agrees(feed: Mapping[str, Any], fixes: Mapping[str, Any]) -> bool:
    """Whether ``feed`` gives the fixed input the fixed shape, or its fixed axis the fixed size (every other
    occurrence of the symbol there has that size in the same run: one binding per run)."""
    got = _shape(feed.get(fixes["input"]))
    if got is None:
        return False
    if fixes.get("shape") is not None:
        return got == tuple(fixes["shape"])
    return fixes["axis"] < len(got) and got[fixes["axis"]] == fixes["size"]


ADAPTERS = (DimFixAdapter("param"), DimFixAdapter("input"))
