"""onnx's function inliner (``onnx.inliner``) in three modes.

- ``onnx:inline-local-functions``: ``inline_local_functions(model)``: every call of a model-local
  function replaced by the function's body, recursively;
- ``onnx:inline-local-functions-convert``: the same with ``convert_version=True`` (a function
  importing another ai.onnx opset than the model's is version-converted while inlined);
- ``onnx:inline-schema-functions``: ``inline_selected_functions(model, [], exclude=True,
  inline_schema_functions=True)``: every function, model-local ones and the ops whose schema
  defines a (context-dependent) function body (Operators.md "function"), expanded.

All three are documented as computing the same values (an inlined body is the function's meaning,
IR.md "Functions"), so every oracle applies and none folds. The local-function inliners replace nodes
(``optimizes``: op-type parity applies, a call counted as its body's ops); ``inline-schema-functions`` expands
ops into their bodies, the opposite of a fusion, so a form already written as the body is no missed rewrite
(op-type parity does not apply).
"""

from __future__ import annotations

from pathlib import Path

from passcheck.passes._base import PassAdapter

#: variant → (keyword arguments, description).
VARIANTS: dict[str, tuple[dict, str]] = {
    "inline-local-functions": ({}, "onnx.inliner.inline_local_functions(model)"),
    "inline-local-functions-convert": (
        {"convert_version": True},
        "onnx.inliner.inline_local_functions(model, convert_version=True)",
    ),
    "inline-schema-functions": (
        {"function_ids": [], "exclude": True, "inline_schema_functions": True},
        "onnx.inliner.inline_selected_functions(model, [], exclude=True, inline_schema_functions=True)",
    ),
}


class OnnxInlinerAdapter(PassAdapter):
    """``onnx:<variant>`` of :data:`VARIANTS` (returns a new ModelProto; the input is left alone)."""

    tools = ("onnx",)
    #: inliner.cc copies initializers and node protos; it reads no tensor's values.
    carries_external_data = True

    def __init__(self, variant: str):
        self.variant = variant
        self.optimizes = variant != "inline-schema-functions"
        self.id = f"onnx:{variant}"
        self.doc = VARIANTS[variant][1]

    def apply(self, model, workdir: Path):
        import onnx.inliner

        kwargs = VARIANTS[self.variant][0]
        if "function_ids" in kwargs:
            return onnx.inliner.inline_selected_functions(model, **kwargs)
        return onnx.inliner.inline_local_functions(model, **kwargs)


ADAPTERS = tuple(OnnxInlinerAdapter(v) for v in VARIANTS)
