"""The onnx version converter (``onnx.version_converter.convert_version``) to a target opset."""

from __future__ import annotations

from pathlib import Path

from passcheck.passes._base import PassAdapter, PassDeclined, default_opset


class VersionConverterAdapter(PassAdapter):
    tools = ("onnx",)

    def __init__(self, target: int):
        self.target = target
        self.id = f"onnx:convert-opset-{target}"
        self.doc = f"onnx.version_converter.convert_version(model, {target})"

    def precondition(self, model):
        """The converter works between ai.onnx opsets 1 and the installed onnx's newest; it needs
        the model to import an ai.onnx opset to convert from."""
        import onnx.defs

        newest = onnx.defs.onnx_opset_version()
        if not 1 <= self.target <= newest:
            return f"the installed onnx converts to ai.onnx opsets 1..{newest}, not {self.target}"
        if default_opset(model) is None:
            return "the converter converts the ai.onnx opset; this model imports none"
        return None

    def apply(self, model, workdir: Path):
        import onnx.version_converter

        try:
            return onnx.version_converter.convert_version(model, self.target)
        except (RuntimeError, ValueError) as exc:  # the converter's C++ errors surface as these
            raise PassDeclined(f"{type(exc).__name__}: {exc}") from exc
