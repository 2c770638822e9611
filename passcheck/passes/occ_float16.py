"""onnxconverter-common's float16 conversion (``onnxconverter_common.float16``, the code onnxmltools re-exports as
``onnxmltools.utils.float16_converter``) and its mixed-precision search (``auto_mixed_precision``).

``float16.convert_float_to_float16(model, min_positive_val=1e-7, max_finite_val=1e4, keep_io_types=False,
disable_shape_infer=False, op_block_list=None, node_block_list=None)`` runs onnx shape inference first, then for the
main graph and every subgraph of a node it does not block (its ``get_next_level_graph``):

- every ``tensor(float)`` ``value_info``, initializer and attribute tensor (``t``, ``tensors``) becomes
  ``tensor(float16)``, the values clamped into ``[min_positive_val, max_finite_val]`` in magnitude;
- the nodes whose op type is in ``op_block_list`` (default ``DEFAULT_OP_BLOCK_LIST``: the ONNX-ML ops, TopK, Range,
  CumSum, Min, Max, Resize, Upsample, NonMaxSuppression, RoiAlign, RandomUniformLike) or whose name is in
  ``node_block_list`` stay float: a ``Cast`` to float before each float16 input and a ``Cast`` to float16 after each
  float output, their initializers kept float;
- with ``keep_io_types=True`` the float graph inputs / outputs stay float behind a ``Cast`` each; without it they
  become float16;
- the nodes are then sorted topologically and ``Cast(to=float16) → Cast(to=float)`` pairs it made are removed.

Unlike onnxruntime's fork (:mod:`passcheck.passes.ort_float16`) it reads no ``Cast`` ``to`` / ``dtype`` attribute and
no ``ALWAYS_FLOAT_INPUTS``. ``auto_mixed_precision.auto_convert_mixed_precision(model, feed_dict, rtol=, atol=,
keep_io_types=)`` runs the float model with onnxruntime on ``feed_dict``, then bisects the node names it passes as
``node_block_list`` until the converted model's outputs are ``np.allclose`` to the float ones; it raises ValueError when
the float model fails its own check or the final model does not validate.

The passes (:data:`VARIANTS`) keep a float interface so every oracle feeds the arrays it feeds the given model: for
the variants without ``keep_io_types`` the adapter itself puts a ``Cast`` to float16 behind each graph input and a
``Cast`` to float before each graph output the converter retyped (:func:`float_interface`), names unchanged; what is
judged inside is the converter's. They declare precision ``float16`` (the numeric oracle's float16 bound, as for
``ort-transformers:float16``), ``optimizes`` (both forms of one computation get the same conversions and Casts, by
the op types the block list names: :attr:`OccFloat16Adapter.by_type`). A missing package is ``unavailable``. Each
declares ``onnx:infer-shapes`` its step (``initial_checking`` runs that inference first): what it drops is onnx's row.
"""

from __future__ import annotations

import contextlib
import copy
import io
import warnings
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from passcheck.passes._base import PassAdapter, PassDeclined

PREFIX = "occ:"
#: variant -> keyword arguments of ``convert_float_to_float16`` (``auto-mixed-precision``: of
#: ``auto_convert_mixed_precision``). ``block-none`` empties ``DEFAULT_OP_BLOCK_LIST``: TopK, Range, CumSum, Min, Max,
#: Resize … converted like every other op (each has float16 in its ai.onnx type constraints).
VARIANTS: dict[str, dict[str, Any]] = {
    "float16": {},
    "float16-keep-io": {"keep_io_types": True},
    "float16-block-none": {"op_block_list": []},
    "auto-mixed-precision": {"keep_io_types": True},
}
#: The tolerance ``auto-mixed-precision`` asks of each attempt (``np.allclose(rtol, atol)``): the numeric oracle's
#: float16 pair (:data:`passcheck.oracles.numeric` ``"float16"``), so what the tool accepts is what is judged.
MIXED_TOLERANCE = (1e-2, 1e-3)
#: ValueError texts that are the tool's own refusals (declined, not crashed): ``check_if_fp16_ready`` refuses a model
#: that already holds float16 (a float16 value_info, initializer or Cast to float16: its ``check_fp16_ready`` default),
#: and ``auto_convert_mixed_precision`` a float model that fails its own validation.
DECLINED = ("The model is already converted to float16", "validation failed for original fp32 model")
FLOAT, FLOAT16 = 1, 10


class OccFloat16Adapter(PassAdapter):
    """``occ:<variant>`` (see module docs); the converter's output, with a float interface restored where the
    variant retypes graph inputs / outputs.

    Attributes:
        variant: a key of :data:`VARIANTS`.
        feeds: the runs the oracles make (graph input name → array), from :meth:`calibrated`; the mixed-precision
            search is run on the first (without them, one feed set synthesized from the input annotations).

    Raises (from :meth:`apply`): :class:`~passcheck.passes._base.PassDeclined` for the tool's own refusals
    (:data:`DECLINED`: a model already holding float16, a float model the search cannot validate); anything else the
    tool raises is recorded as ``crashed``."""

    tools = ("onnxconverter-common", "onnx", "onnxruntime")
    optimizes = True  # it converts and blocks by op type: both forms of one computation must be treated alike
    precision = "float16"
    extra = "onnxconverter-common"
    feeds: tuple[Mapping[str, Any], ...] = ()

    def __init__(self, variant: str):
        if variant not in VARIANTS:
            raise ValueError(f"unknown variant {variant!r}; one of {', '.join(VARIANTS)}")
        self.variant = variant
        self.id = f"{PREFIX}{variant}"
        self.options = dict(VARIANTS[variant])
        self.calibrates = variant == "auto-mixed-precision"
        # initial_checking runs onnx.shape_inference.infer_shapes on the model first unless disable_shape_infer (every
        # variant; auto_convert_mixed_precision too): what that inference drops is its documented row, not this one's.
        self.steps = () if self.options.get("disable_shape_infer") else ("onnx:infer-shapes",)
        args = "".join(f", {k}={v!r}" for k, v in self.options.items())
        if self.calibrates:
            self.doc = (
                "onnxconverter_common.auto_mixed_precision.auto_convert_mixed_precision(model, feeds[0], "
                f"rtol={MIXED_TOLERANCE[0]}, atol={MIXED_TOLERANCE[1]}{args})"
            )
        else:
            self.doc = f"onnxconverter_common.float16.convert_float_to_float16(model{args})"

    def calibrated(self, feeds: Sequence[Mapping[str, Any]]) -> OccFloat16Adapter:
        """A copy that searches on ``feeds`` (the runs the oracles make); this adapter itself when it runs nothing."""
        if not self.calibrates:
            return self
        given = copy.copy(self)
        given.feeds = tuple(dict(f) for f in feeds)
        return given

    @property
    def by_type(self) -> frozenset[str]:
        """The op types the variant blocks (``DEFAULT_OP_BLOCK_LIST`` unless emptied); empty when the package is
        missing."""
        if "op_block_list" in self.options:
            return frozenset(self.options["op_block_list"])
        try:
            from onnxconverter_common import float16
        except ImportError:
            return frozenset()
        return frozenset(float16.DEFAULT_OP_BLOCK_LIST)

    def precondition(self, model) -> str | None:
        """The converter's documented refusal, read before running it: ``check_if_fp16_ready(model.graph)`` (its
        ``check_fp16_ready=True`` default: a float16 graph input / output / value_info, initializer or Cast to
        float16 in the main graph) makes ``convert_float_to_float16`` raise; such a model is outside the tool's
        scope (``unavailable``), as a rewrite that writes float16 into one form makes it. None when the package is
        missing (:meth:`unavailable_reason` says so) or the model is float."""
        try:
            from onnxconverter_common import float16
        except ImportError:
            return None
        if float16.check_if_fp16_ready(model.graph):
            return "the model already holds float16 (onnxconverter-common's check_if_fp16_ready refuses it by design)"
        return None

    def apply(self, model, workdir: Path):
        from onnxconverter_common import float16

        with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
            warnings.simplefilter("ignore")  # its clamp warnings, one per tensor
            try:
                out = self._mixed(model) if self.calibrates else float16.convert_float_to_float16(model, **self.options)
            except ValueError as exc:
                if any(d in str(exc) for d in DECLINED):
                    raise PassDeclined(f"onnxconverter-common: {str(exc).splitlines()[0]}") from exc
                raise
        return out if self.options.get("keep_io_types") else float_interface(out, model)

    def _mixed(self, model):
        from onnxconverter_common import auto_mixed_precision

        from passcheck.runtime import synthesize
        from passcheck.runtime.feeds import runtime_inputs

        names = {vi.name for vi in runtime_inputs(model)}
        feed = {k: v for k, v in (self.feeds[0] if self.feeds else synthesize(model, {}, 0)).items() if k in names}
        rtol, atol = MIXED_TOLERANCE
        return auto_mixed_precision.auto_convert_mixed_precision(model, feed, rtol=rtol, atol=atol, **self.options)


def float_interface(out, given):
    """``out`` with the graph inputs / outputs ``given`` declares ``tensor(float)`` and ``out`` declares
    ``tensor(float16)`` made float again: each such input ``x`` read through ``Cast(x, to=FLOAT16)`` (every read of
    ``x`` in the graph and its subgraphs renamed to the Cast's output), each such output ``y`` written by
    ``Cast(y', to=FLOAT)`` from the float16 value renamed ``y'``. Names stay; ``out`` is edited and returned."""
    from onnx import helper

    def typed(vis, dtype):
        return {v.name for v in vis if v.type.tensor_type.elem_type == dtype}

    was_float = typed(given.graph.input, FLOAT), typed(given.graph.output, FLOAT)
    g = out.graph
    taken = {n for node in _nodes(g) for n in (*node.input, *node.output)} | {v.name for v in g.input}
    fresh = _fresh(taken)
    casts = []
    for vi in g.input:
        if vi.name in was_float[0] and vi.type.tensor_type.elem_type == FLOAT16:
            new = fresh(vi.name + "_float16")
            _rename_reads(g, vi.name, new)
            vi.type.tensor_type.elem_type = FLOAT
            casts.append(helper.make_node("Cast", [vi.name], [new], to=FLOAT16, name=new + "_cast"))
    tail = []
    for vi in g.output:
        if vi.name in was_float[1] and vi.type.tensor_type.elem_type == FLOAT16:
            new = fresh(vi.name + "_float16")
            _rename_reads(g, vi.name, new)
            for node in g.node:
                node.output[:] = [new if o == vi.name else o for o in node.output]
            vi.type.tensor_type.elem_type = FLOAT
            tail.append(helper.make_node("Cast", [new], [vi.name], to=FLOAT, name=new + "_cast"))
    nodes = [*casts, *g.node, *tail]
    del g.node[:]
    g.node.extend(nodes)
    return out


def _nodes(g):
    for node in g.node:
        yield node
        for a in node.attribute:
            for sub in (a.g, *a.graphs) if a.HasField("g") else a.graphs:
                yield from _nodes(sub)


def _rename_reads(g, old: str, new: str) -> None:
    """Every node input named ``old`` in ``g`` and its nested subgraphs (outer-scope reads) renamed ``new``."""
    for node in _nodes(g):
        node.input[:] = [new if i == old else i for i in node.input]
    for vi in g.value_info:
        if vi.name == old:
            vi.name = new


def _fresh(taken: set[str]):
    def fresh(base: str) -> str:
        name, k = base, 0
        while name in taken:
            k += 1
            name = f"{base}_{k}"
        taken.add(name)
        return name

    return fresh


ADAPTERS = tuple(OccFloat16Adapter(v) for v in VARIANTS)
