"""onnx-tool (PyPI ``onnx-tool``, github ThanatosShinji/onnx-tool): its shape inference, constant folding, fusion and
node reordering, each as the package's own entry points run them, the model written by its own ``save_model``.

onnx-tool reads a ModelProto into its ``Graph`` (``onnx_tool.Model(m, cfg)``: one ``Node`` object per node, from the
``NODE_REGISTRY`` class named ``<op_type>Node``; one ``Tensor`` per value) and writes one back with
``Graph.save_model(f, rawmodel=m)`` (``make_graph_onnx``: the nodes it holds, the initializers they read, the graph's
inputs and outputs and every other value it typed, as tensor ``value_info``; the given model's ``ir_version`` and
opset imports). Every pass here is that round trip around one operation:

- ``onnx-tool:shape-infer``: ``Graph.shape_infer(inputs)`` (as ``onnx_tool.model_profile`` calls it) with every fed
  tensor graph input bound to the array the case's first feeds give it, then ``save_model``. The tool refuses a
  symbolic or negative input dim (``Graph.check_inputs``: "is not valid, Please set it to a valid shape"), so
  shapes are inferred for one binding (seed 000, "Setup"): the output is judged on the runs that give every fed
  input the same shape as the first feeds (the engine's ``binds`` hand-over, as for ``ort-tools:fix-input-shape``),
  and every annotation it writes must hold on those runs. There is no dynamic variant: ``check_inputs`` refuses any
  ``dim_param``, and ``shape_regress`` returns a shape engine, not a model.
- ``onnx-tool:fold-constants``: ``onnx_tool.model_constant_folding`` (``Model(m, {'constant_folding': True})``:
  ``Graph.__constant_search__`` evaluates every node whose inputs are all static with its ``value_infer`` and
  drops it, its outputs becoming initializers), then ``save_model``.
- ``onnx-tool:fuse``: ``onnx_tool.fusion.ConvBNFusion(graph)`` (the one fusion of ``fusion.py`` that rewrites
  weights: a Conv followed by a BatchNormalization, BN's scale and shift folded into the Conv's weight and bias),
  then ``save_model``.
- ``onnx-tool:reorder``: ``onnx_tool.model_reorder_nodes`` (``Graph.graph_reorder_nodes``: the nodes topologically
  sorted), then ``save_model``.

A model holding a node whose op type has no ``NODE_REGISTRY`` class is outside what the tool states it handles
(``create_node`` warns "is not registed for profiling" and its ``Node.value_infer`` raises ``NotImplementedError``):
``unavailable``, not a finding. So is a node of a registered class that keeps the base ``Node.value_infer`` (LRN,
Einsum, TopK, ... when folding reaches one: "this Node <op>-<name> has no value_infer", the tool's own words,
:class:`~passcheck.passes._base.PassUnsupported`). A missing package is ``unavailable`` with its pip command.
"""

from __future__ import annotations

import copy
import warnings
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from passcheck.passes._base import PassAdapter, PassDeclined, PassUnsupported

PREFIX = "onnx-tool:"
SHAPE_INFER, FOLD, FUSE, REORDER = (f"{PREFIX}{n}" for n in ("shape-infer", "fold-constants", "fuse", "reorder"))
#: How ``Graph.check_inputs`` words an input shape it refuses (a symbol or a negative size left unbound).
REFUSED = ("is not valid, Please set it to a valid shape",)
#: How the base ``Node.value_infer`` words an op class that registers no value function (``node.py``).
NO_VALUE_INFER = "has no value_infer"


class OnnxToolWroteNothing(RuntimeError):
    """``Graph.save_model`` returned without writing a model (it warns "Empty graph" and returns when the graph it
    holds has no node left): recorded as ``crashed``, a finding (the model had nodes or outputs to keep)."""


def _fed_inputs(model) -> list[str]:
    """The names of ``model``'s tensor graph inputs that are not initializers (what a caller feeds)."""
    inits = {t.name for t in model.graph.initializer}
    return [v.name for v in model.graph.input if v.name not in inits and v.type.WhichOneof("value") == "tensor_type"]


class OnnxToolAdapter(PassAdapter):
    """One onnx-tool operation and ``save_model`` (see the module docstring).

    Attributes:
        operation: ``shape-infer``, ``fold-constants``, ``fuse`` or ``reorder``.
        shapes: for ``shape-infer`` after :meth:`bound`: graph input name → the array of the first feeds the tool
            infers from (None before: the registry's adapter, nothing bound, ``unavailable``).
    """

    tools = ("onnx-tool", "onnx")
    extra = "onnx-tool"
    #: ``Graph.__is_node_constant__`` calls a node constant only when none of its inputs is a DYNAMIC_TENSOR (a graph
    #: input or what reads one): a Shape of a fed input is never folded, by the tool's own definition.
    folds_shapes = False

    def __init__(self, operation: str) -> None:
        self.operation = operation
        self.id = f"{PREFIX}{operation}"
        self.binds = operation == "shape-infer"  # the engine calls bound() with the subject's feeds
        self.shapes: dict[str, Any] | None = None
        self.doc = {
            "shape-infer": "onnx_tool.Model(m).graph.shape_infer(first feeds), then save_model (one binding)",
            "fold-constants": "onnx_tool.model_constant_folding (Model(m, {'constant_folding': True}).save_model)",
            "fuse": "onnx_tool.fusion.ConvBNFusion(graph), then save_model",
            "reorder": "onnx_tool.model_reorder_nodes (graph_reorder_nodes, then save_model)",
        }[operation]

    @property
    def folds_constants(self) -> bool:  # type: ignore[override]
        return self.operation == "fold-constants"

    @property
    def optimizes(self) -> bool:  # type: ignore[override]
        return self.operation in ("fold-constants", "fuse")

    def bound(self, feeds: Sequence[Mapping[str, Any]], model) -> tuple[OnnxToolAdapter, list[int]]:
        """A copy of this adapter inferring from ``feeds[0]``'s arrays for ``model``'s fed tensor inputs, and the
        indices of the feeds that give each of those inputs the same shape (its output is judged on those runs;
        the first always). This adapter and ``[]`` when there is nothing to bind (no feeds, a fed input without
        an array)."""
        import numpy as np

        if not self.binds or not feeds:
            return self, []
        first = feeds[0]
        names = _fed_inputs(model)
        if not all(isinstance(first.get(n), np.ndarray) for n in names):
            return self, []
        given = copy.copy(self)
        given.shapes = {n: np.asarray(first[n]) for n in names}
        shape = {n: a.shape for n, a in given.shapes.items()}
        keep = [
            i
            for i, f in enumerate(feeds)
            if all(isinstance(f.get(n), np.ndarray) and f[n].shape == s for n, s in shape.items())
        ]
        return given, keep

    def precondition(self, model) -> str | None:
        import onnx_tool

        missing = sorted({n.op_type for n in model.graph.node} - _registered(onnx_tool))
        if missing:
            return (
                f"onnx-tool registers no node class for {', '.join(missing)} (onnx_tool.node.create_node: "
                "'is not registed for profiling'; its Node.value_infer raises NotImplementedError)"
            )
        if self.binds and self.shapes is None:
            return "nothing to bind: a fed graph input has no array in the case's first feeds"
        if self.binds and set(self.shapes or {}) != set(_fed_inputs(model)):
            return "this form's fed graph inputs are not the ones the first feeds bind"
        return None

    def apply(self, model, workdir: Path):
        import onnx
        import onnx_tool
        from onnx_tool import fusion

        path = Path(workdir) / "onnx_tool.onnx"
        given = copy.deepcopy(model)  # the tool reads the proto it is given and saves it as rawmodel
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                tool = onnx_tool.Model(given, {"constant_folding": self.operation == "fold-constants"})
                graph = tool.graph
                if self.operation == "shape-infer":
                    graph.shape_infer(dict(self.shapes or {}))
                elif self.operation == "fuse":
                    fusion.ConvBNFusion(graph)
                elif self.operation == "reorder":
                    graph.graph_reorder_nodes()
            except ValueError as exc:
                if any(s in str(exc) for s in REFUSED):
                    raise PassDeclined(f"ValueError: {exc}") from exc
                raise
            except NotImplementedError as exc:
                if NO_VALUE_INFER in str(exc):  # the base Node's own words: a registered class with no value_infer
                    raise PassUnsupported(f"onnx_tool: {exc}") from exc
                raise
            graph.save_model(str(path), rawmodel=given)
        if not path.exists():
            raise OnnxToolWroteNothing("onnx-tool's save_model wrote no model (its graph held no node)")
        return onnx.load(str(path))


def _registered(onnx_tool) -> set[str]:
    """The op types onnx-tool's ``NODE_REGISTRY`` holds a ``<op_type>Node`` class for."""
    names = getattr(onnx_tool.NODE_REGISTRY, "_obj_map", {})
    return {k[: -len("Node")] for k in names if k.endswith("Node")}


ADAPTERS = tuple(OnnxToolAdapter(op) for op in ("shape-infer", "fold-constants", "fuse", "reorder"))
