"""``onnx:load-external-data``: onnx's loader reading back every tensor a model stores as external data.

IR.md §External Tensor Data: a ``TensorProto`` may keep its bytes in a file beside the model
(``data_location`` ``EXTERNAL``, ``external_data`` entries ``location``, ``offset``, ``length``) instead of
``raw_data``. The section names no place a tensor must be for this; onnx's own writer
(``external_data_helper.convert_model_to_external_data(..., convert_attribute=True)``, its docstring: "convert all
tensors to external data") moves the tensors of node attributes too — ``Constant.value`` and the like — in the main
graph, in nested graphs and in the bodies of model-local functions (``ModelProto.functions``). A loader must read
every such tensor back, or the model it returns references bytes it never loaded.

This adapter writes the model's numeric tensors (``raw_data``, or the typed field rewritten as the same bytes;
initializers of every graph, ``TENSOR`` / ``TENSORS``
attributes of every node, nested graphs and model-local function bodies included) to one file in its workdir with
passcheck's own walker (so what is written does not depend on the writer of the version under test), then calls the
tool: ``onnx.external_data_helper.load_external_data_for_model(model, workdir)``, the reader behind ``onnx.load``.
A correct loader gives the input model back; one that skips a place leaves a tensor with no value field, which the
checker rejects ("should be stored in …") and onnxruntime refuses. It neither optimizes nor folds.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from passcheck.passes._base import PassAdapter

#: The file the tensors' bytes are written to, relative to the workdir.
LOCATION = "passcheck-tensors.bin"


def tensors(model) -> Iterator:
    """Every ``TensorProto`` of ``model`` that IR.md lets store its bytes externally.

    Initializers of the main graph and of every nested graph, the ``t`` / ``tensors`` of every node attribute
    (nested graphs and model-local function bodies included). Sparse tensors are left out (their ``values`` and
    ``indices`` are tensors of a ``SparseTensorProto``, which onnx's writer does not move either).
    """
    yield from _graph_tensors(model.graph)
    for function in model.functions:
        yield from _node_tensors(function.node)


def _graph_tensors(graph) -> Iterator:
    yield from graph.initializer
    yield from _node_tensors(graph.node)


def _node_tensors(nodes) -> Iterator:
    for node in nodes:
        for attr in node.attribute:
            if attr.HasField("t"):
                yield attr.t
            yield from attr.tensors
            for g in ([attr.g] if attr.HasField("g") else []) + list(attr.graphs):
                yield from _graph_tensors(g)


#: Element types whose typed field (``float_data``, ``int32_data``, …) :func:`as_raw` rewrites as ``raw_data``.
NUMERIC = frozenset({1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 13})  # FLOAT … UINT64, BOOL, FLOAT16, DOUBLE


def as_raw(tensor) -> bool:
    """Rewrite ``tensor``'s typed field as ``raw_data`` in place (onnx.proto TensorProto: the same content in either
    field); strings and the types not in :data:`NUMERIC` are left. Returns whether ``tensor`` now holds ``raw_data``."""
    from onnx import numpy_helper

    if tensor.HasField("raw_data") or tensor.data_location == 1:
        return tensor.HasField("raw_data")
    if tensor.data_type not in NUMERIC:
        return False
    array = numpy_helper.to_array(tensor)
    data = array.astype(array.dtype.newbyteorder("<")).tobytes()
    for field in ("float_data", "int32_data", "int64_data", "double_data", "uint64_data"):
        tensor.ClearField(field)
    tensor.raw_data = data
    return True


def externalize(model, workdir: Path) -> int:
    """Move the bytes of every tensor of :func:`tensors` to ``workdir / LOCATION``, in place: ``raw_data``, and the
    typed field of a numeric tensor (:func:`as_raw`; IR.md's external data is the raw bytes, and either field spells
    the same content).

    Returns:
        How many tensors now reference the file (0: the model holds no tensor with numeric content).
    """
    from onnx import TensorProto

    moved = 0
    with open(workdir / LOCATION, "wb") as f:
        for t in tensors(model):
            if not as_raw(t):
                continue
            offset = f.tell()
            f.write(t.raw_data)
            del t.external_data[:]
            for key, value in (("location", LOCATION), ("offset", str(offset)), ("length", str(len(t.raw_data)))):
                entry = t.external_data.add()
                entry.key, entry.value = key, value
            t.ClearField("raw_data")
            t.data_location = TensorProto.EXTERNAL
            moved += 1
    return moved


class LoadExternalDataAdapter(PassAdapter):
    """``onnx:load-external-data``: the model's numeric tensors written out, then read back by onnx's loader."""

    id = "onnx:load-external-data"
    tools = ("onnx",)
    doc = "onnx.external_data_helper.load_external_data_for_model(<every numeric tensor written to a file>, workdir)"

    def precondition(self, model) -> str | None:
        if not any(t.HasField("raw_data") or t.data_type in NUMERIC for t in tensors(model)):
            return "the model has no numeric tensor to write as external data"
        return None

    def apply(self, model, workdir: Path):
        import onnx
        from onnx import external_data_helper

        given = onnx.ModelProto()
        given.CopyFrom(model)
        externalize(given, workdir)
        external_data_helper.load_external_data_for_model(given, str(workdir))
        return given


ADAPTERS = (LoadExternalDataAdapter(),)
