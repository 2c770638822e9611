"""The onnx version converter (``onnx.version_converter.convert_version``) to a target opset."""

from __future__ import annotations

from pathlib import Path

from passcheck.passes._base import PassAdapter, PassDeclined


class VersionConverterAdapter(PassAdapter):
    tools = ("onnx",)

    def __init__(self, target: int):
        self.target = target
        self.id = f"onnx:convert-opset-{target}"
        self.doc = f"onnx.version_converter.convert_version(model, {target})"

    def apply(self, model, workdir: Path):
        import onnx.version_converter

        try:
            return onnx.version_converter.convert_version(model, self.target)
        except (RuntimeError, ValueError) as exc:  # the converter's C++ errors surface as these
            raise PassDeclined(f"{type(exc).__name__}: {exc}") from exc
