"""``PASS+external-data``: a pass given its model with the initializers' bytes in a file beside it.

IR.md §External Tensor Data lets a TensorProto keep its bytes outside the model: ``data_location``
``EXTERNAL`` and ``external_data`` entries (``location``, a path relative to the model's directory,
``offset``, ``length``) instead of ``raw_data``. It is how every model above protobuf's 2 GB limit is
written, and a tool handed such a model in memory (``onnx.load(path, load_external_data=False)``) must
carry the references through untouched: it never holds the bytes. No case or rewrite can write this
spelling (the runtime and the checker need the file: docs/spellings.md, ``external-tensor-data``), so the
carrier writes it *around the pass*: it saves the model's ``raw_data`` initializers (main graph and
subgraphs; what ``onnx.save(..., save_as_external_data=True, size_threshold=0)`` moves) to one file in the
pass's workdir, hands the tool the model holding the references only, then reads every tensor of the
output that still references external data back from that workdir. The output the oracles see is an
ordinary model: a tool that kept the references gives the input's values back; one that rebuilt a tensor
without them (data_location reset, no value field) gives an initializer with dims but no data, which the
checker rejects ("should contain one and only one value field") and onnxruntime refuses.

Only tools whose own source says they carry tensors without reading their values take part (adapters
declaring ``carries_external_data``): onnx's version converter (``convert.cc``: ``ImportModelProto`` → its
IR → ``ExportModelProto``, tensors through ``ir_pb_converter.cc``), its inliner and ``onnx.compose.add_prefix``
(proto copies).
Passes that read tensor values (shape inference reads initializers as shape inputs, the optimizers fold
them) or run the model (onnxruntime loads a model from bytes with no directory for ``location``) are
``unavailable`` under the carrier: the in-memory form without the bytes is outside what they document.
"""

from __future__ import annotations

from pathlib import Path

from passcheck.errors import PasscheckError
from passcheck.passes._base import PassAdapter

#: The id suffix: ``onnx:convert-opset-down+external-data``.
SUFFIX = "+external-data"
#: The file the initializers' bytes are written to, relative to the pass's workdir (the model's directory).
LOCATION = "passcheck-external.bin"


def externalize(model, workdir: Path) -> int:
    """Move ``model``'s ``raw_data`` initializers (every graph's) to ``workdir / LOCATION``, in place.

    Returns:
        How many tensors now reference the file (0: nothing to move).
    """
    from onnx import external_data_helper as ed

    ed.convert_model_to_external_data(
        model, all_tensors_to_one_file=True, location=LOCATION, size_threshold=0, convert_attribute=False
    )
    ed.write_external_data_tensors(model, str(workdir))
    return sum(1 for t in _initializers(model.graph) if ed.uses_external_data(t))


def internalize(model, workdir: Path) -> None:
    """Read every tensor of ``model`` that references external data back from ``workdir``, in place.

    Raises:
        Exception: a reference the tool rewrote to a file that is not there (recorded as ``crashed``).
    """
    from onnx import external_data_helper as ed

    ed.load_external_data_for_model(model, str(workdir))


class ExternalDataAdapter(PassAdapter):
    """``<inner>+external-data``: ``inner`` run on the external-data form of its model (module doc).

    Capabilities, tools and declines are the inner pass's; the precondition adds that the inner adapter
    declares ``carries_external_data`` and that the model holds a ``raw_data`` initializer to move.
    """

    def __init__(self, inner: PassAdapter):
        self.inner = inner
        self.id = inner.id + SUFFIX
        self.tools = inner.tools
        self.declines = inner.declines
        self.doc = f"{inner.doc or inner.id}, the model's initializers in an external data file (IR.md)"
        for name in ("folds_constants", "optimizes", "needs_feeds", "min_opset", "max_opset", "extra"):
            setattr(self, name, getattr(inner, name))

    def unavailable_reason(self) -> str | None:
        return self.inner.unavailable_reason()

    def precondition(self, model) -> str | None:
        if not self.inner.carries_external_data:
            return (
                f"{self.inner.id} reads tensor values or runs the model: given in memory without the bytes, "
                "external data is outside what it documents"
            )
        if not any(t.HasField("raw_data") for t in _initializers(model.graph)):
            return "the model has no raw_data initializer to write as external data"
        return self.inner.precondition(model)

    def apply(self, model, workdir: Path):
        import onnx

        given = onnx.ModelProto()
        given.CopyFrom(model)
        externalize(given, workdir)
        out = self.inner.apply(given, workdir)
        internalize(out, workdir)
        return out

    def versions(self) -> dict[str, str | None]:
        return self.inner.versions()


def _initializers(graph):
    yield from graph.initializer
    for node in graph.node:
        for attr in node.attribute:
            for g in ([attr.g] if attr.HasField("g") else []) + list(attr.graphs):
                yield from _initializers(g)


def wrap(pass_id: str, get) -> PassAdapter:
    """The carrier around ``get(inner id)`` for an id ending in :data:`SUFFIX`.

    Raises:
        PasscheckError: nothing before the suffix.
    """
    inner = pass_id[: -len(SUFFIX)]
    if not inner:
        raise PasscheckError(f"pass {pass_id!r}: name a pass before {SUFFIX!r}")
    return ExternalDataAdapter(get(inner))
