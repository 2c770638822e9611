"""Large initializer payloads of pass outputs, held once per content in the parent process.

A pass output that an isolation worker made and keeps (its runs and checker questions go to the
worker by digest, :class:`~passcheck.execution.Worker`) is read in passcheck's own process for its
structure only: nodes, value_info, initializer names and dims. Its big initializer payloads (a
ResNet-50 ``ort:basic`` output: ~100 MB of folded weights) were held once per form until every
form's cell of that pass was judged: 87 forms held 9-11 GB. :func:`hollow` moves each payload of at
least :data:`MIN_BYTES` into a process-wide store keyed by content (equal payloads of many forms:
one copy) and leaves in the tensor a marker: ``data_location`` EXTERNAL, ``external_data``
``location=passcheck-held``, ``checksum=`` the store's key (onnx's external-data fields, IR.md §External Tensor Data,
so a reader that loads tensor data without :func:`whole` fails loudly instead of reading nothing).
:func:`whole` gives back the model with its payloads (the same bytes as before :func:`hollow`);
whatever serializes a model or reads initializer data in the parent calls it.

The store's entries are counted per hollowed tensor; :func:`release` drops the entries of the keys
given (the executor releases what it hollowed when the engine is done with a subject). A payload's key
is the sha256 of its bytes (hex), so a worker can hollow a model it made before the reply crosses the
pipe (:func:`hollow_bytes`, on the serialized model, by its wire format: ModelProto field 7 ``graph``,
GraphProto field 5 ``initializer``, TensorProto fields 9 ``raw_data``, 13 ``external_data``, 14
``data_location``) and send only the payloads this process does not hold yet (:func:`pin` names them,
:func:`adopt` takes the reply's model and payloads in): equal folded weights of N forms' outputs cross
the pipe once, not N times (issue 28).
"""

from __future__ import annotations

import collections
import hashlib
import threading
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import onnx

#: Smallest ``raw_data`` (bytes, at least 1) of a main-graph initializer :func:`hollow` moves to the store.
MIN_BYTES = 1 << 20
#: ``external_data`` location that marks a payload held in the store.
LOCATION = "passcheck-held"
_EXTERNAL = 1  # TensorProto.EXTERNAL

#: key (sha256 of the payload, hex) → [payload, count of hollowed tensors (and pins) holding it]
_STORE: dict[str, list[Any]] = {}
_LOCK = threading.Lock()  # executors of several threads share the store


def key_of(data: bytes | memoryview) -> str:
    """The store's key of a payload: the sha256 of its bytes, hex."""
    return hashlib.sha256(data).hexdigest()


class Recognised:
    """In a worker: payloads whose key :func:`hollow_bytes` computed, kept (up to ``max_bytes`` of
    them, the least recently met dropped first) so that an equal payload met again is known by
    comparing bytes instead of hashing them: a ResNet-50 ``ort:basic`` output holds 29 payloads of
    >= 1 MiB (96 MB) in 7 distinct contents, and every form's output folds the same weights, so
    most payloads were hashed before. The key stays the sha256 of the bytes (:func:`key_of`): a
    payload is matched by its size and first and last :data:`PROBE` bytes, then compared whole
    (64-bit words, ~5x sha256's speed here), and hashed when no kept payload equals it.
    """

    #: Bytes at each end of a payload that pick the kept payload to compare it with.
    PROBE = 64

    def __init__(self, max_bytes: int = 128 << 20):
        self.max_bytes = max_bytes
        self.size = 0
        self._kept: collections.OrderedDict[tuple[int, bytes, bytes], tuple[bytes, str]] = collections.OrderedDict()

    def key(self, payload: memoryview) -> tuple[str, bytes | None]:
        """(:func:`key_of` ``payload``, the kept copy of its bytes or None when none is kept)."""
        n = self.PROBE
        probe = (len(payload), bytes(payload[:n]), bytes(payload[-n:]))
        kept = self._kept.get(probe)
        if kept is not None and _equal(kept[0], payload):
            self._kept.move_to_end(probe)
            return kept[1], kept[0]
        key = key_of(payload)
        if len(payload) > self.max_bytes:
            return key, None
        if kept is not None:  # the same ends, other bytes: the newer one is kept
            self.size -= len(self._kept.pop(probe)[0])
        data = bytes(payload)
        self._kept[probe] = (data, key)
        self.size += len(data)
        while self.size > self.max_bytes:
            self.size -= len(self._kept.popitem(last=False)[1][0])
        return key, data

    def clear(self) -> None:
        self._kept.clear()
        self.size = 0


def _equal(kept: bytes, payload: memoryview) -> bool:
    """Whether ``kept`` and ``payload`` (of equal length) hold the same bytes: compared as 64-bit words
    with numpy (a memoryview's own ``==`` reads it element by element, 3-4x slower than sha256)."""
    import numpy as np

    words = len(kept) // 8
    tail = words * 8
    return bool(np.array_equal(np.frombuffer(kept, np.uint64, words), np.frombuffer(payload, np.uint64, words))) and (
        kept[tail:] == bytes(payload[tail:])
    )


#: The worker's :class:`Recognised` (its budget set from the worker's memory cap as it starts).
RECOGNISED = Recognised()


def _hold(data: bytes, key: str | None = None) -> str:
    """The key of ``data`` in the store (an equal payload already held: that entry), counted once more."""
    key = key or key_of(data)
    with _LOCK:
        entry = _STORE.get(key)
        if entry is not None:
            entry[1] += 1
        else:
            _STORE[key] = [data, 1]
    return key


def release(keys: Iterable[str]) -> None:
    """Count each of ``keys`` once less; a payload no hollowed tensor holds any more is dropped."""
    with _LOCK:
        for key in keys:
            entry = _STORE.get(key)
            if entry is None:
                continue
            entry[1] -= 1
            if entry[1] <= 0:
                del _STORE[key]


def pin() -> list[str]:
    """The keys of every payload held now, each counted once more (so none is dropped meanwhile, by
    another thread's :func:`release`): what a worker need not send back (:func:`hollow_bytes`).
    :func:`release` them once the reply is adopted."""
    with _LOCK:
        for entry in _STORE.values():
            entry[1] += 1
        return list(_STORE)


def held_bytes() -> int:
    """Bytes of payloads the store holds now (what :func:`hollow` keeps in this process)."""
    return sum(len(e[0]) for e in _STORE.values())


def _movable(t: onnx.TensorProto) -> bool:
    return len(t.raw_data) >= MIN_BYTES and not t.HasField("data_location") and not len(t.external_data)


def hollow(model: onnx.ModelProto) -> tuple[onnx.ModelProto, list[str]]:
    """``model`` with each main-graph initializer payload of at least :data:`MIN_BYTES` held in the
    store (see module docs): (a new, small ModelProto; the keys it holds, for :func:`release`).
    A model with no such payload is returned as is with no keys. ``model`` itself is emptied of
    those payloads (the caller drops it: protobuf frees its memory with the message)."""
    import onnx

    keys: list[str] = []
    for t in model.graph.initializer:
        if not _movable(t):
            continue
        key = _hold(t.raw_data)
        keys.append(key)
        t.ClearField("raw_data")
        t.data_location = _EXTERNAL
        for k, v in (("location", LOCATION), ("checksum", key)):
            e = t.external_data.add()
            e.key, e.value = k, v
    if not keys:
        return model, keys
    return onnx.ModelProto.FromString(model.SerializeToString()), keys


def _key(t: onnx.TensorProto) -> str | None:
    if t.data_location != _EXTERNAL or len(t.external_data) != 2:
        return None
    fields = {e.key: e.value for e in t.external_data}
    return fields.get("checksum") if fields.get("location") == LOCATION else None


def is_hollow(model: onnx.ModelProto) -> bool:
    """Whether ``model`` holds a payload marker of :func:`hollow`."""
    return any(_key(t) is not None for t in model.graph.initializer)


def whole_tensor(t: onnx.TensorProto) -> onnx.TensorProto:
    """``t``, or a copy with its held payload back when :func:`hollow` moved it."""
    import onnx

    key = _key(t)
    if key is None:
        return t
    copy = onnx.TensorProto()
    copy.CopyFrom(t)
    _restore(copy, key)
    return copy


def whole(model: onnx.ModelProto) -> onnx.ModelProto:
    """``model`` itself when it holds no payload marker, else a copy with every held payload back
    (its bytes are those of the model :func:`hollow` was given).

    Raises:
        KeyError: a payload the store no longer holds (released while a hollow model was in use).
    """
    import onnx

    if not is_hollow(model):
        return model
    copy = onnx.ModelProto()
    copy.CopyFrom(model)
    for t in copy.graph.initializer:
        if (key := _key(t)) is not None:
            _restore(t, key)
    return copy


def _restore(t: onnx.TensorProto, key: str) -> None:
    t.raw_data = _STORE[key][0]
    t.ClearField("external_data")
    t.ClearField("data_location")


# -- in a worker: hollowing the serialized model, by its wire format ------------------------------
_LEN, _VARINT, _I64, _I32 = 2, 0, 1, 5
_GRAPH, _INITIALIZER = 7, 5  # ModelProto.graph, GraphProto.initializer
_RAW_DATA, _EXTERNAL_DATA, _DATA_LOCATION = 9, 13, 14  # TensorProto


def _varint(buf: memoryview, i: int) -> tuple[int, int]:
    """(value, next offset) of the base-128 varint at ``buf[i]`` (protobuf encoding, "Base 128 Varints")."""
    value = shift = 0
    while True:
        b = buf[i]
        i += 1
        value |= (b & 0x7F) << shift
        if b < 0x80:
            return value, i
        shift += 7


def _encode_varint(value: int) -> bytes:
    out = bytearray()
    while value > 0x7F:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def _fields(buf: memoryview, start: int, end: int) -> Iterable[tuple[int, int, int, int, int]]:
    """Each field of the message in ``buf[start:end]``: (number, wire type, field start, value start, end).

    Raises:
        ValueError: a wire type this reader does not know (groups), or a field running past ``end``.
    """
    i = start
    while i < end:
        at = i
        tag, i = _varint(buf, i)
        number, wire = tag >> 3, tag & 7
        if wire == _VARINT:
            _, j = _varint(buf, i)
        elif wire == _LEN:
            size, i = _varint(buf, i)
            j = i + size
        elif wire == _I64:
            j = i + 8
        elif wire == _I32:
            j = i + 4
        else:
            raise ValueError(f"wire type {wire} (field {number}) is not read here")
        if j > end:
            raise ValueError(f"field {number} runs past its message")
        yield number, wire, at, i, j
        i = j


def _len_field(number: int, body: bytes) -> bytes:
    return _encode_varint(number << 3 | _LEN) + _encode_varint(len(body)) + body


def _marker(key: str) -> bytes:
    """The fields :func:`hollow` sets on a tensor whose payload it moved: ``external_data``
    (location, checksum) and ``data_location`` EXTERNAL."""
    entries = b"".join(
        _len_field(_EXTERNAL_DATA, _len_field(1, k.encode()) + _len_field(2, v.encode()))
        for k, v in (("location", LOCATION), ("checksum", key))
    )
    return entries + _encode_varint(_DATA_LOCATION << 3 | _VARINT) + _encode_varint(_EXTERNAL)


def _hollow_tensor(
    buf: memoryview, start: int, end: int, min_bytes: int, recognised: Recognised | None
) -> tuple[bytes, str, memoryview | bytes] | None:
    """The TensorProto ``buf[start:end]`` without its ``raw_data`` and with :func:`_marker` (its bytes,
    the payload's key, the payload: a copy ``recognised`` keeps, else a view of ``buf``), when
    :func:`_movable` would move it; else None."""
    raw = None
    for number, _, at, value, end_ in _fields(buf, start, end):
        if number in (_EXTERNAL_DATA, _DATA_LOCATION):
            return None
        if number == _RAW_DATA:
            raw = (at, value, end_)
    if raw is None or raw[2] - raw[1] < max(1, min_bytes):
        return None
    payload = buf[raw[1] : raw[2]]
    key, data = recognised.key(payload) if recognised is not None else (key_of(payload), None)
    return bytes(buf[start : raw[0]]) + bytes(buf[raw[2] : end]) + _marker(key), key, data or payload


def hollow_bytes(
    data: bytes, known: set[str], min_bytes: int | None = None, recognised: Recognised | None = None
) -> tuple[bytes, dict[str, bytes]]:
    """In a worker: the serialized ModelProto ``data`` as :func:`hollow` would leave it (each main-graph
    initializer payload of at least ``min_bytes``, default :data:`MIN_BYTES`, replaced by its marker,
    keyed by :func:`key_of`), serialized, and the payloads of keys not in ``known`` (what the caller's
    store lacks), by key; their keys are added to ``known`` (the next output of the same batch need
    not send them). :func:`adopt` in the caller gives the model :func:`hollow` would have given (its
    payloads back with :func:`whole`: ``data`` itself). Nothing to move: ``(data, {})``. With
    ``recognised`` (the worker's :data:`RECOGNISED`), a payload equal to one it keeps is keyed without
    hashing it (the same keys either way).

    Read on the wire format (see module docs), so no payload is copied but the ones sent.

    Raises:
        ValueError: ``data`` is not a well-formed message (a wire type not read here, a field past its end).
    """
    min_bytes = MIN_BYTES if min_bytes is None else min_bytes
    buf = memoryview(data)
    sent: dict[str, bytes] = {}
    for number, wire, at, value, end in _fields(buf, 0, len(buf)):
        if number != _GRAPH or wire != _LEN:
            continue
        parts: list[bytes] = []
        moved, last = False, value
        for g_number, g_wire, g_at, g_value, g_end in _fields(buf, value, end):
            if g_number != _INITIALIZER or g_wire != _LEN:
                continue
            got = _hollow_tensor(buf, g_value, g_end, min_bytes, recognised)
            if got is None:
                continue
            tensor, key, payload = got
            parts += [bytes(buf[last:g_at]), _len_field(_INITIALIZER, tensor)]
            last, moved = g_end, True
            if key not in known:
                known.add(key)
                sent[key] = payload if isinstance(payload, bytes) else bytes(payload)
        if not moved:
            return data, {}
        parts.append(bytes(buf[last:end]))
        return bytes(buf[:at]) + _len_field(_GRAPH, b"".join(parts)) + bytes(buf[end:]), sent
    return data, {}


def adopt(model: onnx.ModelProto, sent: dict[str, bytes]) -> list[str]:
    """In the caller: hold the payloads a worker sent (:func:`hollow_bytes`) and count every marker
    of ``model`` (its hollowed tensors) once more; the keys, for :func:`release`.

    Raises:
        KeyError: a marker naming a payload neither sent nor held (the caller did not :func:`pin`
            what it told the worker it holds).
    """
    keys = [k for t in model.graph.initializer if (k := _key(t)) is not None]
    with _LOCK:
        missing = [k for k in keys if k not in _STORE and k not in sent]
        if missing:
            raise KeyError(f"payloads neither sent nor held: {missing[:3]}")
        for k in keys:
            entry = _STORE.get(k)
            if entry is not None:
                entry[1] += 1
            else:
                _STORE[k] = [sent[k], 1]
    return keys
