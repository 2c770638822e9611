"""Planted passes run as ``cmd:`` passes: standalone scripts ``SCRIPT IN OUT`` that rewrite a model.

Each reads and writes the model through onnx's protobuf classes alone (``onnx/onnx_ml_pb2.py`` loaded by path):
importing the ``onnx`` package costs about 0.9 s of CPU per process here (most of it ``ml_dtypes``), about ten
times the script's own work, and a triage or a reduction runs the pass many times. The bytes written are the
serialized ``ModelProto``, as ``onnx.save`` writes them.
"""

from __future__ import annotations

_HEAD = """import importlib.util, sys
from pathlib import Path

_where = Path(importlib.util.find_spec("onnx").submodule_search_locations[0]) / "onnx_ml_pb2.py"
_spec = importlib.util.spec_from_file_location("onnx_ml_pb2", _where)
_pb = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_pb)
m = _pb.ModelProto.FromString(Path(sys.argv[1]).read_bytes())
"""
_TAIL = "Path(sys.argv[2]).write_bytes(m.SerializeToString())\n"


def script(body: str) -> str:
    """The text of a planted pass whose ``body`` edits ``m`` (the input ``ModelProto``) in place."""
    return _HEAD + body + _TAIL


def renaming(old: str, new: str) -> str:
    """A planted pass that writes ``new`` for every ``old`` node (a wrong result)."""
    return script(f"for n in m.graph.node:\n    if n.op_type == {old!r}:\n        n.op_type = {new!r}\n")
