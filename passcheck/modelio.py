"""Reading models from files and bytes with one-line errors, and hashing their bytes."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import TYPE_CHECKING

from passcheck import interrupts
from passcheck.errors import ModelLoadError

if TYPE_CHECKING:
    import onnx

#: The most bytes a serialized ModelProto can have: protobuf refuses a message of 2 GiB or more (onnx's
#: "External Data" documentation: a larger model keeps its tensors outside the ModelProto).
MAX_MODEL_BYTES = (2 << 30) - 1


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def model_hash(model: onnx.ModelProto) -> str:
    """sha256 of the model's deterministic serialization (the bytes every environment gets)."""
    return sha256(model.SerializeToString(deterministic=True))


def load_model(path: str | Path) -> onnx.ModelProto:
    """Read an ONNX model file, external data included (only from inside the model's folder).

    Raises:
        ModelLoadError: missing, empty or unparsable file, not a ModelProto, or external data
            that is missing or points outside the model's folder.
    """
    p = Path(path)
    if not p.exists():
        raise ModelLoadError(f"{p}: no such file")
    if p.is_dir():
        raise ModelLoadError(f"{p}: is a folder; give the path of a .onnx model file")
    data = read_input(p)
    return with_external_data(model_from_bytes(data, str(p)), p)


def with_external_data(model: onnx.ModelProto, path: Path) -> onnx.ModelProto:
    """``model``, read from the file ``path``, with the external data of its tensors (ONNX IR spec,
    "External tensor data") loaded into it from ``path``'s folder, only from inside that folder.

    Raises:
        ModelLoadError: a data file missing, unreadable, or outside the model's folder.
    """
    import onnx

    if _uses_external_data(model):
        _check_external_paths(model, path)
        try:
            onnx.load_external_data_for_model(model, str(path.parent))
        except Exception as exc:  # noqa: BLE001
            raise ModelLoadError(f"{path}: external data could not be read: {exc}") from None
    return model


def read_input(path: Path, tick: float = 0.5) -> bytes:
    """The bytes of ``path``. A FIFO, socket or device is read without blocking in C: opened
    non-blocking, then polled every ``tick`` seconds (interrupts honoured between polls) until
    its writer closes it.

    A signal sent to the process may be taken by another thread (numpy's BLAS starts one), and
    Python runs its handler only when the main thread next runs bytecode; a main thread blocked
    in ``open``/``read`` of a FIFO nobody writes would then never stop on Ctrl-C or SIGTERM.

    Raises:
        OSError: the path cannot be opened or read (the CLI reports it in one line).
        ModelLoadError: more than :data:`MAX_MODEL_BYTES` (protobuf's limit), or a stream whose first byte
            starts no protobuf field (``/dev/zero``).
        KeyboardInterrupt: SIGINT or SIGTERM arrived while waiting for data.
    """
    import select
    import stat

    st = path.stat()
    if stat.S_ISREG(st.st_mode):
        if st.st_size > MAX_MODEL_BYTES:
            raise _too_long(path)
        return path.read_bytes()
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # a FIFO's open waits for no writer
    try:
        poller = select.poll()
        poller.register(fd, select.POLLIN)
        chunks, read = [], 0
        while True:
            interrupts.check()
            if not poller.poll(int(tick * 1000)):  # nothing yet (a FIFO: not before a writer came)
                continue
            try:
                chunk = os.read(fd, 1 << 20)
            except BlockingIOError:
                continue
            if not chunk:  # every writer closed
                return b"".join(chunks)
            if not chunks and chunk[0] < 8:  # a tag of field number 0 (/dev/zero): no protobuf message
                raise ModelLoadError(
                    f"{path}: not an ONNX model (its first byte {chunk[0]:#04x} starts no protobuf field)"
                )
            chunks.append(chunk)
            read += len(chunk)
            if read > MAX_MODEL_BYTES:  # an endless stream (`yes`, /dev/urandom) stops here, not at the memory's end
                raise _too_long(path)
    finally:
        os.close(fd)


def _too_long(path: Path) -> ModelLoadError:
    return ModelLoadError(
        f"{path}: more than {MAX_MODEL_BYTES >> 20} MiB, not an ONNX model: protobuf caps a serialized "
        "ModelProto below 2 GiB (a larger model keeps its tensors in external data files)"
    )


def model_from_bytes(data: bytes, where: str = "<bytes>") -> onnx.ModelProto:
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
    except (DecodeError, RuntimeError, ValueError):
        model = None
    if model is None or not model.HasField("graph") or not model.opset_import and model.ir_version == 0:
        other = _other_message(data)
        if other:
            raise ModelLoadError(
                f"{where}: this is an ONNX {other}, not a ModelProto; give a model file (onnx.save of a ModelProto)"
            )
        if model is None:
            raise ModelLoadError(
                f"{where}: not an ONNX model (protobuf parse failed: truncated or not protobuf); "
                "re-export or re-download the file"
            )
        raise ModelLoadError(
            f"{where}: parsed as protobuf but it is not a ModelProto (no graph/opset_import); give a model file"
        )
    if not model.graph.node and not model.graph.output:
        raise ModelLoadError(f"{where}: the model's graph is empty (no nodes, no outputs)")
    require_utf8(model, where)
    return model


def require_utf8(model: onnx.ModelProto, where: str) -> None:
    """Refuse a model with a string field (a name, domain, doc string …) that is not UTF-8.

    The protobuf language defines ``string`` as UTF-8 text; onnx.proto's names are strings.
    Python's protobuf hands such a field over as ``bytes``, which onnxruntime's Python API
    cannot decode, so no run of the model could be observed.

    Raises:
        ModelLoadError: the first such field, by its path in the model.
    """
    if (bad := non_utf8_field(model)) is not None:
        path, raw = bad
        raise ModelLoadError(
            f"{where}: {path} is not UTF-8 text ({raw[:40]!r}); protobuf string fields (names, domains, "
            f"doc strings) must be UTF-8 and onnxruntime cannot read them otherwise; rename it"
        )


#: Protobuf field full name → ("string" | "message" | "", repeated): what :func:`non_utf8_field` reads.
_FIELD_KINDS: dict[str, tuple[str, bool]] = {}


def _field_kind(field) -> tuple[str, bool]:
    """``field``'s entry of :data:`_FIELD_KINDS` (``is_repeated`` from protobuf 5.29, ``label`` before;
    a map's entries are left to protobuf: onnx.proto has no map fields)."""
    kind = _FIELD_KINDS.get(field.full_name)
    if kind is None:
        from google.protobuf.descriptor import FieldDescriptor

        flag = getattr(field, "is_repeated", None)
        repeated = bool(flag) if flag is not None else field.label == FieldDescriptor.LABEL_REPEATED
        if field.type == FieldDescriptor.TYPE_STRING:
            kind = ("string", repeated)
        elif field.type == FieldDescriptor.TYPE_MESSAGE and not field.message_type.GetOptions().map_entry:
            kind = ("message", repeated)
        else:
            kind = ("", repeated)
        _FIELD_KINDS[field.full_name] = kind
    return kind


def non_utf8_field(message, path: str = "model") -> tuple[str, bytes] | None:
    """The path (``model.graph.node[0].input[0]``) and bytes of the first string field of
    ``message`` that is not UTF-8 (Python's protobuf gives those as ``bytes``), or None."""
    for field, value in message.ListFields():
        kind, repeated = _field_kind(field)
        if kind == "string":
            for i, v in enumerate(value if repeated else (value,)):
                if isinstance(v, bytes):
                    return f"{path}.{field.name}" + (f"[{i}]" if repeated else ""), v
        elif kind == "message":
            for i, v in enumerate(value if repeated else (value,)):
                if (bad := non_utf8_field(v, f"{path}.{field.name}" + (f"[{i}]" if repeated else ""))) is not None:
                    return bad
    return None


def _other_message(data: bytes) -> str | None:
    """The name of another ONNX message ``data`` parses as exactly (no unknown fields), if any."""
    import onnx
    from google.protobuf.message import DecodeError

    probes = (
        (onnx.GraphProto, lambda m: m.node or m.output),
        (onnx.TensorProto, lambda m: m.data_type),
        (onnx.NodeProto, lambda m: m.op_type),
        (onnx.FunctionProto, lambda m: m.node),
    )
    for cls, meaningful in probes:
        msg = cls()
        try:
            msg.ParseFromString(data)
        except (DecodeError, RuntimeError, ValueError):
            continue
        if meaningful(msg) and msg.ByteSize() == len(data) and msg.SerializeToString() == data:
            return cls.__name__
    return None


#: Operator domains onnxruntime implements beyond onnx's own (its contrib and internal ops).
RUNTIME_DOMAINS = frozenset(
    {
        "com.microsoft",
        "com.microsoft.nchwc",
        "com.microsoft.experimental",
        "com.ms.internal.nhwc",
        "com.microsoft.dml",
        "org.pytorch.aten",
    }
)


def check_runnable(model: onnx.ModelProto, where: str) -> None:
    """Refuse a model that neither onnx nor onnxruntime can know how to run.

    Checks the IR version and every opset_import against what the installed onnx knows
    (ONNX IR spec, "Opset version"), and every node domain against onnx's schema domains,
    :data:`RUNTIME_DOMAINS` and the model's local functions (IR >= 8).

    Raises:
        ModelLoadError: an IR version or opset newer than the installed onnx, a node whose
            domain nobody implements (the node is named), or a graph without outputs (onnxruntime
            runs only the outputs requested and refuses none; no pass's result could be compared).
    """
    import onnx
    import onnx.defs

    require_outputs(model, where)
    if model.ir_version > onnx.IR_VERSION:
        raise ModelLoadError(
            f"{where}: ir_version {model.ir_version} is newer than the installed onnx {onnx.__version__} "
            f"knows ({onnx.IR_VERSION}); upgrade onnx or re-export with an older IR version"
        )
    known = _max_opsets()
    for op in model.opset_import:
        dom = op.domain or "ai.onnx"
        if dom in known and op.version > known[dom]:
            raise ModelLoadError(
                f"{where}: opset_import {dom} version {op.version} is newer than the installed onnx "
                f"{onnx.__version__} knows (max {known[dom]}); upgrade onnx or convert the model to opset {known[dom]}"
            )
    local = {f.domain for f in model.functions}
    ok = set(known) | RUNTIME_DOMAINS | local
    for node in _all_nodes(model.graph):
        dom = node.domain or "ai.onnx"
        if dom not in ok:
            raise ModelLoadError(
                f"{where}: node {node.name or node.op_type!r} ({dom}::{node.op_type}) uses domain {dom!r}, "
                f"which neither onnx nor onnxruntime implements and no local function defines; "
                f"passcheck cannot run it"
            )


def require_outputs(model: onnx.ModelProto, where: str) -> None:
    """Refuse a model whose graph has no outputs: onnxruntime runs only the outputs requested and
    refuses an empty request, so no pass's result could be compared.

    Raises:
        ModelLoadError: the graph has no outputs.
    """
    if not model.graph.output:
        raise ModelLoadError(
            f"{where}: the graph has no outputs, so nothing it computes can be run or compared; "
            f"make the values to check graph outputs"
        )


def _max_opsets() -> dict[str, int]:
    import onnx.defs

    out: dict[str, int] = {}
    for s in onnx.defs.get_all_schemas_with_history():
        d = s.domain or "ai.onnx"
        out[d] = max(out.get(d, 0), s.since_version)
    out["ai.onnx"] = onnx.defs.onnx_opset_version()
    return out


def _all_nodes(graph: onnx.GraphProto):
    import onnx

    for n in graph.node:
        yield n
        for a in n.attribute:
            if a.type == onnx.AttributeProto.GRAPH:
                yield from _all_nodes(a.g)
            elif a.type == onnx.AttributeProto.GRAPHS:
                for g in a.graphs:
                    yield from _all_nodes(g)


def _uses_external_data(model: onnx.ModelProto) -> bool:
    import onnx

    return any(t.data_location == onnx.TensorProto.EXTERNAL for t in _all_tensors(model))


def _all_tensors(model: onnx.ModelProto):
    from onnx.external_data_helper import _get_all_tensors

    return _get_all_tensors(model)


def _check_external_paths(model: onnx.ModelProto, path: Path) -> None:
    import onnx

    root = path.parent.resolve()
    for t in _all_tensors(model):
        if t.data_location != onnx.TensorProto.EXTERNAL:
            continue
        loc = {e.key: e.value for e in t.external_data}.get("location", "")
        target = (root / loc).resolve()
        if Path(loc).is_absolute() or root not in target.parents:
            raise ModelLoadError(
                f"{path}: initializer {t.name!r}: external data location {loc!r} points outside the model's "
                f"folder {root}; "
                "refusing to read it (move the data file beside the model)"
            )
        if not target.is_file():
            raise ModelLoadError(
                f"{path}: initializer {t.name!r}: external data file {loc!r} is missing beside the model; "
                f"copy it into {root}"
            )


def command_path(path: str | Path) -> str:
    """``path`` as a word of a recorded command (a finding's repro): absolute, so the command runs from any
    folder (``passcheck repro``, ``triage`` and ``bisect`` read the model back from it), shell-quoted."""
    import shlex

    return shlex.quote(os.path.abspath(path))


def model_name(path: str | Path) -> str:
    """The model's stem, or its folder's name for backend-test layouts (``test_x/model.onnx``)."""
    p = Path(path)
    return p.parent.name if p.stem == "model" and p.parent.name else p.stem


def form_names(a: str | Path, b: str | Path) -> tuple[str, str]:
    """The form names of two model files (``compare``): their :func:`model_name` in safe characters,
    the second made distinct (``x``, ``x-2``), neither the reserved pseudo-pass name ``input``."""
    import re

    from passcheck.records import INPUT

    names: list[str] = []
    for path in (a, b):
        stem = re.sub(r"[^A-Za-z0-9_.+-]+", "-", model_name(path)).strip("-") or "model"
        name, k = stem, 2
        while name == INPUT or name in names:
            name, k = f"{stem}-{k}", k + 1
        names.append(name)
    return names[0], names[1]
