"""``ort-format:<level>``: onnxruntime's ORT format — the model as the minimal/mobile build loads it.

onnxruntime serializes a model a second way, as an ORT format flatbuffer (file identifier ``ORTM``): a session whose
``optimized_model_filepath`` is written with the session config ``session.save_model_format = ORT`` saves the graph
it optimized at its level in that format, and a session given those bytes with ``session.load_model_format = ORT``
loads them back. ``onnxruntime.tools.convert_onnx_models_to_ort`` does exactly this, at the level
``ORT_CONVERT_ONNX_MODELS_TO_ORT_OPTIMIZATION_LEVEL`` (default ``all``) with the ``NchwcTransformer`` disabled unless
``--target_platform amd64`` (its ``_convert``). The serializer (``core/graph/graph_flatbuffers_utils.cc``,
``Graph::SaveToOrtFormat``) writes every node, initializer (sparse ones too), NodeArg type, subgraph, opset import and
model-local function the graph holds; nothing in the format's documentation excludes a valid ONNX spelling, so the same
computation must come back for every form of a case.

This adapter is that round trip, in the tool's own calls:

1. the model is loaded at the level (``ORT_DISABLE_ALL`` … ``ORT_ENABLE_ALL``; ``all`` without ``NchwcTransformer``,
   as the converter does) and saved as ORT format; onnxruntime refusing the model here is ``declined``, as for
   ``ort:<level>``;
2. the ``.ort`` bytes are loaded back (``session.load_model_format = ORT``, no further optimization); a failure is a
   crash of the format (:class:`OrtFormatLost`), a finding;
3. onnxruntime itself writes the graph it loaded from the ``.ort`` bytes as ONNX (``optimized_model_filepath`` of the
   loading session, ``Graph::ToGraphProto`` of the graph built from the flatbuffer): that model is the pass's output,
   so every oracle that reads an ONNX model (checker, annotations, numeric, parity) judges what the ORT format kept;
4. the ``.ort`` session is run on the feeds the oracles use (the engine hands them over as it does to a calibrating
   quantizer, :meth:`OrtFormatAdapter.calibrated`; without them, one feed set synthesized from the input
   annotations) and so is the recovered ONNX model; outputs that differ (bit for bit, NaN where NaN), or a run that
   fails in one session only, raise :class:`OrtFormatLost`. The numeric oracle's verdict on the recovered model is
   then the ``.ort`` session's own.

A finding on ``ort-format:L`` that ``ort:L`` shows the same way is ``ort:L``'s (:attr:`OrtFormatAdapter.steps`).
Older onnxruntime releases write older ORT format versions; a feature a release's format lacks is a stated limit
(:class:`~passcheck.passes._base.PassUnsupported` when the tool says so), not a finding.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from passcheck.passes._base import PassAdapter, PassDeclined, PassUnsupported
from passcheck.passes.ort_optimizer import LEVELS

PREFIX = "ort-format:"
#: The transformer ``convert_onnx_models_to_ort`` disables at ``all`` / ``layout`` unless its target is amd64.
CONVERTER_DISABLED = ("NchwcTransformer",)
#: The flatbuffers file identifier of an ORT format model (``core/flatbuffers/schema/ort.fbs``: ``file_identifier``).
IDENTIFIER = b"ORTM"
#: How onnxruntime words a feature its ORT format does not hold, read as a stated limit: ``SaveTypeInfoOrtFormat``
#: (``core/graph/graph_flatbuffers_utils.cc``) writes tensor, sequence and map types and answers any other TypeProto
#: kind (optional, sparse tensor) with "We do not support type [<case>] for now".
STATED = ("We do not support type [",)


class OrtFormatLost(RuntimeError):
    """The ORT format did not carry the model: the ``.ort`` bytes onnxruntime wrote do not load, or the loaded model
    computes differently from onnxruntime's ONNX save of it (recorded as ``crashed``, a finding)."""


class OrtFormatAdapter(PassAdapter):
    """``ort-format:<level>`` (see module docs): the model saved as ORT format at ``level`` and loaded back; the output
    is onnxruntime's ONNX save of the loaded graph.

    Attributes:
        level: a key of :data:`~passcheck.passes.ort_optimizer.LEVELS`.
        feeds: the runs the oracles make (graph input name → array), from :meth:`calibrated`; empty until then.
    """

    tools = ("onnxruntime", "onnx")
    #: What the format states it cannot hold (``PassAdapter.clears``): its flatbuffer schema (``ort.fbs``, the Python
    #: bindings ``onnxruntime/tools/ort_format_model/ort_flatbuffers_py/fbs/Graph.py``) gives the table ``Graph``, the
    #: main graph's and every body's, no doc_string and no metadata_props field. The main graph's doc_string has one
    #: (``Model.graph_doc_string``), so its loss stays a finding (docs/found.md row 1442).
    clears = frozenset({"graph metadata_props", "body doc_string", "body metadata_props"})
    calibrates = True  # the engine's hand-over of the oracles' feeds (passcheck.engine.run_subject)
    feeds: tuple[Mapping[str, Any], ...] = ()

    def __init__(self, level: str):
        if level not in LEVELS:
            raise ValueError(f"unknown level {level!r}; one of {', '.join(LEVELS)}")
        self.level = level
        self.id = f"{PREFIX}{level}"
        self.steps = (f"ort:{level}",)
        off = f", disabled_optimizers={list(CONVERTER_DISABLED)}" if level == "all" else ""
        self.doc = (
            f"onnxruntime ORT format at {LEVELS[level]}{off} (session.save_model_format=ORT), loaded back "
            "(session.load_model_format=ORT) and saved as ONNX by onnxruntime; .ort outputs checked against it"
        )

    @property
    def folds_constants(self) -> bool:  # type: ignore[override]
        return self.level != "disabled"

    @property
    def optimizes(self) -> bool:  # type: ignore[override]
        return self.level != "disabled"

    def calibrated(self, feeds: Sequence[Mapping[str, Any]]) -> OrtFormatAdapter:
        """A copy of this adapter that runs the ``.ort`` session on ``feeds`` (pickled with them to its worker)."""
        given = copy.copy(self)
        given.feeds = tuple(dict(f) for f in feeds)
        return given

    def apply(self, model, workdir: Path):
        import onnx

        workdir = Path(workdir)
        data = write_ort(model.SerializeToString(), self.level, workdir / "model.ort")
        session, recovered = load_ort(data, workdir / "recovered.onnx")
        out = self.recover(onnx.load_from_string(recovered), model, data)
        agree(session, out.SerializeToString(), self._feeds(model))
        return out

    def recover(self, saved, model, data: bytes):
        """The pass's output: onnxruntime's ONNX save ``saved`` of the ``.ort`` ``data``, :func:`refill` ed."""
        return refill(saved, model, data)

    def _feeds(self, model) -> list[dict[str, Any]]:
        from passcheck.runtime import synthesize

        return [dict(f) for f in self.feeds] or [synthesize(model, {}, 0)]


def _options(level: str):
    import onnxruntime as ort

    ort.set_default_logger_severity(4)  # failures are returned as the outcome's error
    so = ort.SessionOptions()
    so.graph_optimization_level = getattr(ort.GraphOptimizationLevel, LEVELS[level])
    so.log_severity_level = 4
    so.intra_op_num_threads = 1
    return so


def write_ort(model_bytes: bytes, level: str, path: Path) -> bytes:
    """The ORT format bytes onnxruntime saves for ``model_bytes`` at ``level`` (written to ``path``).

    Raises:
        PassDeclined: onnxruntime refused the ONNX model (as ``ort:<level>`` would).
        PassUnsupported: onnxruntime states the ORT format cannot hold the model (:data:`STATED`).
        OrtFormatLost: the session was made but wrote no ORT format file.
    """
    import onnxruntime as ort

    so = _options(level)
    so.optimized_model_filepath = str(path)
    so.add_session_config_entry("session.save_model_format", "ORT")
    disabled = list(CONVERTER_DISABLED) if level == "all" else None
    try:
        ort.InferenceSession(model_bytes, so, providers=["CPUExecutionProvider"], disabled_optimizers=disabled)
    except Exception as exc:  # ORT reports every load failure as a generic exception type
        text = f"{type(exc).__name__}: {exc}"
        if any(s in text for s in STATED):
            raise PassUnsupported(text) from exc
        raise PassDeclined(text) from exc
    if not path.exists():
        raise OrtFormatLost(f"onnxruntime made the session but wrote no ORT format file at {path.name}")
    data = path.read_bytes()
    if data[4:8] != IDENTIFIER:
        raise OrtFormatLost(f"the file onnxruntime wrote is not an ORT format model (identifier {data[4:8]!r})")
    return data


def load_ort(data: bytes, onnx_path: Path):
    """An onnxruntime session of the ORT format ``data`` (no further optimization), which writes the graph it loaded
    as ONNX to ``onnx_path``; returns ``(session, onnx model bytes)``.

    Raises:
        OrtFormatLost: the bytes onnxruntime wrote do not load, or no ONNX model was written.
    """
    import onnxruntime as ort

    so = _options("disabled")
    so.add_session_config_entry("session.load_model_format", "ORT")
    so.optimized_model_filepath = str(onnx_path)
    try:
        session = ort.InferenceSession(data, so, providers=["CPUExecutionProvider"])
    except Exception as exc:
        raise OrtFormatLost(
            f"the ORT format model onnxruntime wrote does not load back: {type(exc).__name__}: {exc}"
        ) from exc
    if not onnx_path.exists():
        raise OrtFormatLost("onnxruntime loaded the ORT format model but wrote no ONNX model of it")
    return session, onnx_path.read_bytes()


def graph_outputs(data: bytes) -> dict[tuple[str, ...], list[str]]:
    """The output names of every graph the ORT format ``data`` holds, read with the flatbuffers reader onnxruntime
    ships (``onnxruntime.tools.ort_format_model.ort_flatbuffers_py``): ``()`` → the main graph's; a subgraph's under
    the key of its parent graph plus ``(first output name of its node, attribute name, index)``."""
    from onnxruntime.tools.ort_format_model.ort_flatbuffers_py.fbs import InferenceSession

    found: dict[tuple[str, ...], list[str]] = {}

    def walk(graph, key: tuple[str, ...]) -> None:
        found[key] = [graph.Outputs(j).decode() for j in range(graph.OutputsLength())]
        for n in range(graph.NodesLength()):
            node = graph.Nodes(n)
            if node is None:  # a removed node's slot
                continue
            first = next((o for o in (node.Outputs(j).decode() for j in range(node.OutputsLength())) if o), "")
            for k in range(node.AttributesLength()):
                attr = node.Attributes(k)
                subs = ([attr.G()] if attr.G() is not None else []) + [
                    attr.Graphs(j) for j in range(attr.GraphsLength())
                ]
                for i, g in enumerate(subs):
                    walk(g, (*key, first, attr.Name().decode(), str(i)))

    walk(InferenceSession.InferenceSession.GetRootAs(data, 0).Model().Graph(), ())
    return found


def refill(recovered, model, data: bytes):
    """``recovered`` (onnxruntime's ONNX save of the graph it loaded from the ORT format ``data``) with what that save
    leaves out of what the format holds, in place; returns it.

    - Graph names: the format's ``Graph`` table has no name field (``core/flatbuffers/schema/ort.fbs``), and
      onnxruntime writes the loaded graphs with an empty ``name``, which IR.md requires (the checker: "Field 'name'
      of 'graph' is required to be non-empty") and onnxruntime itself refuses in a subgraph (row 1208). The main
      graph takes ``model``'s name; a subgraph ``<node name or op type>_<attribute name>[_<index>]``.
    - Graph outputs: the outputs of each graph in ``data`` (:func:`graph_outputs`) that the save leaves out —
      onnxruntime 1.32 declares no output for a graph loaded from ORT format that has no node left, all its outputs
      initializers (docs/found.md row 1207) — are put back, in the format's order, declared from the initializer's
      element type and dims; so are the main graph's inputs, declared as ``model`` declares them (a graph with no
      node is saved without inputs too).

    :func:`agree` then checks that the refilled model computes what the ``.ort`` session does.
    """
    from onnx import helper

    outputs = graph_outputs(data)

    def fill(graph, key: tuple[str, ...], name: str) -> None:
        graph.name = graph.name or name
        want = outputs.get(key)
        have = {o.name: o for o in graph.output}
        inits = {t.name: t for t in graph.initializer}
        if want is not None and [o.name for o in graph.output] != want and all(n in have or n in inits for n in want):
            kept = [
                have[n] if n in have else helper.make_tensor_value_info(n, inits[n].data_type, list(inits[n].dims))
                for n in want
            ]
            copies = [type(v)() for v in kept]
            for c, v in zip(copies, kept):
                c.CopyFrom(v)
            del graph.output[:]
            graph.output.extend(copies)
        for node in graph.node:
            first = next((o for o in node.output if o), "")
            for attr in node.attribute:
                subs = ([attr.g] if attr.HasField("g") else []) + list(attr.graphs)
                for i, g in enumerate(subs):
                    suffix = f"_{i}" if len(subs) > 1 else ""
                    fill(g, (*key, first, attr.name, str(i)), f"{node.name or node.op_type}_{attr.name}{suffix}")

    fill(recovered.graph, (), model.graph.name or "main")
    want = main_inputs(data)  # a main graph left with no node is saved without its inputs too (row 1207)
    given = {i.name: i for i in model.graph.input}
    have = {i.name: i for i in recovered.graph.input}
    if [i.name for i in recovered.graph.input] != want and all(n in have or n in given for n in want):
        kept = [have.get(n) or given[n] for n in want]
        copies = [type(v)() for v in kept]
        for c, v in zip(copies, kept):
            c.CopyFrom(v)
        del recovered.graph.input[:]
        recovered.graph.input.extend(copies)
    return recovered


def main_inputs(data: bytes) -> list[str]:
    """The main graph's input names in the ORT format ``data`` (initializers that are inputs included, as the format
    lists them)."""
    from onnxruntime.tools.ort_format_model.ort_flatbuffers_py.fbs import InferenceSession

    graph = InferenceSession.InferenceSession.GetRootAs(data, 0).Model().Graph()
    return [graph.Inputs(j).decode() for j in range(graph.InputsLength())]


def agree(session, recovered: bytes, feeds: Sequence[Mapping[str, Any]]) -> None:
    """Run the ``.ort`` ``session`` and an unoptimized session of the ``recovered`` ONNX bytes on each of ``feeds``.

    Raises:
        OrtFormatLost: the recovered model does not load, a run fails in one session only, or an output differs
            (shape, dtype, or values bit for bit with NaN equal to NaN).
    """
    import onnxruntime as ort

    try:
        other = ort.InferenceSession(recovered, _options("disabled"), providers=["CPUExecutionProvider"])
    except Exception as exc:
        raise OrtFormatLost(
            f"the .ort session loads, onnxruntime's ONNX save of it fails to load: {type(exc).__name__}: {exc}"
        ) from exc
    names = [o.name for o in session.get_outputs()]
    if names != [o.name for o in other.get_outputs()]:
        raise OrtFormatLost(f"the .ort session's outputs {names} are not the recovered model's")
    wanted = {i.name for i in session.get_inputs()}
    for i, feed in enumerate(feeds):
        given = {k: v for k, v in feed.items() if k in wanted}
        a, a_err = _run(session, given)
        b, b_err = _run(other, given)
        if (a_err is None) != (b_err is None):
            raise OrtFormatLost(
                f"feed set {i}: the .ort session {'fails: ' + a_err if a_err else 'runs'}, onnxruntime's ONNX save "
                f"of it {'fails: ' + b_err if b_err else 'runs'}"
            )
        for name, x, y in zip(names, a or (), b or ()):
            why = _differs(x, y)
            if why:
                raise OrtFormatLost(f"feed set {i}: output {name!r} of the .ort session and of its ONNX save: {why}")


def _run(session, feeds) -> tuple[list | None, str | None]:
    try:
        return session.run(None, feeds), None
    except Exception as exc:  # noqa: BLE001 - a failing run is compared, not raised
        return None, f"{type(exc).__name__}: {str(exc).strip().splitlines()[0][:300]}"


def _differs(x, y) -> str | None:
    """Why two output values differ (tensors, or lists of them for sequences; None for an empty optional), or None."""
    import numpy as np

    if isinstance(x, list) or isinstance(y, list):
        if not (isinstance(x, list) and isinstance(y, list)) or len(x) != len(y):
            return "a sequence against another value or another length"
        return next((w for w in (_differs(p, q) for p, q in zip(x, y)) if w), None)
    if x is None or y is None:
        return None if x is y else "an empty optional against a value"
    x, y = np.asarray(x), np.asarray(y)
    if x.dtype != y.dtype or x.shape != y.shape:
        return f"{x.dtype}{list(x.shape)} against {y.dtype}{list(y.shape)}"
    if x.dtype.kind in "fc":
        same = (x == y) | (np.isnan(x) & np.isnan(y))
        return None if bool(np.all(same)) else f"{int((~same).sum())} of {x.size} elements differ"
    return None if bool(np.array_equal(x, y)) else f"{int((x != y).sum())} of {x.size} elements differ"


ADAPTERS = tuple(OrtFormatAdapter(level) for level in LEVELS)
