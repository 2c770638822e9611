"""Which ``Fusion`` subclasses onnxruntime's transformer optimizer constructs for a model type, and the op each
one declares it writes: ``Fusion.__init__(model, fused_op_type, search_op_types, …)`` (``fusion_base.py``, the base
class of every fusion in ``onnxruntime/transformers``) recorded while ``optimize_model`` runs. The optimizer classes
construct their fusions in ``__init__`` and ``optimize`` whatever the graph holds, so a one-node model reads a
type's fusions off the installed release. Used by :mod:`passcheck.passes.ort_transformers` (which types can be
offered) and :mod:`passcheck.coverage.ort_fusions` (the catalogue)."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator


def fusion_classes() -> list[type]:
    """``Fusion`` as the optimizer imports it (``fusion_base``, a top-level module once
    ``onnxruntime.transformers`` put its folder on ``sys.path``) and as a package module: one class or two."""
    import onnxruntime.transformers.fusion_base as packaged
    import onnxruntime.transformers.optimizer  # noqa: F401 - puts the top-level fusion modules in sys.modules

    found = [packaged.Fusion]
    top = sys.modules.get("fusion_base")
    if top is not None and top.Fusion is not packaged.Fusion:
        found.append(top.Fusion)
    return found


@contextlib.contextmanager
def patched(method: str, wrap: Callable) -> Iterator[None]:
    """``Fusion.<method>`` replaced by ``wrap(original)`` for the duration (every copy of the class)."""
    saved = [(c, c.__dict__[method]) for c in fusion_classes()]
    for c, original in saved:
        setattr(c, method, wrap(original))
    try:
        yield
    finally:
        for c, original in saved:
            setattr(c, method, original)


def one_node_model():
    """A float ``Relu`` over ``x[2, 3]``, opset 17: matches no fusion, so the optimizer only constructs them."""
    from onnx import TensorProto, helper

    graph = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["y"])],
        "probe",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def constructed(model_type: str, options=None) -> dict[str, str]:
    """Fusion class name → its ``fused_op_type`` ('' for none) for every fusion ``optimize_model(one_node_model(),
    model_type, num_heads=0, hidden_size=0, opt_level=0, optimization_options=options)`` constructs.

    Raises: whatever the optimizer raises on that model."""
    import logging

    from onnxruntime.transformers.optimizer import optimize_model

    out: dict[str, str] = {}

    def wrap(original):
        def init(self, *args, **kwargs):
            original(self, *args, **kwargs)
            out.setdefault(type(self).__name__, self.fused_op_type or "")

        return init

    previous = logging.root.manager.disable
    logging.disable(logging.WARNING)  # the optimizer modules log under their top-level names (onnx_model_mmdit …)
    try:
        with patched("__init__", wrap):
            optimize_model(
                one_node_model(), model_type, num_heads=0, hidden_size=0, opt_level=0, optimization_options=options
            )
    finally:
        logging.disable(previous)
    return out
