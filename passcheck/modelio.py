"""Reading models from files and bytes with one-line errors, and hashing their bytes."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import TYPE_CHECKING

from passcheck.errors import ModelLoadError

if TYPE_CHECKING:
    import onnx


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def model_hash(model: "onnx.ModelProto") -> str:
    """sha256 of the model's deterministic serialization (the bytes every environment gets)."""
    return sha256(model.SerializeToString(deterministic=True))


def load_model(path: str | Path) -> "onnx.ModelProto":
    """Read an ONNX model file, external data included (only from inside the model's folder).

    Raises:
        ModelLoadError: missing, empty or unparsable file, not a ModelProto, or external data
            that is missing or points outside the model's folder.
    """
    import onnx

    p = Path(path)
    if not p.exists():
        raise ModelLoadError(f"{p}: no such file")
    if p.is_dir():
        raise ModelLoadError(f"{p}: is a folder; give the path of a .onnx model file")
    data = p.read_bytes()
    model = model_from_bytes(data, str(p))
    if _uses_external_data(model):
        _check_external_paths(model, p.parent)
        try:
            onnx.load_external_data_for_model(model, str(p.parent))
        except Exception as exc:  # noqa: BLE001
            raise ModelLoadError(f"{p}: external data could not be read: {exc}") from None
    return model


def model_from_bytes(data: bytes, where: str = "<bytes>") -> "onnx.ModelProto":
    """Parse bytes as a ModelProto, refusing what is clearly not a model.

    Raises:
        ModelLoadError: empty, not protobuf, or a protobuf with no graph (e.g. a TensorProto).
    """
    import onnx
    from google.protobuf.message import DecodeError

    if not data:
        raise ModelLoadError(f"{where}: empty file, not an ONNX model")
    model = onnx.ModelProto()
    try:
        model.ParseFromString(data)
    except (DecodeError, RuntimeError, ValueError) as exc:
        raise ModelLoadError(f"{where}: not an ONNX model (protobuf parse failed: {exc})") from None
    if not model.HasField("graph") or not model.opset_import and model.ir_version == 0:
        raise ModelLoadError(f"{where}: parsed as protobuf but it is not a ModelProto (no graph/opset_import); is it a TensorProto or GraphProto?")
    if not model.graph.node and not model.graph.output:
        raise ModelLoadError(f"{where}: the model's graph is empty (no nodes, no outputs)")
    return model


def _uses_external_data(model: "onnx.ModelProto") -> bool:
    import onnx

    return any(t.data_location == onnx.TensorProto.EXTERNAL for t in _all_tensors(model))


def _all_tensors(model: "onnx.ModelProto"):
    from onnx.external_data_helper import _get_all_tensors

    return _get_all_tensors(model)


def _check_external_paths(model: "onnx.ModelProto", base: Path) -> None:
    import onnx

    root = base.resolve()
    for t in _all_tensors(model):
        if t.data_location != onnx.TensorProto.EXTERNAL:
            continue
        loc = {e.key: e.value for e in t.external_data}.get("location", "")
        target = (root / loc).resolve()
        if Path(loc).is_absolute() or root not in target.parents:
            raise ModelLoadError(f"initializer {t.name!r}: external data location {loc!r} points outside the model's folder {root}; refusing to read it")
        if not target.is_file():
            raise ModelLoadError(f"initializer {t.name!r}: external data file {loc!r} is missing beside the model")
