"""Moved: the version facts (opset ↔ ir_version, what onnx knows) live in :mod:`passcheck._versions`
(the data layer, below the engine and the case model). Kept so case modules written against this
path keep importing."""

from passcheck._versions import ir_version_for, max_supported_opset, version_tuple

__all__ = ["ir_version_for", "max_supported_opset", "version_tuple"]
