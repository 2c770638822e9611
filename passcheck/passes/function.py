"""A pass given as a Python callable ``ModelProto -> ModelProto`` or an onnx_ir pass."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from passcheck.passes._base import PassAdapter


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
        if _is_ir_pass(self.fn):
            import onnx_ir as ir

            result = self.fn(ir.serde.deserialize_model(model))
            return ir.serde.serialize_model(getattr(result, "model", result))
        return self.fn(model)


def _is_ir_pass(fn) -> bool:
    return any(c.__name__ == "PassBase" and c.__module__.startswith("onnx_ir") for c in type(fn).__mro__)
