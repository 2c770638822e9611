"""A pass given as a Python callable ``ModelProto -> ModelProto`` or an onnx_ir pass (or a pass of
the ``onnxscript.ir`` older onnxscript bundles)."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path

from passcheck.passes._base import PassAdapter
from passcheck.passes.onnxscript_ir import IR_MODULES


class FunctionAdapter(PassAdapter):
    """Wrap ``fn`` as a pass with id ``id``.

    ``fn`` may be a callable taking and returning a ModelProto, or an ``onnx_ir.passes``
    pass instance (called on an IR model, its ``PassResult.model`` serialized back).
    """

    def __init__(self, id: str, fn: Callable, *, folds_constants: bool = False, optimizes: bool = True, doc: str = ""):
        self.id = id
        self.fn = fn
        self._folds = folds_constants
        self._optimizes = optimizes
        self.doc = doc or (fn.__doc__ or "").strip().split("\n")[0] or f"user pass {id}"

    @property
    def folds_constants(self) -> bool:  # type: ignore[override]
        return self._folds

    @property
    def optimizes(self) -> bool:  # type: ignore[override]
        return self._optimizes

    def apply(self, model, workdir: Path):
        root = _ir_pass_root(self.fn)
        if root is not None:
            ir = importlib.import_module(root)
            result = self.fn(ir.serde.deserialize_model(model))
            return ir.serde.serialize_model(getattr(result, "model", result))
        return self.fn(model)


def _ir_pass_root(fn) -> str | None:
    """The IR package (``onnx_ir`` or ``onnxscript.ir``) whose ``PassBase`` ``fn`` derives from, or None."""
    for c in type(fn).__mro__:
        if c.__name__ == "PassBase":
            for root in IR_MODULES:
                if c.__module__ == root or c.__module__.startswith(root + "."):
                    return root
    return None
